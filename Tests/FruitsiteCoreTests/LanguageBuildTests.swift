import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// A site in several languages is built as one site per language: each language's pages in
/// its folder, each page naming its translations in the switcher and in its `hreflang`
/// alternates, and what a language lacks shown from the default language or left out.
@Suite struct LanguageBuildTests {
    /// The test entries but the Arabic one.
    static let twoLanguageEntries = LanguageSite.entries.filter { !$0.0.hasSuffix(".ar.md") }

    /// The fruit pages of the output, `fruits/<slug>/index.html` below each language's folder.
    static func fruitPages(_ site: LanguageSite) -> [String] {
        site.files.filter { $0.contains(/^([a-z]+\/)?fruits\/[^\/]+\/index\.html$/) }
    }

    // MARK: - Two languages

    /// French pages go below `fr/`, each with its language and a switcher to the same page in
    /// English; a French page of an entry with no translation shows the English one, marked
    /// and not to be indexed. Without a base URL no page has alternates or a canonical link.
    @Test func aBilingualSiteWritesEachLanguageInItsFolder() throws {
        // No sitemap: it needs a base URL.
        let site = try LanguageSite(
            config: LanguageSite.bilingual + "sitemap: false\n", entries: Self.twoLanguageEntries)
        defer { site.folder.remove() }
        let built = try site.build()
        #expect(LanguageSite.others(built.warnings).isEmpty)
        #expect(
            Self.fruitPages(site) == [
                "fr/fruits/apple/index.html", "fr/fruits/banana/index.html",
                "fr/fruits/cherry/index.html", "fr/fruits/eglantier/index.html",
                "fruits/apple/index.html", "fruits/banana/index.html",
                "fruits/cherry/index.html",
            ])
        for path in ["index.html", "404.html", "categories/index.html"] {
            #expect(site.exists(path) && site.exists("fr/" + path), "\(path)")
        }
        // robots.txt is the root's alone.
        #expect(try site.page("robots.txt") == "User-agent: *\nAllow: /\n")
        #expect(!site.exists("fr/robots.txt"))
        // A page of the facet's values is English alone: the switcher leads to the French home.
        #expect(site.exists("vitamins/index.html") && !site.exists("fr/vitamins/index.html"))
        #expect(
            LanguageSite.switcher(of: try site.page("vitamins/index.html")).map(\.description)
                == ["en ../vitamins/ ltr current", "fr ../fr/ ltr"])
        // A category is its language's: the French site has the English fallback's.
        #expect(site.exists("categories/pomes/index.html"))
        #expect(!site.exists("fr/categories/pomes/index.html"))
        #expect(site.exists("fr/categories/pepins/index.html"))
        #expect(site.exists("fr/categories/stone/index.html"))

        let apple = try site.page("fr/fruits/apple/index.html")
        #expect(LanguageSite.htmlLanguage(of: apple) == "fr ltr")
        #expect(LanguageSite.htmlLanguage(of: try site.page("index.html")) == "en ltr")
        #expect(apple.contains("<bdi>Pomme</bdi>") && apple.contains("Catalogue de fruits"))
        #expect(
            LanguageSite.switcher(of: apple).map(\.description) == [
                "en ../../../fruits/apple/ ltr", "fr ../../../fr/fruits/apple/ ltr current",
            ])
        #expect(
            LanguageSite.switcher(of: try site.page("index.html")).map(\.description) == [
                "en ./ ltr current", "fr fr/ ltr",
            ])
        // Églantier is French alone: the English link leads to the English home.
        #expect(
            LanguageSite.switcher(of: try site.page("fr/fruits/eglantier/index.html"))
                .map(\.description) == [
                    "en ../../../ ltr", "fr ../../../fr/fruits/eglantier/ ltr current",
                ])

        let cherry = try site.page("fr/fruits/cherry/index.html")
        #expect(LanguageSite.isNoindex(cherry) && cherry.contains("<bdi>Cherry</bdi>"))
        #expect(cherry.contains("(non traduit)"))
        #expect(
            LanguageSite.switcher(of: cherry).map(\.description) == [
                "en ../../../fruits/cherry/ ltr",
                "fr ../../../fr/fruits/cherry/ ltr current fallback",
            ])
        // The English page marks the French one as untranslated too, and is itself indexed.
        let englishCherry = try site.page("fruits/cherry/index.html")
        #expect(!LanguageSite.isNoindex(englishCherry))
        #expect(
            LanguageSite.switcher(of: englishCherry).map(\.description) == [
                "en ../../fruits/cherry/ ltr current", "fr ../../fr/fruits/cherry/ ltr fallback",
            ])
        for page in [apple, cherry, englishCherry] {
            #expect(LanguageSite.alternates(of: page).isEmpty)
            #expect(LanguageSite.canonical(of: page) == nil)
        }

        // Each language's search index holds its own entries, and the fallback.
        #expect(try site.searchNames() == ["Apple", "Banana", "Cherry"])
        let french = ["Banane", "Cherry", "Églantier", "Pomme"]
        #expect(try site.searchNames(in: "fr/") == french)
        let builder = SiteBuilder(options: site.options)
        let config = builder.loadConfig().config
        let catalog = builder.loadCatalog(config: try #require(config.part(inLanguage: "fr")))
        #expect(catalog.diagnostics.isEmpty)
        #expect(catalog.catalog?.fruits.map(\.name) == french)
        #expect(config.part(inLanguage: "FR") == config.part(inLanguage: "fr"))
        #expect(config.part(inLanguage: "de") == nil)
        let english = builder.loadCatalog(config: try #require(config.part(inLanguage: nil)))
        #expect(english.catalog?.fruits.map(\.name) == ["Apple", "Banana", "Cherry"])
    }

    /// A category's page is the same page in another language when that language's category
    /// lists exactly the translations of its fruits: its switcher and alternates lead there.
    /// Where the translations are split or merged otherwise, or none is translated, they lead
    /// to the language's home page, and name no alternate.
    @Test func aCategoryPageNamesTheCategoryThatListsItsTranslations() throws {
        let entries =
            Self.twoLanguageEntries + [
                ("kiwi.md", "name: Kiwi\ncategory: Berries"),
                ("kiwi.fr.md", "name: Kiwi\ncategory: Tropicaux"),
            ]
        let site = try LanguageSite(
            config: "baseURL: https://example.org/\n" + LanguageSite.bilingual, entries: entries)
        defer { site.folder.remove() }
        #expect(LanguageSite.others(try site.build().warnings).isEmpty)
        let switchers = try [
            "categories/pomes/", "fr/categories/pepins/", "categories/stone/",
            "fr/categories/stone/", "categories/tropical/", "fr/categories/tropicaux/",
        ].map { LanguageSite.switcher(of: try site.page($0 + "index.html")).map(\.url) }
        #expect(
            switchers == [
                // Pomes is Pépins: the French apple is its one French fruit.
                ["../../categories/pomes/", "../../fr/categories/pepins/"],
                ["../../../categories/pomes/", "../../../fr/categories/pepins/"],
                // The cherry is not translated: French lists it by fallback, in its own Stone.
                ["../../categories/stone/", "../../fr/"],
                ["../../../", "../../../fr/categories/stone/"],
                // Tropicaux holds the translations of Tropical and of Berries.
                ["../../categories/tropical/", "../../fr/"],
                ["../../../", "../../../fr/categories/tropicaux/"],
            ])
        let pepins = [
            "en": "https://example.org/categories/pomes/",
            "fr": "https://example.org/fr/categories/pepins/",
            "x-default": "https://example.org/categories/pomes/",
        ]
        #expect(LanguageSite.alternates(of: try site.page("categories/pomes/index.html")) == pepins)
        #expect(
            LanguageSite.alternates(of: try site.page("fr/categories/pepins/index.html")) == pepins)
        #expect(
            LanguageSite.alternates(of: try site.page("categories/tropical/index.html")).isEmpty)
        #expect(try Self.expectAlternatesAgree(site, baseURL: "https://example.org/") > 0)
    }

    // MARK: - Three languages, with a base URL

    /// With a base URL every indexed page names its translations, itself and `x-default`,
    /// absolutely, and each of them names it back; a French fallback names none and points
    /// its canonical link at the English page; Arabic, with no fallback, has no page for
    /// what it lacks, and no page names one.
    @Test func aTrilingualSiteNamesEachPageInTheOthers() throws {
        let site = try LanguageSite(config: LanguageSite.trilingual)
        defer { site.folder.remove() }
        let built = try site.build()
        #expect(LanguageSite.others(built.warnings).isEmpty)
        let base = "https://example.org/shop/"
        #expect(
            Self.fruitPages(site).filter { $0.hasPrefix("ar/") } == ["ar/fruits/apple/index.html"])
        #expect(site.exists("ar/index.html") && site.exists("ar/sitemap1.xml"))
        for file in ["robots.txt", "sitemap.xml"] {
            #expect(!site.exists("fr/" + file) && !site.exists("ar/" + file), "\(file)")
        }
        #expect(
            try site.page("robots.txt")
                == "User-agent: *\nAllow: /\nSitemap: \(base)sitemap.xml\n")

        let arabic = try site.page("ar/fruits/apple/index.html")
        #expect(LanguageSite.htmlLanguage(of: arabic) == "ar rtl")
        #expect(LanguageSite.htmlLanguage(of: try site.page("ar/index.html")) == "ar rtl")
        #expect(
            LanguageSite.switcher(of: arabic).map(\.description) == [
                "en ../../../fruits/apple/ ltr", "fr ../../../fr/fruits/apple/ ltr",
                "ar ../../../ar/fruits/apple/ rtl current",
            ])
        let apple = [
            "en": base + "fruits/apple/", "fr": base + "fr/fruits/apple/",
            "ar": base + "ar/fruits/apple/", "x-default": base + "fruits/apple/",
        ]
        for page in ["fruits/apple/", "fr/fruits/apple/", "ar/fruits/apple/"] {
            let html = try site.page(page + "index.html")
            #expect(LanguageSite.alternates(of: html) == apple, "\(page)")
            #expect(LanguageSite.canonical(of: html) == base + page)
        }
        #expect(
            LanguageSite.alternates(of: try site.page("fr/index.html")) == [
                "en": base, "fr": base + "fr/", "ar": base + "ar/", "x-default": base,
            ])

        // The folder that leads to the home is the home by its canonical link: no alternates
        // name it, which are to name the pages search engines index.
        let folder = try site.page("fr/fruits/index.html")
        #expect(LanguageSite.canonical(of: folder) == base + "fr/")
        #expect(LanguageSite.alternates(of: folder).isEmpty)
        #expect(LanguageSite.switcher(of: folder).count == 3)

        // Only English has the page of the vitamins' values: no alternate names another.
        #expect(
            LanguageSite.alternates(of: try site.page("vitamins/index.html")) == [
                "en": base + "vitamins/", "x-default": base + "vitamins/",
            ])
        #expect(LanguageSite.switcher(of: try site.page("vitamins/index.html"))[2].url == "../ar/")

        // Banana has no Arabic page: the switcher leads to the Arabic home, no alternate to it.
        let banana = try site.page("fr/fruits/banana/index.html")
        #expect(LanguageSite.switcher(of: banana).last?.description == "ar ../../../ar/ rtl")
        #expect(
            LanguageSite.alternates(of: banana) == [
                "en": base + "fruits/banana/", "fr": base + "fr/fruits/banana/",
                "x-default": base + "fruits/banana/",
            ])

        // Cherry is French by fallback: the French page is no alternate of the English one.
        let cherry = try site.page("fr/fruits/cherry/index.html")
        #expect(LanguageSite.isNoindex(cherry))
        #expect(LanguageSite.canonical(of: cherry) == base + "fruits/cherry/")
        #expect(LanguageSite.alternates(of: cherry).isEmpty)
        #expect(LanguageSite.switcher(of: cherry)[1].description.hasSuffix("current fallback"))
        // The page is French, what it shows of the entry English.
        #expect(LanguageSite.htmlLanguage(of: cherry) == "fr ltr")
        #expect(cherry.contains(#"<article class="fruit" lang="en" dir="ltr">"#))
        #expect(
            try site.page("fr/fruits/banana/index.html").contains(#"<article class="fruit">"#))
        #expect(
            LanguageSite.alternates(of: try site.page("fruits/cherry/index.html")) == [
                "en": base + "fruits/cherry/", "x-default": base + "fruits/cherry/",
            ])
        // Églantier is French alone, and its own x-default.
        #expect(
            LanguageSite.alternates(of: try site.page("fr/fruits/eglantier/index.html")) == [
                "fr": base + "fr/fruits/eglantier/", "x-default": base + "fr/fruits/eglantier/",
            ])

        let frenchSitemap = try site.page("fr/sitemap1.xml")
        #expect(frenchSitemap.contains("<loc>\(base)fr/fruits/apple/</loc>"))
        #expect(frenchSitemap.contains("<loc>\(base)fr/fruits/eglantier/</loc>"))
        #expect(!frenchSitemap.contains("cherry"))
        #expect(!frenchSitemap.contains("<loc>\(base)fruits/"), "no English page")
        #expect(try site.page("sitemap1.xml").contains("<loc>\(base)fruits/cherry/</loc>"))
        #expect(!(try site.page("ar/sitemap1.xml")).contains("banana"))

        #expect(try site.searchNames(in: "ar/") == ["تفاح"])
        #expect(try site.searchNames(in: "fr/") == ["Banane", "Cherry", "Églantier", "Pomme"])
        #expect(try site.searchNames() == ["Apple", "Banana", "Cherry"])

        let named = try Self.expectAlternatesAgree(site, baseURL: base)
        #expect(named > 10, "\(named) pages have alternates")
        #expect(try Self.expectSitemapsAgree(site, baseURL: base) == named)
        let checked = try SiteBuilder(options: site.options).check()
        #expect(LanguageSite.others(checked.warnings).isEmpty)
        #expect(checked.htmlPageCount == built.htmlPageCount)
    }

    /// Expects every page with alternates to name itself in its own language and an
    /// `x-default`, and every page it names to exist and name the same pages.
    /// - Returns: How many pages have alternates.
    static func expectAlternatesAgree(_ site: LanguageSite, baseURL: String) throws -> Int {
        var count = 0
        for path in site.files where path.hasSuffix(".html") {
            let html = try site.page(path)
            let alternates = LanguageSite.alternates(of: html)
            guard !alternates.isEmpty else { continue }
            count += 1
            let address = baseURL + path.dropLast("index.html".count)
            let language = try #require(LanguageSite.htmlLanguage(of: html)?.split(separator: " "))
            #expect(alternates[String(language[0])] == address, "\(path) names itself")
            #expect(alternates["x-default"] != nil, "\(path) has an x-default")
            for (code, url) in alternates where code != "x-default" {
                #expect(url.hasPrefix(baseURL), "\(path): \(url)")
                let target = String(url.dropFirst(baseURL.count) + "index.html")
                guard site.exists(target) else {
                    Issue.record("\(path): \(code) leads nowhere")
                    continue
                }
                let back = LanguageSite.alternates(of: try site.page(target))
                #expect(back == alternates, "\(path) and \(target) name different pages")
            }
        }
        return count
    }

    /// Expects the root's sitemap to be the index of every language's files, each address in
    /// them to be a page, the pages to be those that are to be indexed, and each address to
    /// carry the alternates of its page's head.
    /// - Returns: How many addresses have alternates.
    /// - Parameter folders: The languages' folders, in order.
    static func expectSitemapsAgree(
        _ site: LanguageSite, baseURL: String, folders: [String] = ["", "fr/", "ar/"]
    ) throws -> Int {
        let index = try site.page("sitemap.xml")
        #expect(index.contains("<sitemapindex "))
        let files = index.matches(of: /<sitemap><loc>([^<]*)<\/loc><\/sitemap>/).map {
            String($0.1.dropFirst(baseURL.count))
        }
        #expect(files == folders.map { $0 + "sitemap1.xml" })
        var (listed, count): (Set<String>, Int) = ([], 0)
        for file in files {
            let sitemap = try site.page(file)
            #expect(sitemap.contains(#"xmlns:xhtml="http://www.w3.org/1999/xhtml""#))
            for url in sitemap.matches(of: /<url>(.*)<\/url>/) {
                let location = try #require(url.1.firstMatch(of: /<loc>([^<]*)<\/loc>/)).1
                let path = String(location.dropFirst(baseURL.count)) + "index.html"
                guard site.exists(path) else {
                    Issue.record("\(file) lists \(location), which is no page")
                    continue
                }
                listed.insert(path)
                let pattern = /<xhtml:link rel="alternate" hreflang="([^"]*)" href="([^"]*)"\/>/
                let alternates = Dictionary(
                    url.1.matches(of: pattern).map { (String($0.1), String($0.2)) },
                    uniquingKeysWith: { first, _ in first })
                #expect(alternates == LanguageSite.alternates(of: try site.page(path)), "\(path)")
                if !alternates.isEmpty { count += 1 }
            }
        }
        let indexed = try site.files.filter { path in
            guard path.hasSuffix("index.html") else { return false }
            let html = try site.page(path)
            let address = baseURL + path.dropLast("index.html".count)
            return !LanguageSite.isNoindex(html) && LanguageSite.canonical(of: html) == address
        }
        #expect(listed == Set(indexed))
        return count
    }
}
