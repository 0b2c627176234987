import Foundation

/// A name, category or facet value as text among other text, where an explicit bidirectional
/// formatting character it holds must not act past its end: in a page's `<title>`, its meta
/// descriptions, a menu's `<option>`, JSON-LD and feeds, where no element can isolate it.
///
/// Without this, a name ending in U+202E RIGHT-TO-LEFT OVERRIDE reverses whatever follows it
/// up to the end of the paragraph: the title `Apple`, U+202E, ` · Fruit Catalog` shows as
/// `ApplegolataC tiurF · `. (In markup the default theme puts each name in a `<bdi>`, which
/// isolates it too; this is for plain text, and for themes that do not.)
enum BidiIsolation {
    /// `text` unchanged when it holds no explicit formatting character (U+202A to U+202E,
    /// U+2066 to U+2069), as nearly every name: an ordinary name's bytes, its copy and paste
    /// and its search stay as written. Otherwise `text` between U+2068 FIRST STRONG ISOLATE
    /// and U+2069 POP DIRECTIONAL ISOLATE, which ends every embedding, override and isolate
    /// opened inside it.
    ///
    /// Why an isolate and not closing what is left open (UAX #9): a PDI closes its isolate
    /// and every embedding and override opened since (rule X6a), while a PDF closes one
    /// embedding, and none across an isolate (X7). A PDI matches the nearest isolate initiator
    /// not yet matched (BD9), so each isolate `text` leaves open gets a PDI of its own before
    /// the closing one, and each PDI of `text` that matches nothing in it, which would end the
    /// wrapping isolate early, gets one more FSI to match at the start.
    ///
    /// - Parameter text: A name, category or facet value, one line (the parser refuses line
    ///   and paragraph separators, which would end the isolate's paragraph instead).
    /// - Returns: The text to show.
    static func isolated(_ text: String) -> String {
        guard mayHoldFormatting(text), text.unicodeScalars.contains(where: isFormatting) else {
            return text
        }
        var open = 0
        var unmatched = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2066...0x2068: open += 1
            case 0x2069 where open > 0: open -= 1
            case 0x2069: unmatched += 1
            default: break
            }
        }
        return String(repeating: "\u{2068}", count: 1 + unmatched) + text
            + String(repeating: "\u{2069}", count: open + 1)
    }

    /// Whether `text` has an E2 byte, which starts every formatting character in UTF-8 (E2 80
    /// AA to AE, E2 81 A6 to A9) and which most names lack: each page asks it of every name it
    /// shows, the footer's categories included.
    static func mayHoldFormatting(_ text: String) -> Bool {
        // The bytes searched at once, by `memchr`: `utf8.contains` went through the generic
        // sequence, some 320 instructions a call and 2% of a clean build's.
        text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memchr($0, 0xE2, bytes.count) != nil } ?? false
        } ?? true
    }

    /// Whether `scalar` is an explicit formatting character: LRE, RLE, PDF, LRO, RLO, LRI,
    /// RLI, FSI or PDI.
    static func isFormatting(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
