/// Text made safe inside HTML or XML, in element content and in quoted attribute values:
/// the sitemap's addresses, the Atom feeds' text, and the errors `serve` shows over a page.
public enum MarkupText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references.
    public static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { reference(for: $0) != nil }) else { return text }
        var text = text
        var bytes: [UInt8] = []
        text.withUTF8 { append($0, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` escaped as `escaped(_:)` escapes it, with every character outside ASCII as a
    /// numeric character reference (`🍎` as `&#x1F34E;`): the feeds' bytes then mean the same
    /// whatever charset a server names, and `text/xml` without one means US-ASCII (RFC 3023).
    /// Only for text and attribute values, where XML reads references.
    static func asciiEscaped(_ text: String) -> String {
        let escaped = escaped(text)
        guard !escaped.utf8.allSatisfy({ $0 < 0x80 }) else { return escaped }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(escaped.utf8.count + 64)
        for scalar in escaped.unicodeScalars {
            if scalar.isASCII {
                bytes.append(UInt8(scalar.value))
            } else {
                bytes += "&#x\(String(scalar.value, radix: 16, uppercase: true));".utf8
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 `text` escaped as `escaped(_:)` escapes it, each run between
    /// references at once: the sitemap writes a slug for each fruit, and making a string of
    /// each to escape it cost most of writing them.
    static func append(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var start = 0
        for (index, byte) in text.enumerated() {
            guard let reference = reference(for: byte) else { continue }
            bytes.append(contentsOf: text[start..<index])
            bytes.append(contentsOf: reference.utf8)
            start = index + 1
        }
        bytes.append(contentsOf: text[start...])
    }

    /// The character reference for an ASCII byte that needs one.
    private static func reference(for byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&apos;"
        default: nil
        }
    }
}
