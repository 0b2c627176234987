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

    private static let reservedIDs = Set(reserved)

    /// Each id given so far, and for each text's own id how many repeats it has had; the
    /// reserved ids count as given.
    private var counts: [String: Int] = [:]

    /// The id of a heading whose text is `text`, unique on the page.
    mutating func makeID(for text: String) -> String {
        var base = Self.slug(text)
        if base.isEmpty { base = "section" }
        var id = base
        // GitHub's order: `a`, `a-1`, `a-2`, skipping any such id a heading already took.
        while counts[id] != nil || Self.reservedIDs.contains(id) {
            counts[base, default: 0] += 1
            id = "\(base)-\(counts[base]!)"
        }
        counts[id] = 0
        return id
    }

    /// `text` with each run of whitespace as one space, and none at either end: a heading's
    /// words as a label reads them.
    static func collapsingWhitespace(_ text: String) -> String {
        // Most headings are ASCII words with single spaces between them.
        var previous = UInt8(ascii: " ")
        let isCollapsed = text.utf8.allSatisfy { byte in
            defer { previous = byte }
            return byte > 0x20 && byte < 0x7F || byte == 0x20 && previous != 0x20
        }
        if isCollapsed && previous != 0x20 { return text }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `text` lowercased, with spaces as `-` and only letters, marks, digits, `_` and `-` kept.
    static func slug(_ text: String) -> String {
        // ASCII, as most headings are, byte by byte: the same as below, in a tenth of the time.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var id: [UInt8] = []
            id.reserveCapacity(text.utf8.count)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): id.append(byte + 0x20)
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "_"), UInt8(ascii: "-"):
                    id.append(byte)
                case UInt8(ascii: " "): id.append(UInt8(ascii: "-"))
                default: break
                }
            }
            return String(decoding: id, as: UTF8.self)
        }
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
