import Mustache

/// One catalog entry, parsed from `Content/<slug>.md`; the tutorial's `Fruit` model.
public struct Fruit: Sendable {
    /// The file name without `.md`, such as `blood-orange`; unique across the site.
    public var slug: String
    public var name: String
    /// The emoji, or an empty string when the entry has none.
    public var emoji: String
    public var category: String
    /// The vitamins in the order written, such as `["C", "B6"]`.
    public var vitamins: [String]
    public var isDraft: Bool
    /// Every other front-matter key, passed to templates as `fruit.params`.
    public var params: [String: MustacheValue]
    /// The body rendered from CommonMark to HTML.
    public var bodyHTML: String
    /// Where the entry's front matter starts, for diagnostics about the entry as a whole.
    public var location: SourceLocation
    /// Where `category:` is written, for diagnostics about the category.
    public var categoryLocation: SourceLocation

    /// `fold(name)` as UTF-8: the sort key and the search key.
    public let nameKey: [UInt8]
    /// `fold(category)` as UTF-8.
    public let categoryKey: [UInt8]

    /// Creates a fruit; the folded keys are derived here so they never go stale.
    public init(
        slug: String, name: String, emoji: String = "", category: String,
        vitamins: [String] = [], isDraft: Bool = false, params: [String: MustacheValue] = [:],
        bodyHTML: String = "", location: SourceLocation, categoryLocation: SourceLocation? = nil
    ) {
        self.slug = slug
        self.name = name
        self.emoji = emoji
        self.category = category
        self.vitamins = vitamins
        self.isDraft = isDraft
        self.params = params
        self.bodyHTML = bodyHTML
        self.location = location
        self.categoryLocation = categoryLocation ?? location
        self.nameKey = Fold.key(name)
        self.categoryKey = Fold.key(category)
    }

    /// The vitamins as shown and indexed: `C, B6`.
    public var vitaminsText: String { vitamins.joined(separator: ", ") }
}
