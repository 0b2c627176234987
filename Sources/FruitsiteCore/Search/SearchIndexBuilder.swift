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
        var json = "{\"version\":\(Self.version),\"categories\":["
        // About what an entry takes, so the text grows without copying.
        json.reserveCapacity(catalog.fruits.count * 160 + 1024)
        for (index, category) in catalog.categories.enumerated() {
            if index > 0 { json += "," }
            JSONText.append(quoted: category.name, to: &json)
        }
        json += "],\"fruits\":[\n"
        for (index, fruit) in catalog.fruits.enumerated() {
            if index > 0 { json += ",\n" }
            Self.append(fruit, to: &json)
        }
        json += "\n]}\n"
        return Array(json.utf8)
    }

    /// One fruit as the index holds it; `url` is relative to the site root.
    public static func entry(_ fruit: Fruit) -> String {
        var json = ""
        append(fruit, to: &json)
        return json
    }

    private static func append(_ fruit: Fruit, to json: inout String) {
        json += "{\"slug\":"
        JSONText.append(quoted: fruit.slug, to: &json)
        json += ",\"name\":"
        JSONText.append(quoted: fruit.name, to: &json)
        json += ",\"emoji\":"
        JSONText.append(quoted: fruit.emoji, to: &json)
        json += ",\"category\":"
        JSONText.append(quoted: fruit.category, to: &json)
        json += ",\"vitamins\":"
        JSONText.append(quoted: fruit.vitaminsText, to: &json)
        json += ",\"url\":\"fruits/"
        JSONText.append(escaped: fruit.slug, to: &json)
        json += "/\"}"
    }
}
