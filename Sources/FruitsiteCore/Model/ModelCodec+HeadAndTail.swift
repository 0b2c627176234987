import Foundation

/// What the model file and the changes file both hold: the head before the entries, and the
/// tail after them.
extension ModelCodec {
    /// What a model file and a changes file both start with: all that a build which finds
    /// nothing changed reads of the model, with each entry's file (`SavedModel`).
    struct Head {
        var id: UInt64
        var settings: SiteModel.Settings
        var listedAt: Int64
        var folders: [SiteModel.Folder]?
        var report: ModelStore.Report
    }

    static func encodeHead(
        _ model: SiteModel, id: UInt64, report: ModelStore.Report, into writer: inout ByteWriter
    ) {
        writer.word(id)
        writer.string(model.settings.contentDirectory)
        writer.integer(model.settings.includesDrafts ? 1 : 0)
        writer.integer(model.settings.facets.count)
        for facet in model.settings.facets { writer.string(facet) }
        writer.integer(model.settings.maximumEntrySize)
        writer.integer(model.settings.maximumPageSize)
        writer.pictureSettings(model.settings.pictures)
        writer.integer(model.settings.allowsRawHTML ? 1 : 0)
        writer.string(model.settings.language)
        writer.string(model.settings.scope.descriptor)
        writer.integer(model.listedAt)
        writer.integer(model.folders?.count ?? -1)
        for folder in model.folders ?? [] {
            writer.string(folder.path)
            writer.status(folder.status)
        }
        report.encode(into: &writer)
    }

    static func decodeHead(_ reader: inout ByteReader) -> Head? {
        guard let id = reader.word(), let content = reader.string(),
            let drafts = reader.integer(), let facetCount = reader.integer(), facetCount >= 0,
            facetCount < 1 << 16
        else { return nil }
        var facets: [String] = []
        for _ in 0..<facetCount {
            guard let facet = reader.string() else { return nil }
            facets.append(facet)
        }
        guard let maximumEntrySize = reader.integer(), let maximumPageSize = reader.integer(),
            let pictures = reader.pictureSettings(), let rawHTML = reader.integer(),
            let language = reader.string(),
            let scope = reader.string().flatMap(LanguageScope.init(descriptor:)),
            let listedAt = reader.integer(),
            let folderCount = reader.integer(), folderCount >= -1, folderCount < 1 << 24
        else { return nil }
        var folders: [SiteModel.Folder]?
        if folderCount >= 0 {
            var list: [SiteModel.Folder] = []
            for _ in 0..<folderCount {
                guard let path = reader.string(), let status = reader.status() else { return nil }
                list.append(SiteModel.Folder(path: path, status: status))
            }
            folders = list
        }
        guard let report = ModelStore.Report.decode(&reader) else { return nil }
        return Head(
            id: id,
            settings: SiteModel.Settings(
                contentDirectory: content, includesDrafts: drafts != 0, facets: facets,
                maximumEntrySize: maximumEntrySize, maximumPageSize: maximumPageSize,
                pictures: pictures, allowsRawHTML: rawHTML != 0, language: language,
                scope: scope),
            listedAt: Int64(listedAt), folders: folders, report: report)
    }

    /// The catalog order, with each entry's id as `ids` gives it, then the categories and
    /// each facet's values, then the outputs other than fruit pages.
    static func encodeTail(
        _ model: SiteModel, ids: (EntryID) -> Int, into writer: inout ByteWriter
    ) {
        writer.indexes(model.order.lazy.map(ids))
        for groups in [model.categories] + model.facets {
            writer.integer(groups.count)
            for group in groups {
                writer.string(group.name)
                writer.string(group.slug)
                writer.indexes(group.positions.lazy.map(\.rawValue))
            }
        }
        // In the order of their paths' hashes: the same in every run, where a dictionary's
        // order is not, for a fraction of what sorting the paths took on every save (17M
        // instructions at 100,000 fruits).
        let outputs = Array(model.outputs)
        let order = outputs.indices.map { index in
            var hasher = StableHasher()
            hasher.combine(outputs[index].key)
            return (hash: hasher.value, index: index)
        }
        .sorted {
            $0.hash != $1.hash
                ? $0.hash < $1.hash
                : UTF8Order.precedes(outputs[$0.index].key, outputs[$1.index].key)
        }
        writer.integer(outputs.count)
        for (_, index) in order {
            writer.string(outputs[index].key)
            encode(outputs[index].value, into: &writer)
        }
        writer.integer(model.searchGrams == nil ? 0 : 1)
        if let grams = model.searchGrams {
            writer.word(grams.source)
            writer.integer(grams.buckets)
            writer.integer(grams.heavy.count)
            for gram in grams.heavy { writer.string(gram) }
            writer.string(grams.encodedPostings)
        }
    }

    /// The model of `head` and `entries` with the tail `reader` reads, which must end the
    /// file; nil when anything is out of place.
    static func decodeTail(
        _ reader: inout ByteReader, in bytes: ByteSlice, head: Head, entries: SiteModel.EntryTable,
        base: (checksum: UInt64, count: Int)
    ) -> SiteModel? {
        guard let order = reader.indexes(below: entries.count, as: EntryID.init),
            order.count <= entries.count,
            order.allSatisfy({ entries[$0] != nil })
        else { return nil }
        let orderCount = order.count
        // The categories, then each facet's values.
        var groups: [[FruitGroup]] = []
        let collation = Collation.of(head.settings.language)
        for _ in 0...head.settings.facets.count {
            guard let list = decodeGroups(&reader, orderCount: orderCount, by: collation) else {
                return nil
            }
            groups.append(list)
        }
        guard let outputCount = reader.integer(), outputCount >= 0, outputCount < 1 << 32 else {
            return nil
        }
        var outputs = [String: SiteModel.OutputRecord](minimumCapacity: outputCount)
        for _ in 0..<outputCount {
            guard let path = reader.string(), let record = decodeRecord(&reader) else {
                return nil
            }
            outputs[path] = record
        }
        guard let hasGrams = reader.integer(), hasGrams == 0 || hasGrams == 1 else { return nil }
        var searchGrams: SearchShards.Grams?
        if hasGrams == 1 {
            guard let source = reader.word(), let buckets = reader.integer(), buckets > 0,
                let heavyCount = reader.integer(), heavyCount >= 0,
                heavyCount <= reader.buffer.count
            else { return nil }
            var heavy: [String] = []
            for _ in 0..<heavyCount {
                guard let gram = reader.string() else { return nil }
                heavy.append(gram)
            }
            guard let length = reader.integer(), length >= 0,
                length <= reader.buffer.count - reader.offset
            else { return nil }
            searchGrams = SearchShards.Grams(
                source: source, buckets: buckets, heavy: heavy,
                saved: bytes[reader.offset..<reader.offset + length])
            reader.offset += length
        }
        guard reader.isAtEnd else { return nil }
        return SiteModel(
            settings: head.settings, entries: entries, order: order, categories: groups[0],
            facets: Array(groups.dropFirst()), outputs: outputs, searchGrams: searchGrams,
            folders: head.folders, listedAt: head.listedAt, base: base)
    }

    /// A list of categories or of a facet's values, each with the positions of its fruits,
    /// and its name's sort key in `collation`, made again rather than saved.
    private static func decodeGroups(
        _ reader: inout ByteReader, orderCount: Int, by collation: Collation
    ) -> [FruitGroup]? {
        guard let count = reader.integer(), count >= 0, count <= orderCount else { return nil }
        var groups: [FruitGroup] = []
        for _ in 0..<count {
            guard let name = reader.string(), let slug = reader.string(),
                let members = reader.indexes(below: orderCount, as: CatalogPosition.init),
                !members.isEmpty,
                members.count <= orderCount
            else { return nil }
            groups.append(
                FruitGroup(name: name, key: collation.key(name), slug: slug, positions: members))
        }
        return groups
    }
}

extension ByteWriter {
    /// Picture settings, every field of them, as JSON: a field added to them needs no word
    /// here to make a model saved without it unusable.
    mutating func pictureSettings(_ settings: PictureSettings) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding a struct of numbers and strings cannot fail.
        string(Array(try! encoder.encode(settings)))
    }
}

extension ByteReader {
    /// The settings `ByteWriter.pictureSettings(_:)` wrote; nil when they are damaged.
    mutating func pictureSettings() -> PictureSettings? {
        string().flatMap { try? JSONDecoder().decode(PictureSettings.self, from: Data($0.utf8)) }
    }
}
