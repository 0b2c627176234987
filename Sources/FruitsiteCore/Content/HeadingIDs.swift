/// The ids of one page's headings, made from their text as GitHub makes them (and Hugo, whose
/// default style is GitHub's), so that `fruit:lemon#zest` can link to `## Zest`.
///
/// The text is lowercased; letters (of any script), marks, digits, `_` and `-` are kept, a
/// space becomes `-`, and everything else (punctuation, symbols, emoji) is dropped. A repeated
/// id gets `-1`, `-2`… as GitHub's does; an empty one is `section`. Ids the default theme's
/// pages use (`main`, `fruits`…) count as taken, so that a heading `Main` is `main-1`.
struct HeadingIDs {
    /// The ids the default theme's templates write, which a heading never takes.
    static let reserved = [
        "categories", "categories-heading", "fruit-list", "fruits", "fruits-heading", "main",
        "pagination", "search-category", "search-clear", "search-empty", "search-empty-text",
        "search-form", "search-hint", "search-q", "search-status",
    ]

    /// Each id given so far, and for each text's own id how many repeats it has had.
    private var counts = Dictionary(uniqueKeysWithValues: reserved.map { ($0, 0) })

    /// The id of a heading whose text is `text`, unique on the page.
    mutating func makeID(for text: String) -> String {
        var base = Self.slug(text)
        if base.isEmpty { base = "section" }
        var id = base
        // GitHub's order: `a`, `a-1`, `a-2`, skipping any such id a heading already took.
        while counts[id] != nil {
            counts[base, default: 0] += 1
            id = "\(base)-\(counts[base]!)"
        }
        counts[id] = 0
        return id
    }

    /// `text` lowercased, with spaces as `-` and only letters, marks, digits, `_` and `-` kept.
    static func slug(_ text: String) -> String {
        var id = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            let properties = scalar.properties
            switch properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter,
                .otherLetter, .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation,
                .spacingMark:
                id.append(scalar)
            // A mark that only dresses an emoji (`️`, a keycap's frame) goes with it.
            case .nonspacingMark, .enclosingMark:
                if !properties.isVariationSelector, scalar != "\u{20E3}" { id.append(scalar) }
            case .dashPunctuation where scalar == "-", .spaceSeparator where scalar == " ":
                id.append("-")
            default:
                break
            }
        }
        return String(id)
    }
}
