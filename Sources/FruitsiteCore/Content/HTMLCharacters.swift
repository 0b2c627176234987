/// The code points an HTML page may not hold: controls other than whitespace, and
/// noncharacters (each a parse error in the HTML standard, which the Nu checker reports).
/// Front matter, config values and bodies that hold one are errors where it is written,
/// rather than pages that fail validation and feeds that drop it.
enum HTMLCharacters {
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0...0x8, 0xB, 0xE...0x1F, 0x7F...0x9F, 0xFDD0...0xFDEF: true
        default: scalar.value & 0xFFFE == 0xFFFE
        }
    }

    /// The first forbidden code point of `text`, its line and column (from 1, in code
    /// points) and how many there are; nil when there is none.
    static func firstForbidden(in text: Substring) -> (
        scalar: Unicode.Scalar, line: Int, column: Int, count: Int
    )? {
        guard let first = text.unicodeScalars.firstIndex(where: isForbidden) else { return nil }
        let before = text.unicodeScalars[..<first]
        let line = before.count { $0 == "\n" } + 1
        let lineStart = before.lastIndex(of: "\n").map(text.unicodeScalars.index(after:))
        let column = text.unicodeScalars[(lineStart ?? text.startIndex)..<first].count + 1
        let count = text.unicodeScalars[first...].count(where: isForbidden)
        return (text.unicodeScalars[first], line, column, count)
    }

    /// The error's message: `the body holds U+000B (and 2 more), a character HTML pages…`.
    static func message(_ scalar: Unicode.Scalar, count: Int, in place: String) -> String {
        let more = count > 1 ? " (and \(count - 1) more)" : ""
        return "\(place) holds \(code(scalar))\(more), a character HTML pages cannot hold"
    }

    static let hint = "remove it, or the escape that writes it"

    private static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
