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
        json += catalog.categories.map { JSONText.quoted($0.name) }.joined(separator: ",")
        json += "],\"fruits\":[\n"
        // A plain map: the index is built as one task beside the pages, which keep the other
        // cores busy, and a parallel map nested in that task would wait on them.
        json += catalog.fruits.map(Self.entry).joined(separator: ",\n")
        json += "\n]}\n"
        return Array(json.utf8)
    }

    /// One fruit as the index holds it; `url` is relative to the site root.
    public static func entry(_ fruit: Fruit) -> String {
        JSONText.object([
            "slug": JSONText.quoted(fruit.slug),
            "name": JSONText.quoted(fruit.name),
            "emoji": JSONText.quoted(fruit.emoji),
            "category": JSONText.quoted(fruit.category),
            "vitamins": JSONText.quoted(fruit.vitaminsText),
            "url": JSONText.quoted("fruits/\(fruit.slug)/"),
        ])
    }
}
