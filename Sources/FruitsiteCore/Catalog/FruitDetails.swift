import Mustache

/// What only a fruit's own page shows: read from its file when that page is rendered, and
/// never kept in the site model.
public struct FruitDetails: Sendable, Equatable {
    /// The body rendered from CommonMark to HTML, as UTF-8: rendered into pages as bytes,
    /// never decoded into a `String` and checked again.
    public var body: [UInt8]
    /// Every front-matter key fruitsite does not read itself, passed to templates as
    /// `fruit.params`.
    public var params: MustacheObject

    public init(body: [UInt8] = [], params: MustacheObject = [:]) {
        self.body = body
        self.params = params
    }

    /// The body as a string, for the feeds, which rewrite its links.
    public var bodyHTML: String { String(decoding: body, as: UTF8.self) }

    /// The `tagline` as text: a string that is not blank, or a number as YAML read it; nil
    /// for anything else (none, `""`, `true`, a list), which has no words to show.
    var tagline: String? {
        switch params["tagline"] {
        case .string(let text)? where !text.allSatisfy(\.isWhitespace): text
        case .int(let number)?: String(number)
        case .double(let number)?: String(number)
        default: nil
        }
    }

    /// What the fruit's page and the feeds say of it in a line: its tagline, else its name and
    /// category, each isolated (`BidiIsolation`), in the sentence `fruitDescription` of
    /// `strings`.
    func description(of fruit: Fruit, strings: ThemeStrings) -> String {
        tagline
            ?? strings.text(
                "fruitDescription",
                [
                    "name": BidiIsolation.isolated(fruit.name),
                    "category": BidiIsolation.isolated(fruit.category),
                ])
    }
}
