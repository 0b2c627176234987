/// Writes JSON strings by hand so the index has a fixed key order and stays safe inside HTML.
enum JSONText {
    /// `text` as a quoted JSON string.
    ///
    /// `<`, `>` and `&` are escaped as `\u003c` and so on, so the JSON can sit in an inline
    /// `<script>` without `</script>` ending it; U+2028 and U+2029 are escaped for old parsers.
    static func quoted(_ text: String) -> String {
        var result = ""
        append(quoted: text, to: &result)
        return result
    }

    /// Appends `text` as a quoted JSON string (see `quoted(_:)`).
    static func append(quoted text: String, to result: inout String) {
        result += "\""
        append(escaped: text, to: &result)
        result += "\""
    }

    /// Appends `text` as the inside of a JSON string, without the quotes.
    static func append(escaped text: String, to result: inout String) {
        let isPlain =
            text.utf8.withContiguousStorageIfAvailable { bytes in
                !bytes.contains { byte in
                    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x3C || byte == 0x3E
                        || byte == 0x26 || byte == 0xE2  // 0xE2 leads U+2028 and U+2029
                }
            } ?? false
        if isPlain {
            result += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "<": result += "\\u003c"
            case ">": result += "\\u003e"
            case "&": result += "\\u0026"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
    }
}
