/// Builds `search-index.json`, the data the browser's search filters.
///
/// A pure function of the catalog: same catalog, same bytes. Each fruit's record is made once,
/// when its file is parsed (`EntryFacts.searchRecord`), so the index is written by copying.
public struct SearchIndexBuilder: Sendable {
    /// The index format; the client checks it.
    public static let version = 1

    public init() {}

    /// The index as UTF-8 JSON: `{"version", "categories", "fruits"}`, fruits in catalog order;
    /// a fruit's `facets` map each facet key it has values of to those values.
    /// - Parameters:
    ///   - categories: The categories' names, in catalog order.
    ///   - records: Each fruit's `record(of:)`, in catalog order.
    func build(categories: [String], records: some Collection<ByteSlice>) -> [UInt8] {
        var json: [UInt8] = []
        // Exactly what the records and their separators take, plus room for the rest: an
        // estimate that falls short doubles the buffer, which at 100,000 fruits held 38 MB
        // for a 20 MB index at the build's peak.
        let recordBytes = records.reduce(0) { $0 + $1.count + 2 }
        let categoryBytes = categories.reduce(0) { $0 + $1.utf8.count * 6 + 3 }
        json.reserveCapacity(recordBytes + categoryBytes + 64)
        json += "{\"version\":\(Self.version),\"categories\":[".utf8
        for (index, category) in categories.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            JSONText.append(quoted: category, to: &json)
        }
        json += "],\"fruits\":[\n".utf8
        Self.append(records, to: &json)
        json += "\n]}\n".utf8
        return json
    }

    /// Appends records one a line, a comma after each but the last: how `search-index.json`
    /// and the sharded index's records files both list them.
    static func append(_ records: some Sequence<ByteSlice>, to json: inout [UInt8]) {
        for (index, record) in records.enumerated() {
            if index > 0 { json += ",\n".utf8 }
            json += record
        }
    }

    /// One fruit as the index holds it; `url` is relative to the site root.
    public static func entry(_ fruit: Fruit, pictures: PictureSettings) -> String {
        String(decoding: record(of: fruit, pictures: pictures), as: UTF8.self)
    }

    /// One fruit's JSON object in the index: the fields `Fruit.visitFields` marks searched,
    /// in its order, then the URL of its page, its facets and its picture's thumbnail, as
    /// `pictures` publishes it.
    static func record(of fruit: Fruit, pictures: PictureSettings) -> [UInt8] {
        var writer = RecordWriter()
        var fields = fruit
        fields.visitFields(&writer)
        return writer.finish(slug: fruit.slug, pictures: pictures)
    }
}

/// Writes the members of a search record as `Fruit.visitFields` goes over them.
private struct RecordWriter: FruitFieldVisitor {
    var json: [UInt8] = {
        var json: [UInt8] = [UInt8(ascii: "{")]
        json.reserveCapacity(192)
        return json
    }()
    /// Written after the URL, which the other fields come before.
    var facets: [FacetValues]?
    var image: FruitImage?

    /// `,"name":`, a byte at a time but for the name: appending a run of bytes costs more
    /// than appending a byte.
    private mutating func member(_ name: StaticString) {
        if json.count > 1 { json.append(UInt8(ascii: ",")) }
        json.append(UInt8(ascii: "\""))
        json += name
        json.append(UInt8(ascii: "\""))
        json.append(UInt8(ascii: ":"))
    }

    mutating func visit(_ name: StaticString, _ value: inout String, searched: Bool) {
        guard searched else { return }
        member(name)
        JSONText.append(quoted: value, to: &json)
    }

    mutating func visit(_ name: StaticString, _ value: inout [String], searched: Bool) {
        guard searched else { return }
        member(name)
        json.append(UInt8(ascii: "\""))
        for (index, text) in value.enumerated() {
            if index > 0 { json += ", " }
            JSONText.append(escaped: text, to: &json)
        }
        json.append(UInt8(ascii: "\""))
    }

    mutating func visit(_ name: StaticString, _ value: inout Bool, searched: Bool) {
        guard searched else { return }
        member(name)
        json += value ? "true" : "false"
    }

    mutating func visit(_ name: StaticString, _ value: inout EntryDate?, searched: Bool) {
        guard searched else { return }
        member(name)
        if let value {
            JSONText.append(quoted: value.timestamp, to: &json)
        } else {
            json += "null"
        }
    }

    mutating func visit(_ name: StaticString, _ value: inout [FacetValues], searched: Bool) {
        if searched { facets = value }
    }

    mutating func visit(_ name: StaticString, _ value: inout FruitImage?, searched: Bool) {
        if searched { image = value }
    }

    mutating func visit(key name: StaticString, _ value: inout [UInt8]) {}

    /// The record, with the URL of the fruit's page, relative to the site root, the facets
    /// and the thumbnail: `{"src", "width", "height", "color", "sources"}`, `src` the
    /// fallback's and `sources` the other formats' (`PicturePlan.thumbnails`), each a type
    /// and a URL relative to the site root.
    mutating func finish(slug: String, pictures: PictureSettings) -> [UInt8] {
        json += #","url":"fruits/"#
        JSONText.append(escaped: slug, to: &json)
        json += #"/""#
        if let facets, !facets.isEmpty {
            json += #","facets":{"#
            for (index, facet) in facets.enumerated() {
                if index > 0 { json.append(UInt8(ascii: ",")) }
                JSONText.append(quoted: facet.key, to: &json)
                json += ":["
                for (index, value) in facet.values.enumerated() {
                    if index > 0 { json.append(UInt8(ascii: ",")) }
                    JSONText.append(quoted: value, to: &json)
                }
                json.append(UInt8(ascii: "]"))
            }
            json.append(UInt8(ascii: "}"))
        }
        if let image {
            let thumbnails = PicturePlan(image, settings: pictures).thumbnails
            let fallback = thumbnails[thumbnails.count - 1]
            json += #","image":{"src":"#
            JSONText.append(quoted: fallback.path, to: &json)
            json += #","width":\#(fallback.width),"height":\#(fallback.height),"color":"#.utf8
            JSONText.append(quoted: image.placeholder.color, to: &json)
            json += #","sources":["#
            for (index, variant) in thumbnails.dropLast().enumerated() {
                if index > 0 { json.append(UInt8(ascii: ",")) }
                json += #"{"type":"#
                JSONText.append(quoted: variant.format.mediaType, to: &json)
                json += #","src":"#
                JSONText.append(quoted: variant.path, to: &json)
                json.append(UInt8(ascii: "}"))
            }
            json += "]}"
        }
        json.append(UInt8(ascii: "}"))
        return json
    }
}
