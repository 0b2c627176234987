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
    ///
    /// Byte by byte: UTF-8 never uses an ASCII byte inside a longer character, and U+2028 and
    /// U+2029 are the only characters escaped beyond ASCII.
    static func append(escaped text: String, to json: inout [UInt8]) {
        var text = text
        text.withUTF8 { append(escaped: $0, to: &json) }
    }

    /// Appends UTF-8 `bytes` as the inside of a JSON string (see `append(escaped:to:)`).
    static func append(escaped bytes: UnsafeBufferPointer<UInt8>, to json: inout [UInt8]) {
        let isPlain = !bytes.contains { byte in
            byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x3C || byte == 0x3E
                || byte == 0x26 || byte == 0xE2  // 0xE2 leads U+2028 and U+2029
        }
        if isPlain {
            json.append(contentsOf: bytes)
            return
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): json.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): json.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): json.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): json.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): json.append(contentsOf: #"\t"#.utf8)
            case UInt8(ascii: "<"): json.append(contentsOf: #"\u003c"#.utf8)
            case UInt8(ascii: ">"): json.append(contentsOf: #"\u003e"#.utf8)
            case UInt8(ascii: "&"): json.append(contentsOf: #"\u0026"#.utf8)
            case 0xE2
            where index + 1 < bytes.count && bytes[index] == 0x80
                && (bytes[index + 1] == 0xA8 || bytes[index + 1] == 0xA9):
                json.append(
                    contentsOf: (bytes[index + 1] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                index += 2
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                json.append(contentsOf: #"\u00"#.utf8)
                json.append(hex[Int(byte >> 4)])
                json.append(hex[Int(byte & 0xF)])
            default: json.append(byte)
            }
        }
    }
}
