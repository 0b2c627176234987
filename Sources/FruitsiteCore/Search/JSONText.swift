/// Writes JSON strings by hand so the index has a fixed key order and stays safe inside HTML.
enum JSONText {
    /// `text` as a quoted JSON string.
    ///
    /// `<`, `>` and `&` are escaped as `\u003c` and so on, so the JSON can sit in an inline
    /// `<script>` without `</script>` ending it; U+2028 and U+2029 are escaped for old parsers.
    static func quoted(_ text: String) -> String {
        var json: [UInt8] = []
        append(quoted: text, to: &json)
        return String(decoding: json, as: UTF8.self)
    }

    /// Appends `text` as a quoted JSON string (see `quoted(_:)`) to UTF-8 bytes.
    static func append(quoted text: String, to json: inout [UInt8]) {
        var text = text
        text.withUTF8 { append(quoted: $0, to: &json) }
    }

    /// Appends UTF-8 `text` as a quoted JSON string (see `quoted(_:)`).
    static func append(quoted text: UnsafeBufferPointer<UInt8>, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        append(escaped: text, to: &json)
        json.append(UInt8(ascii: "\""))
    }

    /// Appends `number` in decimal: an index writes millions of them, and a string for each
    /// would cost more than the rest of the writing.
    static func append(_ number: Int, to json: inout [UInt8]) {
        if number < 0 { json.append(UInt8(ascii: "-")) }
        var rest = number.magnitude
        if rest < 10 {
            json.append(UInt8(ascii: "0") + UInt8(rest))
            return
        }
        // The digits from the last into a buffer on the stack, then appended at once:
        // reversing them in place cost a third of writing the gram files.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            while rest > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            json.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends `text` as the inside of a JSON string, without the quotes.
    static func append(escaped text: String, to json: inout [UInt8]) {
        var text = text
        text.withUTF8 { append(escaped: $0, to: &json) }
    }

    /// Appends UTF-8 `bytes` as the inside of a JSON string (see `append(escaped:to:)`).
    ///
    /// Eight bytes at a time while none of them may need escaping, then the runs between
    /// escapes appended whole: byte by byte, a name with a `’` (which starts with 0xE2, as
    /// U+2028 does) was appended one byte at a time. UTF-8 never uses an ASCII byte inside a
    /// longer character, and U+2028 and U+2029 are the only characters escaped beyond ASCII.
    static func append(escaped bytes: UnsafeBufferPointer<UInt8>, to json: inout [UInt8]) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var runStart = 0
        var index = 0
        func appendRun(upTo end: Int) {
            json.append(
                contentsOf: UnsafeBufferPointer(start: base + runStart, count: end - runStart))
        }
        while index < count {
            if index + 8 <= count,
                !mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let end = min(index + 8, count)
            while index < end {
                let byte = base[index]
                let escape: StaticString
                var length = 1
                switch byte {
                case UInt8(ascii: "\""): escape = #"\""#
                case UInt8(ascii: "\\"): escape = #"\\"#
                case UInt8(ascii: "\n"): escape = #"\n"#
                case UInt8(ascii: "\r"): escape = #"\r"#
                case UInt8(ascii: "\t"): escape = #"\t"#
                case UInt8(ascii: "<"): escape = #"\u003c"#
                case UInt8(ascii: ">"): escape = #"\u003e"#
                case UInt8(ascii: "&"): escape = #"\u0026"#
                case 0xE2
                where index + 2 < count && base[index + 1] == 0x80
                    && (base[index + 2] == 0xA8 || base[index + 2] == 0xA9):
                    escape = base[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#
                    length = 3
                case ..<0x20:
                    appendRun(upTo: index)
                    let hex = Array("0123456789abcdef".utf8)
                    json.append(contentsOf: #"\u00"#.utf8)
                    json.append(hex[Int(byte >> 4)])
                    json.append(hex[Int(byte & 0xF)])
                    index += 1
                    runStart = index
                    continue
                default:
                    index += 1
                    continue
                }
                appendRun(upTo: index)
                json.append(
                    contentsOf: UnsafeBufferPointer(
                        start: escape.utf8Start, count: escape.utf8CodeUnitCount))
                index += length
                runStart = index
            }
        }
        appendRun(upTo: count)
    }

    /// Whether one of the eight bytes of `word` may need escaping: never false when one does.
    /// `"` and `&` differ in one bit only, as do `<` and `>`.
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits = ones &* 0x80
        // A byte below `limit` (at most 128) has its high bit set here: subtracting borrows
        // out of its high bit, and out of no byte that was not below or high already.
        func bytes(of word: UInt64, below limit: UInt64) -> UInt64 {
            (word &- ones &* limit) & ~word & highBits
        }
        let controls = bytes(of: word, below: 0x20)
        let quotesAndAmpersands = bytes(of: (word | ones &* 0x04) ^ (ones &* 0x26), below: 1)
        let angleBrackets = bytes(of: (word | ones &* 0x02) ^ (ones &* 0x3E), below: 1)
        let backslashes = bytes(of: word ^ (ones &* 0x5C), below: 1)
        let separatorLeads = bytes(of: word ^ (ones &* 0xE2), below: 1)
        return controls | quotesAndAmpersands | angleBrackets | backslashes | separatorLeads != 0
    }
}
