import Testing

@testable import FruitsiteCore

/// The model places only the fruits that come, go or move; after any sequence of changes its
/// order and categories must be what sorting and grouping every fruit from scratch gives.
@Suite struct SiteModelTests {
    /// A small deterministic generator, so a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    static func entry(_ path: String, _ fruit: Fruit) -> SiteModel.Entry {
        SiteModel.Entry(
            path: path, status: nil, verifiedAt: 0, sourceHash: 0, picture: nil, namedKey: nil,
            facts: EntryFacts.Value(fruit: fruit, categoryLine: 1, categoryColumn: 1, warnings: []))
    }

    static func randomFruit(slug: String, using random: inout Generator) -> Fruit {
        // Few names and categories, so that equal names (ordered by slug) and shared
        // categories are common; now and then a draft.
        let names = ["Fig", "fig", "Açaí", "Lime", "Kiwi", "Zest", "Ümbra", "Åkerbär", "Date"]
        let categories = ["Berries", "berries", "Citrus", "Grapes & Vines", "Ölfrüchte"]
        // Values of two facets, some fruits with none: a value change alone moves no fruit.
        let vitamins = ["C", "B6", "K", "Ä"].filter { _ in Bool.random(using: &random) }
        let colours = ["red", "green"].filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
        return Fruit(
            slug: slug, name: names.randomElement(using: &random)!,
            category: categories.randomElement(using: &random)!, vitamins: vitamins,
            isDraft: Int.random(in: 0..<8, using: &random) == 0,
            facets: [
                FacetValues(key: "vitamins", values: vitamins),
                FacetValues(key: "colour", values: colours),
            ].filter { !$0.values.isEmpty })
    }

    static func expectMatchesAFreshSort(_ model: SiteModel, step: Int) {
        let listed = model.ids.map { model[$0].fruit }.filter { !$0.isDraft }
        let fresh = Catalog(fruits: listed, collation: model.collation)
        #expect(
            model.catalog.fruits.map(\.slug) == fresh.fruits.map(\.slug), "step \(step): order")
        #expect(
            model.categories.map(\.name) == fresh.categories.map(\.name),
            "step \(step): categories")
        #expect(
            model.categories.map(\.positions) == fresh.categories.map(\.positions),
            "step \(step): category members")
        for (facet, key) in model.settings.facets.enumerated() {
            var values: [FruitGroup] = []
            for (position, fruit) in fresh.fruits.enumerated() {
                for value in fruit.values(ofFacet: key) {
                    Catalog.add(
                        CatalogPosition(position), to: value, key: model.collation.key(value),
                        in: &values)
                }
            }
            #expect(
                model.facets[facet].map(\.name) == values.map(\.name), "step \(step): \(key)")
            #expect(
                model.facets[facet].map(\.positions) == values.map(\.positions),
                "step \(step): \(key) members")
        }
    }

    static let settings = SiteModel.Settings(
        contentDirectory: "C", includesDrafts: false, facets: ["vitamins", "colour"])

    /// Each seed in a language of its own: Swedish puts "Å" after "Z", German does not.
    @Test(arguments: [(1, "en"), (2, "sv"), (3, "de"), (4, "ar")] as [(UInt64, String)])
    func randomChangesKeepTheOrderASortWouldGive(seed: UInt64, language: String) {
        var random = Generator(state: seed)
        var settings = Self.settings
        settings.language = language
        var model = SiteModel(settings: settings)
        var next = 0
        for step in 0..<300 {
            var removed: [EntryID] = []
            var stored: [(id: EntryID?, entry: SiteModel.Entry)] = []
            var touched = Set<EntryID>()
            for _ in 0..<Int.random(in: 1...(step < 5 ? 40 : 4), using: &random) {
                let ids = model.ids.filter { !touched.contains($0) }
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where !ids.isEmpty:
                    let id = ids.randomElement(using: &random)!
                    touched.insert(id)
                    removed.append(id)
                case 1 where !ids.isEmpty:
                    // A changed file keeps its path, and so its slug.
                    let id = ids.randomElement(using: &random)!
                    touched.insert(id)
                    let fruit = Self.randomFruit(slug: model[id].fruit.slug, using: &random)
                    stored.append((id, Self.entry(model[id].path, fruit)))
                default:
                    next += 1
                    let fruit = Self.randomFruit(slug: "f\(next)", using: &random)
                    stored.append((nil, Self.entry("C/\(fruit.slug).md", fruit)))
                }
            }
            _ = model.replace(removing: removed, storing: stored)
            Self.expectMatchesAFreshSort(model, step: step)
        }
    }

    /// `serve` applies an update to a copy and keeps the original when it fails: changes to
    /// the copy, in any chunk of its entries, leave the original as it was.
    @Test func aCopyChangesAloneAcrossChunks() {
        var random = Generator(state: 7)
        var original = SiteModel(settings: Self.settings)
        let fruits = (0..<700).map { Self.randomFruit(slug: "f\($0)", using: &random) }
        _ = original.replace(
            removing: [],
            storing: fruits.map { (nil, Self.entry("C/\($0.slug).md", $0)) })
        let slugs = original.ids.map { original[$0].fruit.slug }
        let order = original.order
        var copy = original
        let renamed = Fruit(slug: "f300", name: "Zzz", category: "Citrus")
        _ = copy.replace(
            removing: [EntryID(5), EntryID(699)],
            storing: [
                (EntryID(300), Self.entry("C/f300.md", renamed)),
                (nil, Self.entry("C/new.md", Fruit(slug: "new", name: "Aaa", category: "Citrus"))),
            ])
        copy.verify(EntryID(520), status: nil, at: 42)
        #expect(copy.count == 699 && original.count == 700)
        #expect(original.ids.map { original[$0].fruit.slug } == slugs)
        #expect(original.order == order)
        let (changed, verified) = (EntryID(300), EntryID(520))
        #expect(
            original[changed].fruit.name == fruits[300].name && copy[changed].fruit.name == "Zzz")
        #expect(original[verified].verifiedAt == 0 && copy[verified].verifiedAt == 42)
        Self.expectMatchesAFreshSort(original, step: 0)
        Self.expectMatchesAFreshSort(copy, step: 1)
    }
}
