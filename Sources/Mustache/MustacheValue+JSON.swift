import Foundation

// MARK: - JSON

extension MustacheValue: Decodable {
    /// Decodes any JSON value; a number without a fraction that fits in `Int` becomes `.int`.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the input is not JSON-like.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Order matters: Bool before the numbers so `true` never becomes 1, and Int before
        // Double so `85` renders as "85" and not "85.0".
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([MustacheValue].self) {
            self = .array(value)
        } else {
            self = .object(MustacheObject(try container.decode([String: MustacheValue].self)))
        }
    }

    /// Creates a value from JSON bytes; any JSON value may be at the top level.
    /// - Parameter jsonData: UTF-8 encoded JSON.
    /// - Throws: `DecodingError` when the data is not valid JSON.
    public init(jsonData: Data) throws {
        self = try JSONDecoder().decode(MustacheValue.self, from: jsonData)
    }
}
