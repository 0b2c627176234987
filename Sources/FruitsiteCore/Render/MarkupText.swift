/// Text made safe inside HTML or XML, in element content and in quoted attribute values:
/// the sitemap's addresses, and the errors `serve` shows over a page.
public enum MarkupText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references.
    public static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { reference(for: $0) != nil }) else { return text }
        var text = text
        var bytes: [UInt8] = []
        text.withUTF8 { append($0, to: &bytes) }
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
