import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// The conformance vectors the JavaScript client passes too (`Tests/Fixtures/search-vectors.json`).
@Suite struct SearchVectorTests {
    struct Vectors: Decodable {
        struct Entry: Decodable {
            var slug: String
            var name: String
            var category: String
            var facets: [String: [String]]?
        }
        struct FilterCase: Decodable, CustomTestStringConvertible, Sendable {
            var name: String
            var catalog: [Entry]
            var text: String
            var category: String?
            var facets: [String: String]?
            var expected: [String]
            var testDescription: String { name }
        }
        struct OrderCase: Decodable, CustomTestStringConvertible, Sendable {
            var name: String
            /// The BCP 47 tag whose collation orders the catalog.
            var language: String
            var catalog: [Entry]
            var expected: [String]
            var testDescription: String { name }
        }
        struct FoldCase: Decodable, CustomTestStringConvertible, Sendable {
            var input: String
            var expected: String
            var testDescription: String {
                input.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
            }
        }
        struct LanguageCase: Decodable, CustomTestStringConvertible, Sendable {
            struct Language: Decodable, Sendable {
                var code: String
                /// `none` or `default`, as the config spells it.
                var fallback: String
            }
            var name: String
            /// The site's languages, the default one first.
            var languages: [Language]
            /// Each language's own entries, by its code.
            var entries: [String: [Entry]]
            /// The language whose catalog is searched.
            var language: String
            var text: String
            var category: String?
            var expected: [String]
            var testDescription: String { name }
        }
        var filterCases: [FilterCase]
        var orderCases: [OrderCase]
        var languageCases: [LanguageCase]
        var foldCases: [FoldCase]
    }

    static let vectors: Vectors = {
        let path = repositoryRoot + "/Tests/Fixtures/search-vectors.json"
        guard let data = FileManager.default.contents(atPath: path),
            let vectors = try? JSONDecoder().decode(Vectors.self, from: data)
        else { return Vectors(filterCases: [], orderCases: [], languageCases: [], foldCases: []) }
        return vectors
    }()

    /// Catalog strings are NFC-normalized first, as the loader does.
    static func catalog(_ entries: [Vectors.Entry], collation: Collation = .root) -> Catalog {
        Catalog(
            fruits: entries.map {
                Fruit(
                    slug: $0.slug, name: Fold.normalizeNFC($0.name),
                    category: Fold.normalizeNFC($0.category),
                    facets: ($0.facets ?? [:]).sorted { $0.key < $1.key }.map {
                        FacetValues(key: $0.key, values: $0.value.map(Fold.normalizeNFC))
                    })
            }, collation: collation)
    }

    /// Code points, for comparisons that must not treat NFC and NFD as equal.
    static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    @Test func vectorsArePresent() {
        #expect(Self.vectors.filterCases.count >= 30)
        #expect(Self.vectors.orderCases.count >= 3)
        #expect(Self.vectors.languageCases.count >= 10)
    }

    @Test(arguments: vectors.filterCases)
    func filters(_ vector: Vectors.FilterCase) {
        let catalog = Self.catalog(vector.catalog)
        let unsortedOrder = vector.catalog.map(\.slug)
        // The vectors give the catalog in the order the filter sees it; keep that order.
        let fruits = unsortedOrder.compactMap { slug in catalog.fruits.first { $0.slug == slug } }
        let facets = (vector.facets ?? [:]).sorted { $0.key < $1.key }.map {
            (key: $0.key, value: $0.value)
        }
        let names = Catalog.filter(
            fruits, searchText: vector.text, category: vector.category, facets: facets
        ).map(\.name)
        // Scalars, not Strings: String's == would call NFC and NFD spellings equal.
        #expect(names.map(Self.scalars) == vector.expected.map(Self.scalars))
    }

    @Test(arguments: vectors.orderCases)
    func orders(_ vector: Vectors.OrderCase) {
        let names = Self.catalog(vector.catalog, collation: .of(vector.language)).fruits.map(\.name)
        #expect(names.map(Self.scalars) == vector.expected.map(Self.scalars))
    }

    // MARK: - A site in several languages

    /// The case's site, built: its entries as `Content/<slug>.md` in the default language and
    /// `Content/<slug>.<code>.md` in another, and its languages in `fruitsite.yml`.
    static func build(_ vector: Vectors.LanguageCase) throws -> LanguageSite {
        // Single-quoted YAML: a quote doubled is the only escape.
        let quoted = { (text: String) in "'" + text.replacing("'", with: "''") + "'" }
        var config = "languages:\n"
        var files: [(String, String)] = []
        for (index, language) in vector.languages.enumerated() {
            config += "  - {code: \(language.code), fallback: \(language.fallback)}\n"
            let suffix = index == 0 ? ".md" : ".\(language.code).md"
            for entry in vector.entries[language.code] ?? [] {
                let front = "name: \(quoted(entry.name))\ncategory: \(quoted(entry.category))"
                files.append((entry.slug + suffix, front))
            }
        }
        let site = try LanguageSite(config: config, entries: files)
        do {
            try site.build()
        } catch {
            site.folder.remove()
            throw error
        }
        return site
    }

    /// The fruits of the search index the pages of the case's language load, in its order.
    static func indexedFruits(
        of vector: Vectors.LanguageCase, in site: LanguageSite
    ) throws -> [Fruit] {
        let folder = vector.language == vector.languages.first?.code ? "" : vector.language + "/"
        let names = try FileManager.default.contentsOfDirectory(
            atPath: site.folder.path + "/Output/" + folder)
        let file = try #require(names.first { $0.hasPrefix("search-index.") })
        let index = try #require(
            try JSONSerialization.jsonObject(with: Data(site.page(folder + file).utf8))
                as? [String: Any])
        let records = try #require(index["fruits"] as? [[String: Any]])
        return try records.map { record in
            Fruit(
                slug: try #require(record["slug"] as? String),
                name: try #require(record["name"] as? String),
                category: try #require(record["category"] as? String))
        }
    }

    /// The language's search index, filtered as its pages filter it, and `fruitsite search
    /// --language`'s catalog (the language's part of the site, its catalog loaded as the
    /// command loads it), filtered as the command does, both give the case's names.
    @Test(arguments: vectors.languageCases)
    func searchesALanguage(_ vector: Vectors.LanguageCase) throws {
        let site = try Self.build(vector)
        defer { site.folder.remove() }
        let expected = vector.expected.map(Self.scalars)

        let indexed = Catalog.filter(
            try Self.indexedFruits(of: vector, in: site), searchText: vector.text,
            category: vector.category)
        #expect(indexed.map(\.name).map(Self.scalars) == expected, "the search index")

        let builder = SiteBuilder(options: site.options)
        let (config, problems) = builder.loadConfig()
        #expect(problems.isEmpty, "\(problems)")
        let part = try #require(config.part(inLanguage: vector.language))
        let (loaded, diagnostics) = builder.loadCatalog(config: part)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let catalog = try #require(loaded)
        if let category = vector.category {
            // The command refuses a category the catalog does not list.
            #expect(catalog.categoryNames.contains(category))
        }
        let searched = catalog.filter(searchText: vector.text, category: vector.category)
        #expect(searched.map(\.name).map(Self.scalars) == expected, "fruitsite search")
    }

    @Test(arguments: vectors.foldCases)
    func folds(_ vector: Vectors.FoldCase) {
        #expect(
            Array(Fold.fold(vector.input).unicodeScalars) == Array(vector.expected.unicodeScalars))
    }
}
