/// The data a template renders: a JSON-like tree of typed values.
///
/// Truthiness follows the reference implementation the spec was written against: only
/// `null`, `false` and the empty array are falsy. An empty string and `0` are truthy, so
/// `{{#subtitle}}` renders for `subtitle: ""`; use `null` or leave the key out instead.
public enum MustacheValue: Sendable, Hashable {
    /// No value; falsy, and renders as the empty string.
    case null
    /// A boolean; `false` is falsy, and both render as `true` or `false`.
    case bool(Bool)
    /// An integer, rendered in decimal.
    case int(Int)
    /// A floating-point number, rendered in its shortest round-tripping form (`1.21`, `1.0`).
    case double(Double)
    /// A string, HTML-escaped by `{{name}}` and inserted verbatim by `{{{name}}}`.
    case string(String)
    /// A string given as its UTF-8 bytes, which must be valid UTF-8; renders as `.string`
    /// does. For text a caller made as bytes (rendered Markdown, JSON-LD): turning it into a
    /// `String` checks every byte again, which for text beyond ASCII costs more per page
    /// than rendering the tag.
    case utf8([UInt8])
    /// A list; a section iterates over it, and it is falsy when empty.
    case array([MustacheValue])
    /// A hash whose keys names and dotted names look up.
    case object(MustacheObject)
}

// MARK: - Truthiness

extension MustacheValue {
    /// Whether a section renders for this value (`null`, `false` and `[]` do not).
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .array(let items): !items.isEmpty
        case .int, .double, .string, .utf8, .object: true
        }
    }
}

// MARK: - Text

extension MustacheValue {
    /// What an interpolation tag writes of this value, and the name a dynamic partial takes
    /// from it; nil for null, lists and hashes, which write nothing.
    var interpolated: String? {
        switch self {
        case .null, .array, .object: nil
        case .bool(let bool): bool ? "true" : "false"
        case .int(let int): String(int)
        case .double(let double): String(double)
        case .string(let string): string
        case .utf8(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }
}

// MARK: - Fields

extension MustacheValue {
    /// The value of `key` when this is a hash that has it.
    func field(_ key: String) -> MustacheValue? {
        guard case .object(let fields) = self else { return nil }
        return fields[key]
    }
}
