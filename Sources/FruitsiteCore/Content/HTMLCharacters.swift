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

    /// The byte offset of the first forbidden code point of valid UTF-8 `bytes`.
    ///
    /// Eight bytes at a time while they are all printable ASCII, which no test below matches:
    /// byte by byte, checking every body took 2% of a clean build.
    private static func firstForbiddenOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index < count {
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if isPrintableASCII(word) {
                    index += 8
                    continue
                }
            }
            let end = min(index + 8, count)
            while index < end {
                if isForbidden(at: index, in: bytes) { return index }
                index += 1
            }
        }
        return nil
    }

    /// Whether each of the eight bytes of `word` is at least 0x20 and less than 0x7F.
    private static func isPrintableASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // A byte's high bit is set by subtracting n when the byte is below n (n ≤ 0x80): the
        // subtraction borrows only out of such bytes, or out of a byte already high.
        let belowSpace = (word &- ones &* 0x20) & ~word & highs
        let delete = word ^ (ones &* 0x7F)
        let isDelete = (delete &- ones) & ~delete & highs
        return (word & highs) | belowSpace | isDelete == 0
    }

    /// Whether the code point starting at `index` is forbidden. A continuation byte (0x80 to
    /// 0xBF) matches none of the tests, so each byte can be tested in turn.
    private static func isForbidden(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        switch bytes[index] {
        case 0x09, 0x0A, 0x0C, 0x0D: return false
        case ..<0x20, 0x7F: return true
        // U+0080 to U+009F.
        case 0xC2: return index + 1 < count && bytes[index + 1] <= 0x9F
        // U+FDD0 to U+FDEF, U+FFFE and U+FFFF.
        case 0xEF:
            return index + 2 < count
                && (bytes[index + 1] == 0xB7 && (0x90...0xAF).contains(bytes[index + 2])
                    || bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE)
        // U+1FFFE, U+1FFFF and the like: the last 16 bits all ones but the lowest.
        case 0xF0...:
            return index + 3 < count && bytes[index + 1] & 0x0F == 0x0F
                && bytes[index + 2] == 0xBF && bytes[index + 3] >= 0xBE
        default: return false
        }
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
