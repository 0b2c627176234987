import Testing

@testable import FruitsiteCore

/// Which hreflang alternates of a rendered site do not agree.
@Suite struct AlternateCheckerTests {
    /// A page whose head has these alternates, `(hreflang, href)`, and whose body has `body`.
    private func page(
        _ path: String, _ alternates: [(String, String)], body: String = ""
    ) -> RenderedPage {
        let links = alternates.map { language, href in
            #"<link rel="alternate" hreflang="\#(language)" href="\#(href)">"#
        }
        return RenderedPage(
            path: path,
            text: "<!doctype html><html><head>\n" + links.joined(separator: "\n")
                + "\n</head><body>\(body)</body></html>")
    }

    /// Each problem as `page: message`.
    private func problems(
        _ files: [RenderedPage], baseURL: String = "https://example.org/shop/"
    ) -> [String] {
        AlternateChecker(files: files, baseURL: baseURL).problems().map {
            "\($0.page): \($0.message)"
        }
    }

    /// Two languages and `x-default`, under a base path, each page naming the others in a
    /// different form: absolute, root-relative, relative, the folder or its `index.html`.
    private var agreeingSite: [RenderedPage] {
        [
            page(
                "fruits/apple/index.html",
                [
                    ("en", "https://example.org/shop/fruits/apple/"),
                    ("fr", "../../fr/fruits/pomme/"),
                    ("x-default", "/shop/fruits/apple/index.html"),
                ]),
            page(
                "fr/fruits/pomme/index.html",
                [
                    ("en", "/shop/fruits/apple/"),
                    ("fr", "./"),
                    ("x-default", "HTTPS://Example.ORG/shop/fruits/apple"),
                ]),
            page("index.html", [], body: #"<a href="fruits/apple/">Apple</a>"#),
        ]
    }

    // MARK: - Reading

    /// Only a `<link>` in the head with `rel` holding `alternate` and an `hreflang`, its
    /// attributes in any order and case, is an alternate; a feed's `rel=alternate` and any
    /// other `<link>` stay links, as does one in the body.
    @Test func readsTheHeadsAlternatesAndLeavesOtherLinksLinks() {
        let html = """
            <html><head><link rel="alternate" hreflang="fr" href="fr/">
            <LINK HREF='de/' Rel="Alternate home" HREFLANG=de>
            <link rel="alternate" type="application/atom+xml" href="feed.xml">
            <link rel="stylesheet" href="site.css" hreflang="en">
            <link rel="alternate" hreflang="it" href="it/?q=1&amp;r=2" id="it">
            </head><body><link rel="alternate" hreflang="es" href="es/"><a href="x/">x</a>
            """
        var whole: [String] = []
        HTMLAttributes.scan(Array(html.utf8)) { kind, value in
            switch kind {
            case .link: whole.append("link \(value)")
            case .id: whole.append("id \(value)")
            case .alternate(let language): whole.append("\(language) \(value)")
            }
        }
        #expect(
            whole == [
                "fr fr/", "de de/", "link feed.xml", "link site.css", "id it", "it it/?q=1&r=2",
                "link es/", "link x/",
            ])
        var head: [String] = []
        HTMLAttributes.scanHead(Array(html.utf8)) { kind, value in
            if case .alternate(let language) = kind { head.append("\(language) \(value)") }
        }
        #expect(head == ["fr fr/", "de de/", "it it/?q=1&r=2"])
        #expect(
            HTMLAttributes.scan(Array(html.utf8)).links == ["feed.xml", "site.css", "es/", "x/"])
    }

    /// The head ends at `</head>` or at `<body>`: a `<link>` after either is a link.
    @Test func theHeadEndsAtItsCloseOrTheBody() {
        for html in [
            #"<head></head><link rel="alternate" hreflang="fr" href="fr/">"#,
            #"<title>t</title><body><link rel="alternate" hreflang="fr" href="fr/">"#,
        ] {
            var found: [String] = []
            HTMLAttributes.scan(Array(html.utf8)) { kind, value in
                if case .link = kind { found.append(value) }
            }
            #expect(found == ["fr/"], "\(html)")
            var head: [String] = []
            HTMLAttributes.scanHead(Array(html.utf8)) { _, value in head.append(value) }
            #expect(head.isEmpty, "\(html)")
        }
    }

    /// The link checker leaves an alternate that leads nowhere to the alternate checker,
    /// which says more of it.
    @Test func aBrokenAlternateIsNoBrokenLink() {
        let files = [page("index.html", [("en", ""), ("x-default", ""), ("fr", "fr/")])]
        #expect(LinkChecker(files: files, basePath: "/").brokenLinks() == [])
        #expect(
            problems(files) == [
                "index.html: the alternate 'fr' leads to fr/index.html, which is no page of the "
                    + "site"
            ])
    }

    // MARK: - The rules

    @Test func agreeingAlternatesInEveryFormArePassed() {
        #expect(problems(agreeingSite) == [])
    }

    /// A one-language site has no alternates, and nothing of it is checked; a feed's
    /// `rel=alternate` is no hreflang alternate.
    @Test func pagesWithoutAlternatesAreNotChecked() {
        let files = [
            RenderedPage(
                path: "index.html",
                text: #"<head><link rel="alternate" type="application/rss+xml" href="nope.xml">"#),
            page("about/index.html", []),
        ]
        #expect(problems(files) == [])
    }

    @Test func anAlternateThatLeadsNowhere() {
        var files = agreeingSite
        files[0] = page(
            "fruits/apple/index.html",
            [
                ("en", "https://example.org/shop/fruits/apple/"),
                ("fr", "../../fr/fruits/pomme/"),
                ("de", "https://example.org/shop/de/fruits/apfel/"),
                ("it", "/shop/it/"),
                ("es", "../../../../es/"),
                ("x-default", "/shop/fruits/apple/index.html"),
            ])
        #expect(
            problems(files) == [
                "fruits/apple/index.html: the alternate 'de' leads to de/fruits/apfel/index.html, "
                    + "which is no page of the site",
                "fruits/apple/index.html: the alternate 'it' leads to it/index.html, which is no "
                    + "page of the site",
                "fruits/apple/index.html: the alternate 'es' leads to ../../../../es/, which "
                    + "climbs above the host's root",
            ])
    }

    /// A page named as an alternate names the page back, under any language; one that names
    /// other pages but not this one, or none, does not.
    @Test func anAlternateThatDoesNotNameThisPageBack() {
        var files = agreeingSite
        files[1] = page(
            "fr/fruits/pomme/index.html",
            [("fr", "./"), ("x-default", "./"), ("en", "/shop/fruits/pear/")])
        files.append(page("fruits/pear/index.html", [("en", ""), ("x-default", "")]))
        files.append(page("fr/index.html", []))
        files[2] = page("index.html", [("en", ""), ("x-default", ""), ("fr", "fr/")])
        #expect(
            problems(files) == [
                "fr/fruits/pomme/index.html: the alternate 'en' leads to fruits/pear/index.html, "
                    + "which does not name this page back",
                "fruits/apple/index.html: the alternate 'fr' leads to "
                    + "fr/fruits/pomme/index.html, which does not name this page back",
                "index.html: the alternate 'fr' leads to fr/index.html, which has no "
                    + "alternates to name this page back",
            ])
    }

    @Test func alternatesWithoutXDefault() {
        var files = agreeingSite
        files[0] = page(
            "fruits/apple/index.html",
            [("en", "./"), ("fr", "../../fr/fruits/pomme/")])
        // `X-Default` is `x-default`: a language tag's case does not count.
        files[1] = page(
            "fr/fruits/pomme/index.html",
            [("en", "/shop/fruits/apple/"), ("fr", "./"), ("X-Default", "./")])
        #expect(
            problems(files) == ["fruits/apple/index.html: the alternates name no 'x-default'"])
    }

    @Test func alternatesThatDoNotNameThePageItself() {
        var files = agreeingSite
        files[1] = page(
            "fr/fruits/pomme/index.html",
            [("en", "/shop/fruits/apple/"), ("x-default", "/shop/fruits/apple/")])
        #expect(
            problems(files) == [
                "fr/fruits/pomme/index.html: the alternates do not name this page itself"
            ])
    }

    /// One language twice is fine when both lead to one page, however each is written.
    @Test func oneLanguageForTwoPages() {
        var files = agreeingSite
        files[0] = page(
            "fruits/apple/index.html",
            [
                ("en", "https://example.org/shop/fruits/apple/"),
                ("EN", "./index.html"),
                ("fr", "../../fr/fruits/pomme/"),
                ("fr", "https://example.com/fr/"),
                ("x-default", "/shop/fruits/apple/index.html"),
            ])
        #expect(
            problems(files) == [
                "fruits/apple/index.html: the alternate 'fr' leads to https://example.com/fr/, "
                    + "but an earlier alternate 'fr' leads to fr/fruits/pomme/index.html"
            ])
    }

    @Test(arguments: ["en", "fr-CA", "zh-Hant-TW", "x-default", "pt-BR", "sr-Latn", "es-419"])
    func aLanguageTagIsPassed(_ tag: String) {
        #expect(LanguageTag.isWellFormed(tag))
    }

    @Test(arguments: [
        ("fr_CA", "did you mean 'fr-CA'?"),
        ("en-", "hreflang takes a BCP 47 tag such as 'fr' or 'fr-CA', or 'x-default'"),
        ("", "hreflang takes a BCP 47 tag such as 'fr' or 'fr-CA', or 'x-default'"),
        ("français", "hreflang takes a BCP 47 tag such as 'fr' or 'fr-CA', or 'x-default'"),
        ("e-GB", "hreflang takes a BCP 47 tag such as 'fr' or 'fr-CA', or 'x-default'"),
        ("en-toolongsubtag", "hreflang takes a BCP 47 tag such as 'fr' or 'fr-CA', or 'x-default'"),
    ])
    func anHreflangThatIsNoLanguageTag(_ tag: String, hint: String) {
        var files = agreeingSite
        files[0] = page(
            "fruits/apple/index.html",
            [
                ("en", "./"), (tag, "../../fr/fruits/pomme/"), ("x-default", "./"),
            ])
        let problems = AlternateChecker(files: files, baseURL: "https://example.org/shop/")
            .problems()
        #expect(problems.map(\.message) == ["the alternate '\(tag)' is not a language tag"])
        #expect(problems.map(\.hint) == [hint])
        #expect(!LanguageTag.isWellFormed(tag))
    }

    // MARK: - Other sites

    /// An alternate on another host, or on this one outside the base URL's path, is another
    /// site's page, which is not followed: it neither leads nowhere nor needs naming back,
    /// and it is not the page itself.
    @Test func anAlternateOnAnotherSiteIsNotFollowed() {
        let files = [
            page(
                "fruits/apple/index.html",
                [
                    ("en", "../../fruits/apple/"),
                    ("fr", "https://example.fr/fruits/pomme/"),
                    ("de", "https://example.org/de/fruits/apfel/"),
                    ("it", "/it/fruits/mela/"),
                    ("es", "//example.es/manzana/"),
                    ("pt", "http://example.org/shop/fruits/apple/"),
                    ("x-default", "../../../fruits/apple/"),
                ]),
            page("about/index.html", [("en", "https://example.com/about/"), ("x-default", "/")]),
        ]
        #expect(
            problems(files) == [
                "about/index.html: the alternates do not name this page itself"
            ])
    }

    /// Without a base URL, an absolute URL cannot be told to be the site's own: it is not
    /// followed, and may be the page itself. Relative ones still are.
    @Test func withoutABaseURLAnAbsoluteAlternateIsNotFollowed() {
        let files = [
            page(
                "fruits/apple/index.html",
                [
                    ("en", "https://example.org/fruits/apple/"),
                    ("fr", "../../fr/fruits/pomme/"),
                    ("x-default", "https://example.org/fruits/apple/"),
                ]),
            page("fr/fruits/pomme/index.html", [("fr", "./"), ("x-default", "./")]),
        ]
        #expect(
            problems(files, baseURL: "") == [
                "fruits/apple/index.html: the alternate 'fr' leads to "
                    + "fr/fruits/pomme/index.html, which does not name this page back"
            ])
    }

    /// A site served at a host's root: root-relative addresses count from `/`, and an
    /// escaped one as it is decoded.
    @Test func aSiteAtTheHostsRoot() {
        let files = [
            page(
                "fruits/açaí/index.html",
                [
                    ("pt", "/fruits/a%C3%A7a%C3%AD/"),
                    ("x-default", "https://example.org/fruits/açaí/"),
                ]),
            page("index.html", [("en", "https://example.org"), ("x-default", "/nope/")]),
        ]
        #expect(
            problems(files, baseURL: "https://example.org/") == [
                "index.html: the alternate 'x-default' leads to nope/index.html, which is no page "
                    + "of the site"
            ])
    }

    // MARK: - Batches

    /// `check` adds pages a batch at a time as they render and keeps none: return links are
    /// judged once every page was added, whichever batch brought each.
    @Test func judgesPagesAddedInBatchesAsPagesAddedAtOnce() {
        var files = agreeingSite
        files[1] = page("fr/fruits/pomme/index.html", [("fr", "./"), ("en", "/shop/nope/")])
        var batched = AlternateChecker(
            paths: Set(files.map(\.path)), baseURL: "https://example.org/shop/")
        for file in files.reversed() { batched.add([file]) }
        let whole = AlternateChecker(files: files, baseURL: "https://example.org/shop/")
        #expect(batched.problems() == whole.problems())
        #expect(
            problems(files) == [
                "fr/fruits/pomme/index.html: the alternate 'en' leads to nope/index.html, which "
                    + "is no page of the site",
                "fr/fruits/pomme/index.html: the alternates name no 'x-default'",
                "fruits/apple/index.html: the alternate 'fr' leads to "
                    + "fr/fruits/pomme/index.html, which does not name this page back",
            ])
    }
}
