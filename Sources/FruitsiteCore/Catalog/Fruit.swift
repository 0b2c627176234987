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
    /// What only the fruit's own page shows: nil for an entry taken from the build cache,
    /// whose file is parsed again only if its page has to be rendered.
    public var details: Details?
    /// The hash of the file's bytes: stands for everything in it, details included.
    public var sourceHash: UInt64
    /// Where the entry's front matter starts, for diagnostics about the entry as a whole.
    public var location: SourceLocation
    /// Where `category:` is written, for diagnostics about the category.
    public var categoryLocation: SourceLocation

    /// `fold(name)` as UTF-8: the sort key and the search key.
    public let nameKey: [UInt8]
    /// `fold(category)` as UTF-8.
    public let categoryKey: [UInt8]

    /// The body and the extra front-matter keys.
    public struct Details: Sendable {
        /// The body rendered from CommonMark to HTML.
        public var bodyHTML: String
        /// Every other front-matter key, passed to templates as `fruit.params`.
        public var params: [String: MustacheValue]

        public init(bodyHTML: String = "", params: [String: MustacheValue] = [:]) {
            self.bodyHTML = bodyHTML
            self.params = params
        }
    }

    /// Creates a fruit; the folded keys are derived here so they never go stale.
    public init(
        slug: String, name: String, emoji: String = "", category: String,
        vitamins: [String] = [], isDraft: Bool = false, details: Details? = Details(),
        sourceHash: UInt64 = 0, location: SourceLocation, categoryLocation: SourceLocation? = nil
    ) {
        self.init(
            slug: slug, name: name, emoji: emoji, category: category, vitamins: vitamins,
            isDraft: isDraft, details: details, sourceHash: sourceHash, location: location,
            categoryLocation: categoryLocation ?? location, nameKey: Fold.key(name),
            categoryKey: Fold.key(category))
    }

    /// Creates a fruit with keys folded earlier, as the build cache stores them.
    init(
        slug: String, name: String, emoji: String, category: String, vitamins: [String],
        isDraft: Bool, details: Details?, sourceHash: UInt64, location: SourceLocation,
        categoryLocation: SourceLocation, nameKey: [UInt8], categoryKey: [UInt8]
    ) {
        self.slug = slug
        self.name = name
        self.emoji = emoji
        self.category = category
        self.vitamins = vitamins
        self.isDraft = isDraft
        self.details = details
        self.sourceHash = sourceHash
        self.location = location
        self.categoryLocation = categoryLocation
        self.nameKey = nameKey
        self.categoryKey = categoryKey
    }

    /// The vitamins as shown and indexed: `C, B6`.
    public var vitaminsText: String { vitamins.joined(separator: ", ") }

    /// This fruit without its details, as the build cache keeps it.
    var summary: Fruit {
        var fruit = self
        fruit.details = nil
        return fruit
    }
}
