import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// The theme's words: the string table of the site's language, plural forms by CLDR's rules.
@Suite struct ThemeStringsTests {
    static let fruits = [
        (slug: "apple", front: "name: Apple\ncategory: Pome"),
        (slug: "pear", front: "name: Pear\ncategory: Pome"),
        (slug: "kiwi", front: "name: Kiwi\ncategory: Berry"),
    ]

    /// The default theme's tables, by tag, as the loader reads them.
    static func defaultTables() throws -> [String: StringTable] {
        var tables: [String: StringTable] = [:]
        for tag in ["en", "fr", "ar"] {
            let path = repositoryRoot + "/Templates/i18n/\(tag).yml"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            tables[tag] = try StringTable.parse(text, path: path).get()
        }
        return tables
    }

    static func strings(_ language: String) throws -> (ThemeStrings, [Diagnostic]) {
        var warnings: [Diagnostic] = []
        let strings = ThemeStrings(
            tables: try defaultTables(), language: language, folder: "Templates/i18n",
            warnings: &warnings)
        return (strings, warnings)
    }

    // MARK: - Plural forms

    @Test func frenchPutsZeroAndOneInOneAndEnglishPutsZeroInOther() throws {
        let (french, warnings) = try Self.strings("fr")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(french.text("fruits", count: 0) == "0 fruit")
        #expect(french.text("fruits", count: 1) == "1 fruit")
        #expect(french.text("fruits", count: 2) == "2 fruits")
        // Grouped with a narrow no-break space; a million is CLDR's `many` in French.
        #expect(french.text("fruits", count: 1234) == "1\u{202F}234 fruits")
        #expect(french.text("fruits", count: 1_000_000) == "1\u{202F}000\u{202F}000 de fruits")
        let (english, _) = try Self.strings("en")
        #expect(english.text("fruits", count: 0) == "0 fruits")
        #expect(english.text("fruits", count: 1) == "1 fruit")
        #expect(english.text("fruits", count: 1234) == "1,234 fruits")
    }

    @Test(arguments: [
        (0, PluralCategory.zero), (1, .one), (2, .two), (3, .few), (11, .many), (100, .other),
    ])
    func arabicUsesAllSixCategories(count: Int, category: PluralCategory) throws {
        #expect(PluralRules(language: "ar").category(of: count) == category)
        let (arabic, warnings) = try Self.strings("ar")
        #expect(warnings.isEmpty, "\(warnings)")
        guard case .counted(let forms) = try #require(arabic.messages["fruits"]) else {
            Issue.record("'fruits' is not counted")
            return
        }
        let form = try #require(forms[category])
        #expect(
            arabic.text("fruits", count: count)
                == ThemeStrings.fill(form, ["count": arabic.number(count)]))
    }

    @Test func aRegionalTagTakesItsLanguagesTable() throws {
        let (strings, warnings) = try Self.strings("fr-CA")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(strings.text("searchLabel") == "Chercher un fruit")
        let (other, otherWarnings) = try Self.strings("de")
        #expect(other.text("searchLabel") == "Search fruits")
        #expect(
            otherWarnings.map(\.message) == [
                "the theme has no string table for 'de': its words are English"
            ])
    }

    // MARK: - A built site

    @Test func aFrenchSiteShowsFrenchWordsAndForms() throws {
        let (site, options) = try temporarySite(
            config: "title: Fruits\nlanguage: fr\n", entries: Self.fruits)
        defer { site.remove() }
        let rendering = try SiteBuilder(options: options).build()
        #expect(rendering.warnings.filter { $0.location.path.contains("i18n") }.isEmpty)
        let index = try site.read("Output/index.html")
        #expect(index.contains(#"<html lang="fr""#))
        #expect(index.contains(#"<label for="search-q">Chercher un fruit</label>"#))
        #expect(index.contains(#"<option value="">Toutes les catégories</option>"#))
        #expect(index.contains(">3 fruits dans 2 catégories</p>"))
        #expect(index.contains(#"<span class="count">1 fruit</span>"#))
        #expect(index.contains(#"<span class="count">2 fruits</span>"#))
        #expect(index.contains(#""many":"{shown} sur {count} de fruits""#))
        let notFound = try site.read("Output/404.html")
        #expect(notFound.contains("<h1>Page introuvable</h1>"))
    }

    /// A table's text in `searchStrings`, which the page writes raw in a script element:
    /// `<` is escaped, so no message can end the element or open another.
    @Test func aScriptMessageCannotCloseTheScriptElement() throws {
        var (site, options) = try temporarySite(config: "language: fr\n", entries: Self.fruits)
        defer { site.remove() }
        // The other messages English's, with warnings.
        options.templatesDirectory = try Self.theme(
            in: site, tag: "fr", table: #"scriptShowMore: "</script><script>alert(1)</script>""#)
        _ = try SiteBuilder(options: options).build()
        let index = try site.read("Output/index.html")
        let start = try #require(
            index.range(of: #"<script type="application/json" id="search-strings">"#))
        let end = try #require(index[start.upperBound...].range(of: "</script>"))
        let json = String(index[start.upperBound..<end.lowerBound])
        #expect(!json.contains("<"))
        let strings = try #require(
            JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(strings["scriptShowMore"] as? String == "</script><script>alert(1)</script>")
    }

    /// `{name}` is replaced by its value, once: a value's own braces are kept, as are a brace
    /// that names nothing and one never closed; the text around may be any script.
    @Test(arguments: [
        ("{name}, {category}.", "Apple {category}, Pome."),
        ("« {name} » : {unknown} {", "« Apple {category} » : {unknown} {"),
        ("{{name}}", "{Apple {category}}"),
        ("{name", "{name"),
        ("{}{category}{name}", "{}PomeApple {category}"),
        ("{name}، فاكهة في فئة {category}.", "Apple {category}، فاكهة في فئة Pome."),
        ("no braces", "no braces"),
        ("", ""),
    ])
    func fillReplacesEachNamedBraceOnce(text: String, expected: String) {
        #expect(
            ThemeStrings.fill(text, ["name": "Apple {category}", "category": "Pome"]) == expected)
    }

    // MARK: - Sentences with names

    /// A fruit without a tagline is described in the site's language, on its page and in the
    /// feeds, its name and category isolated as in every sentence; a tagline stays as written.
    @Test(arguments: [
        ("en", "{n}, a fruit in the {c} category."),
        ("fr", "{n}, un fruit de la catégorie {c}."),
        ("ar", "{n}، فاكهة في فئة {c}."),
    ])
    func aFruitWithoutATaglineIsDescribedInTheSitesLanguage(
        language: String, sentence: String
    ) throws {
        let (site, options) = try temporarySite(
            config: "baseURL: https://example.org/\nlanguage: \(language)\n",
            entries: [
                ("apple", "name: Apple\ncategory: Pome\ndate: 2024-05-01"),
                ("pear", "name: Pear\ncategory: Pome\ndate: 2024-05-02\ntagline: Juicy"),
                ("trick", "name: \"Trick\\u202E\"\ncategory: Pome\ndate: 2024-05-03"),
            ])
        defer { site.remove() }
        _ = try SiteBuilder(options: options).build()
        func described(_ name: String) -> String {
            ThemeStrings.fill(sentence, ["n": name, "c": "Pome"])
        }
        let summaries = try #require(FeedTests.jsonFeed(in: site)["items"] as? [[String: Any]])
        for (slug, name, description) in [
            ("apple", "Apple", described("Apple")),
            ("pear", "Pear", "Juicy"),
            ("trick", "Trick\u{202E}", described("\u{2068}Trick\u{202E}\u{2069}")),
        ] {
            let page = try site.read("Output/fruits/\(slug)/index.html")
            #expect(page.contains(#"<meta name="description" content="\#(description)">"#))
            let item = summaries.first { ($0["id"] as? String)?.hasSuffix("/\(slug)/") == true }
            #expect(item?["summary"] as? String == description, "\(name)")
        }
    }

    /// A facet value's breadcrumb is its title, the message `facetValueTitle`, in the site's
    /// language: French puts a no-break space before the colon.
    @Test(arguments: [
        ("en", "Vitamins: <bdi>C</bdi>", "Vitamins: C"),
        ("fr", "Vitamines\u{00A0}: <bdi>C</bdi>", "Vitamines\u{00A0}: C"),
        ("ar", "الفيتامينات: <bdi>C</bdi>", "الفيتامينات: C"),
    ])
    func aFacetValuesBreadcrumbIsItsTitleInTheSitesLanguage(
        language: String, breadcrumb: String, title: String
    ) throws {
        let (site, options) = try temporarySite(
            config: "title: Fruits\npageSize: 1\nlanguage: \(language)\n",
            entries: [
                ("apple", "name: Apple\ncategory: Pome\nvitamins: C"),
                ("kiwi", "name: Kiwi\ncategory: Berry\nvitamins: C"),
            ])
        defer { site.remove() }
        _ = try SiteBuilder(options: options).build()
        let first = try site.read("Output/vitamins/c/index.html")
        #expect(
            first.contains(#"<a href="../../vitamins/c/" aria-current="page">\#(breadcrumb)</a>"#))
        #expect(first.contains("<title>\(title) · Fruits</title>"))
        // A later page links the first, which is then not the current one.
        let second = try site.read("Output/vitamins/c/page/2/index.html")
        #expect(second.contains(#"<a href="../../../../vitamins/c/">\#(breadcrumb)</a>"#))
    }

    /// The breadcrumb's markup escapes the table's text and the values, and isolates the value.
    @Test func aTitlesMarkupEscapesTheTextAndTheValues() throws {
        var warnings: [Diagnostic] = []
        let table = try StringTable.parse(
            #"facetValueTitle: "<{facet}> & {value}""#, path: "i18n/xx.yml"
        ).get()
        let strings = ThemeStrings(
            tables: ["xx": table], language: "xx", folder: "i18n", warnings: &warnings)
        #expect(
            strings.markup(
                "facetValueTitle", ["facet": "A&B", "value": "<i>"], isolating: ["value"])
                == "&lt;A&amp;B&gt; &amp; <bdi>&lt;i&gt;</bdi>")
    }

    // MARK: - Diagnostics

    /// A copy of the default theme in `site`'s `Templates/`, with `table` as `i18n/<tag>.yml`.
    static func theme(in site: TemporaryDirectory, tag: String, table: String) throws -> String {
        let templates = site.path + "/Templates"
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Templates", toPath: templates)
        try site.write("Templates/i18n/\(tag).yml", table)
        return templates
    }

    @Test func aMissingMessageIsEnglishWithAWarningNamingTheTableAndTheKey() throws {
        var (site, options) = try temporarySite(
            config: "language: fr\n", entries: Self.fruits)
        defer { site.remove() }
        options.templatesDirectory = try Self.theme(
            in: site, tag: "fr", table: "searchLabel: Chercher\n")
        let rendering = try SiteBuilder(options: options).build()
        let warning = try #require(
            rendering.warnings.first { $0.message.contains("'allCategories'") })
        #expect(warning.severity == .warning)
        #expect(warning.location.path == options.templatesDirectory + "/i18n/fr.yml")
        #expect(
            warning.message
                == "the string table has no 'allCategories' message: the English one is shown")
        let index = try site.read("Output/index.html")
        #expect(index.contains(#"<label for="search-q">Chercher</label>"#))
        #expect(index.contains(#"<option value="">All categories</option>"#))
    }

    @Test(arguments: [
        ("allFruits: [Tous\n", 1, 12, "invalid YAML"),
        (
            "allFruits: Tous\nfruits:\n  one: un\n  plusieurs: x\n  other: y\n", 4, 3,
            "'plusieurs' is not a plural category of the message 'fruits'"
        ),
        (
            "allFruits: Tous\nfruits:\n  one: \"{count} fruit\"\n", 3, 3,
            "the counted message 'fruits' has no 'other' form"
        ),
        ("- a\n- b\n", 1, 1, "a string table is a map of message keys to texts"),
    ])
    func aMalformedTableIsAnErrorAtItsLineAndColumn(
        table: String, line: Int, column: Int, message: String
    ) throws {
        var (site, options) = try temporarySite(config: "language: fr\n", entries: Self.fruits)
        defer { site.remove() }
        options.templatesDirectory = try Self.theme(in: site, tag: "fr", table: table)
        #expect {
            try SiteBuilder(options: options).build()
        } throws: { error in
            let failure = try #require(error as? BuildFailure)
            let diagnostic = try #require(failure.diagnostics.first { $0.isError })
            return diagnostic.location.path == options.templatesDirectory + "/i18n/fr.yml"
                && diagnostic.location.line == line && diagnostic.location.column == column
                && diagnostic.message.hasPrefix(message)
        }
    }

    @Test func theScaffoldedThemeHasTheStringTables() {
        let paths = Set(DefaultTheme.files.map(\.path))
        #expect(paths.isSuperset(of: ["i18n/en.yml", "i18n/fr.yml", "i18n/ar.yml"]))
    }
}
