import FruitsiteCore
import Testing

@Suite struct CatalogTests {
    static func fruit(_ name: String, _ category: String, slug: String? = nil) -> Fruit {
        let slug = slug ?? Slug.make(from: name)
        return Fruit(slug: slug, name: name, category: category)
    }

    /// The tutorial's own sample data.
    static let tutorial = Catalog(
        fruits: [
            fruit("Strawberry", "Berries"), fruit("Orange", "Citrus"), fruit("Banana", "Tropical"),
            fruit("Apple", "Core Fruits"), fruit("Blueberry", "Berries"),
            fruit("Lemon", "Citrus"), fruit("Mango", "Tropical"), fruit("Pear", "Core Fruits"),
        ], collation: .of("en"))

    @Test func sortsByNameInTheLanguagesCollationThenSlug() {
        #expect(
            Self.tutorial.fruits.map(\.name) == [
                "Apple", "Banana", "Blueberry", "Lemon", "Mango", "Orange", "Pear", "Strawberry",
            ])
        let ties = Catalog(
            fruits: [
                Self.fruit("fig", "X", slug: "fig-b"), Self.fruit("Fig", "X", slug: "fig-a"),
                Self.fruit("Éclair", "X", slug: "eclair"), Self.fruit("Zest", "X", slug: "zest"),
            ], collation: .of("en"))
        // Case is ignored, so the two figs are ordered by slug; "É" sorts with "E".
        #expect(ties.fruits.map(\.slug) == ["eclair", "fig-a", "fig-b", "zest"])
    }

    /// The same names in the orders of three languages: Swedish puts "å" and "ö" after "z",
    /// German sorts them with "a" and "o"; a language without rules of its own sorts as
    /// CLDR's root does.
    @Test(
        arguments: [
            ("sv", ["Apelsin", "Zitrone", "Åkerbär", "Ölfrukt"]),
            ("de", ["Åkerbär", "Apelsin", "Ölfrukt", "Zitrone"]),
            ("und", ["Åkerbär", "Apelsin", "Ölfrukt", "Zitrone"]),
        ])
    func ordersByTheLanguage(language: String, expected: [String]) {
        let catalog = Catalog(
            fruits: ["Zitrone", "Ölfrukt", "Åkerbär", "Apelsin"].map { Self.fruit($0, $0) },
            collation: .of(language))
        #expect(catalog.fruits.map(\.name) == expected)
        #expect(catalog.categoryNames == expected)
    }

    @Test func listsUniqueSortedCategories() {
        #expect(Self.tutorial.categoryNames == ["Berries", "Citrus", "Core Fruits", "Tropical"])
        #expect(
            Self.tutorial.categories.map(\.slug) == [
                "berries", "citrus", "core-fruits", "tropical",
            ])
        #expect(
            Self.tutorial.categories[0].positions.map { Self.tutorial.fruits[$0.rawValue].name }
                == [
                    "Blueberry", "Strawberry",
                ])
    }

    @Test(
        arguments: [
            (
                "", nil,
                ["Apple", "Banana", "Blueberry", "Lemon", "Mango", "Orange", "Pear", "Strawberry"]
            ),
            ("an", nil, ["Banana", "Mango", "Orange"]),
            ("BERR", nil, ["Blueberry", "Strawberry"]),
            ("citrus", nil, ["Lemon", "Orange"]),
            ("r", "Berries", ["Blueberry", "Strawberry"]),
            ("", "Tropical", ["Banana", "Mango"]),
            ("", "tropical", []),
            ("kiwi", nil, []),
            // Whitespace is not trimmed: " " matches the category "Core Fruits".
            (" ", nil, ["Apple", "Pear"]),
        ] as [(String, String?, [String])])
    func filtersLikeTheTutorial(text: String, category: String?, expected: [String]) {
        #expect(Self.tutorial.filter(searchText: text, category: category).map(\.name) == expected)
    }
}

@Suite struct SlugTests {
    @Test(arguments: [
        ("Grapes & Vines", "grapes-vines"), ("Açaí Berries", "acai-berries"),
        ("  Stone  Fruits ", "stone-fruits"), ("Süßfrüchte", "sussfruchte"), ("A1", "a1"),
        ("Ærø Œuf", "aero-oeuf"), ("Łódź Þing", "lodz-thing"),
    ])
    func makesSlugs(text: String, slug: String) {
        #expect(Slug.make(from: text) == slug)
    }

    /// No scalar makes more bytes of slug than it has, which lets a value no longer than a
    /// folder name skip the check of its slug's length: tried on every scalar of the blocks
    /// whose letters decompose, fold or stand for Latin ones.
    @Test func noScalarMakesMoreSlugThanItsBytes() {
        let blocks: [ClosedRange<UInt32>] = [
            0...0x2FFF, 0xA700...0xA7FF, 0xAB30...0xAB6F, 0xFB00...0xFB4F, 0xFF00...0xFFEF,
            0x1D400...0x1D7FF,
        ]
        var longer: [String] = []
        for value in blocks.joined() {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(scalar)
            if Slug.make(from: text).utf8.count > max(text.utf8.count, 10) {
                longer.append(String(value, radix: 16))
            }
        }
        #expect(longer.isEmpty, "\(longer.prefix(10))")
    }

    @Test func givesTextWithoutLatinLettersAStableSlug() {
        let slug = Slug.make(from: "果物")
        #expect(slug.hasPrefix("c-") && slug.count == 10)
        #expect(Slug.make(from: "果物") == slug)
        #expect(Slug.make(from: "野菜") != slug)
    }

    @Test(arguments: ["apple", "blood-orange", "a1", "x"])
    func acceptsValidSlugs(_ slug: String) { #expect(Slug.isValid(slug)) }

    @Test(arguments: ["Apple", "blood_orange", "-a", "a-", "a--b", "", "ä"])
    func rejectsInvalidSlugs(_ slug: String) { #expect(!Slug.isValid(slug)) }
}
