/// Builds `search-index.json`, the data the browser's search filters.
///
/// A pure function of the catalog: same catalog, same bytes.
public struct SearchIndexBuilder: Sendable {
    /// The index format; the client checks it.
    public static let version = 1

    public init() {}

    /// The index as UTF-8 JSON: `{"version", "categories", "fruits"}`, fruits in catalog order.
    /// - Parameter catalog: The fruits and categories.
    public func build(_ catalog: Catalog) -> [UInt8] {
        var json: [UInt8] = []
        // About what an entry takes, so the buffer grows without copying.
        json.reserveCapacity(catalog.fruits.count * 192 + 1024)
        json += "{\"version\":\(Self.version),\"categories\":[".utf8
        for (index, category) in catalog.categories.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            JSONText.append(quoted: category.name, to: &json)
        }
        json += "],\"fruits\":[\n".utf8
        for (index, fruit) in catalog.fruits.enumerated() {
            if index > 0 { json += ",\n".utf8 }
            Self.append(fruit, to: &json)
        }
        json += "\n]}\n".utf8
        return json
    }

    /// One fruit as the index holds it; `url` is relative to the site root.
    public static func entry(_ fruit: Fruit) -> String {
        var json: [UInt8] = []
        append(fruit, to: &json)
        return String(decoding: json, as: UTF8.self)
    }

    private static func append(_ fruit: Fruit, to json: inout [UInt8]) {
        json += #"{"slug":"#.utf8
        JSONText.append(quoted: fruit.slug, to: &json)
        json += #","name":"#.utf8
        JSONText.append(quoted: fruit.name, to: &json)
        json += #","emoji":"#.utf8
        JSONText.append(quoted: fruit.emoji, to: &json)
        json += #","category":"#.utf8
        JSONText.append(quoted: fruit.category, to: &json)
        json += #","vitamins":""#.utf8
        for (index, vitamin) in fruit.vitamins.enumerated() {
            if index > 0 { json += ", ".utf8 }
            JSONText.append(escaped: vitamin, to: &json)
        }
        json += #"","url":"fruits/"#.utf8
        JSONText.append(escaped: fruit.slug, to: &json)
        json += #"/"}"#.utf8
    }
}
