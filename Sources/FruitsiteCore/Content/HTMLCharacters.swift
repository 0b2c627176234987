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
        var text = text
        guard let offset = text.withUTF8(firstForbiddenOffset) else { return nil }
        let first = text.utf8.index(text.startIndex, offsetBy: offset)
        let before = text.unicodeScalars[..<first]
        let line = before.count { $0 == "\n" } + 1
        let lineStart = before.lastIndex(of: "\n").map(text.unicodeScalars.index(after:))
        let column = text.unicodeScalars[(lineStart ?? text.startIndex)..<first].count + 1
        let count = text.unicodeScalars[first...].count(where: isForbidden)
        return (text.unicodeScalars[first], line, column, count)
    }

    /// The byte offset of the first forbidden code point of valid UTF-8 `bytes`, read byte by
    /// byte: checking every scalar of every body took 4% of a clean build. A continuation
    /// byte (0x80 to 0xBF) matches none of the tests, so each byte can be tested in turn.
    private static func firstForbiddenOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        for index in 0..<count {
            let byte = bytes[index]
            let isForbidden: Bool
            switch byte {
            case 0x09, 0x0A, 0x0C, 0x0D: isForbidden = false
            case ..<0x20, 0x7F: isForbidden = true
            // U+0080 to U+009F.
            case 0xC2: isForbidden = index + 1 < count && bytes[index + 1] <= 0x9F
            // U+FDD0 to U+FDEF, U+FFFE and U+FFFF.
            case 0xEF:
                isForbidden =
                    index + 2 < count
                    && (bytes[index + 1] == 0xB7 && (0x90...0xAF).contains(bytes[index + 2])
                        || bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE)
            // U+1FFFE, U+1FFFF and the like: the last 16 bits all ones but the lowest.
            case 0xF0...:
                isForbidden =
                    index + 3 < count && bytes[index + 1] & 0x0F == 0x0F
                    && bytes[index + 2] == 0xBF && bytes[index + 3] >= 0xBE
            default: isForbidden = false
            }
            if isForbidden { return index }
        }
        return nil
    }

    /// The error for `place` (`the body`, `the value`) holding `scalar` first, and `count`
    /// such in all: `the body holds U+000B (and 2 more), a character HTML pages cannot hold`.
    static func error(
        at location: SourceLocation, in place: String, _ scalar: Unicode.Scalar, count: Int
    ) -> Diagnostic {
        let more = count > 1 ? " (and \(count - 1) more)" : ""
        return .error(
            at: location,
            "\(place) holds \(code(scalar))\(more), a character HTML pages cannot hold",
            hint: "remove it, or the escape that writes it")
    }

    private static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
