/// What a listing, or a link to a fruit, shows of it: the fields of `Fruit` that its summary
/// in template data is made of (docs/reference/template-variables.md).
///
/// Decoded from a saved entry without the rest (`EntryFacts.listed`): a listing page shows a
/// hundred fruits, and decoding each one whole, with its facets and sort keys, had been a
/// sixth of rendering the page.
struct ListedFruit: Sendable, Equatable {
    var slug: String
    var name: String
    var emoji: String
    var category: String
    /// `Fruit.vitaminsText`: `C, B6`.
    var vitamins: String
    var date: EntryDate?
    var image: FruitImage?
}

extension ListedFruit {
    init(_ fruit: Fruit) {
        self.init(
            slug: fruit.slug, name: fruit.name, emoji: fruit.emoji, category: fruit.category,
            vitamins: fruit.vitaminsText, date: fruit.date, image: fruit.image)
    }
}
