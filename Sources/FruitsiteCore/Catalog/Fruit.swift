/// What listings, neighbours and the search index show of one entry: its summary.
/// What only the fruit's own page shows is in `FruitDetails`.
public struct Fruit: Sendable, Equatable {
    /// The file name without `.md`, such as `blood-orange`; unique across the site.
    public var slug: String
    public var name: String
    /// The emoji, or an empty string when the entry has none.
    public var emoji: String
    public var category: String
    /// The vitamins in the order written, such as `["C", "B6"]`.
    public var vitamins: [String]
    public var isDraft: Bool
    /// When the fruit was added (`date:`), if the entry says.
    public var date: EntryDate?
    /// Its values of the site's facets, in the config's order; a facet it has no value of is
    /// left out.
    public var facets: [FacetValues]
    /// Its picture (`image:`), if the entry names one.
    public var image: FruitImage?

    /// `fold(name)` as UTF-8: the sort key and the search key. Set apart from the
    /// initializers only by decoding a saved fruit (`visitFields`).
    public internal(set) var nameKey: [UInt8]
    /// `fold(category)` as UTF-8.
    public internal(set) var categoryKey: [UInt8]

    /// Creates a fruit; the folded keys are derived here so they never go stale.
    public init(
        slug: String, name: String, emoji: String = "", category: String,
        vitamins: [String] = [], isDraft: Bool = false, date: EntryDate? = nil,
        facets: [FacetValues] = [], image: FruitImage? = nil
    ) {
        self.init(
            slug: slug, name: name, emoji: emoji, category: category, vitamins: vitamins,
            isDraft: isDraft, date: date, facets: facets, image: image, nameKey: Fold.key(name),
            categoryKey: Fold.key(category))
    }

    /// Creates a fruit with keys folded earlier, as the site model saves them.
    init(
        slug: String, name: String, emoji: String, category: String, vitamins: [String],
        isDraft: Bool, date: EntryDate?, facets: [FacetValues], image: FruitImage?,
        nameKey: [UInt8], categoryKey: [UInt8]
    ) {
        self.slug = slug
        self.name = name
        self.emoji = emoji
        self.category = category
        self.vitamins = vitamins
        self.isDraft = isDraft
        self.date = date
        self.facets = facets
        self.image = image
        self.nameKey = nameKey
        self.categoryKey = categoryKey
    }

    /// The fruit's values of the facet `key`; none when it has none.
    public func values(ofFacet key: String) -> [String] {
        facets.first { $0.key == key }?.values ?? []
    }

    /// The vitamins as listings show them: `C, B6`.
    public var vitaminsText: String { Self.listedText(of: vitamins) }

    /// Vitamins as listings show them: `C, B6`, a value with bidirectional formatting
    /// characters isolated (`BidiIsolation`), so that it cannot reorder the values after it.
    static func listedText(of vitamins: [String]) -> String {
        // By hand: `joined(separator:)` cost 575 instructions for each listed fruit, most
        // of whom have one to three vitamins.
        guard let first = vitamins.first else { return "" }
        var text = BidiIsolation.isolated(first)
        for vitamin in vitamins.dropFirst() {
            text += ", "
            text += BidiIsolation.isolated(vitamin)
        }
        return text
    }
}
