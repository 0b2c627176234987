import Foundation

/// Keeps the site model between builds in the cache folder (`.fruitsite-cache/` by default),
/// in two files per output folder, named after the folder's absolute path: the model whole
/// (`.model`), and what changed since it was written whole (`.changes`).
///
/// A build that changed few entries writes the changes file only: the entries it changed or
/// added, the ids of those it removed, and the catalog's order, groups and outputs, which are
/// small. Writing every entry again had been the largest part of a one-edit rebuild. Once the
/// changes reach an eighth of the entries, the model is written whole again and the changes
/// file removed.
///
/// The cache stays outside the output folder, which is published: the model holds drafts.
/// Each file starts with a line naming its format, the fruitsite that wrote it and the output
/// folder, and ends with a hash of everything before it; the changes name the hash of the
/// model file they apply to. A file from another fruitsite, or a damaged one, is not used,
/// and the build starts from an empty model.
struct ModelStore: Sendable {
    /// The cache folder as the user named it.
    var directory: String
    /// The output folder's absolute path.
    var output: String

    private var name: String {
        var hasher = StableHasher()
        hasher.combine(output)
        return directory + "/" + String(hasher.value, radix: 16)
    }

    private var path: String { name + ".model" }
    private var changesPath: String { name + ".changes" }

    private var header: String { "\(Self.ownPrefix)output=\(output)\n" }

    /// How a model this fruitsite saved starts, for whichever output folder.
    private static var ownPrefix: String { "\(headerPrefix)18 \(Generator.identity) " }

    /// How every saved model starts, whichever fruitsite wrote it.
    private static let headerPrefix = "fruitsite-model "

    // MARK: - Loading

    /// The model saved by the build that wrote the output folder, or why it cannot be used.
    /// - Parameters:
    ///   - markerID: The id the output folder's marker records, if any.
    ///   - settings: What this build is for; a model made for other settings is not used.
    func load(markerID: UInt64?, settings: SiteModel.Settings) -> Result<SiteModel, Unusable> {
        let bytes: ByteSlice
        let changes: ByteSlice?
        do {
            bytes = try ByteSlice.mapping(path)
            changes = try Self.mappingIfPresent(changesPath)
        } catch let error as SystemError where error == .noSuchFile {
            return .failure(.missing)
        } catch {
            return .failure(.unreadable(error))
        }
        let header = Array(header.utf8)
        guard bytes.starts(with: header) else {
            // Ours for another output folder (copied here), another fruitsite's, or damage.
            if bytes.starts(with: Array(Self.ownPrefix.utf8)) { return .failure(.forOtherOutput) }
            let isModel = bytes.starts(with: Array(Self.headerPrefix.utf8))
            return .failure(isModel ? .otherGenerator : .damaged)
        }
        guard var file = Self.decode(bytes, from: header.count) else {
            return .failure(.damaged)
        }
        var changed: (UInt64, SiteModel)?
        if let changes {
            guard changes.starts(with: header),
                let decoded = Self.decodeChanges(changes, from: header.count, over: &file)
            else { return .failure(.damaged) }
            // Changes made for another model file (a save removes them before it writes the
            // model whole, so only a hand could leave them) say nothing of this one.
            changed = decoded
        }
        // The model file's own tail only when no changes replace it.
        guard let (id, model) = changed ?? file.model() else { return .failure(.damaged) }
        guard model.settings.contentDirectory == settings.contentDirectory else {
            return .failure(.otherContent)
        }
        guard model.settings.includesDrafts == settings.includesDrafts else {
            return .failure(.otherDrafts)
        }
        guard model.settings.facets == settings.facets else { return .failure(.otherFacets) }
        guard
            model.settings.maximumEntrySize == settings.maximumEntrySize
                && model.settings.maximumPageSize == settings.maximumPageSize
        else { return .failure(.otherLimits) }
        guard let markerID, markerID == id else { return .failure(.otherOutput) }
        return .success(model)
    }

    /// The file at `path` mapped, or nil when there is none.
    private static func mappingIfPresent(_ path: String) throws -> ByteSlice? {
        do {
            return try ByteSlice.mapping(path)
        } catch let error as SystemError where error == .noSuchFile {
            return nil
        }
    }

    /// Why a saved model is not used: each is said with `--verbose`.
    enum Unusable: Error, CustomStringConvertible {
        case missing, otherGenerator, forOtherOutput, damaged, otherContent, otherDrafts
        case otherFacets, otherLimits, otherOutput
        case unreadable(any Error)

        var description: String {
            switch self {
            case .missing: "there is no saved model for this output folder"
            case .unreadable(let error): "the saved model cannot be read: \(error)"
            case .otherGenerator: "the saved model was written by another fruitsite"
            // Its file's name is made from this output folder's path: only a copy, or damage
            // to the path written in it, makes it name another.
            case .forOtherOutput:
                "the saved model names another output folder (it was copied, or is damaged)"
            case .damaged: "the saved model is damaged"
            case .otherContent: "the saved model was built from another content folder"
            case .otherDrafts: "the saved model was built with drafts set otherwise"
            case .otherFacets: "the saved model was built with other facets"
            case .otherLimits: "the saved model was built with another maxEntrySize or maxPageSize"
            case .otherOutput:
                "the output folder was not written by the build that saved the model "
                    + "(an earlier build was cut short, or the folder was replaced)"
            }
        }
    }

    // MARK: - Saving

    /// Saves `model` as the model of the output folder whose marker records `id`, each file
    /// by a rename, so a reader never sees half a file: as changes to the model file it was
    /// loaded from when it changed little since, else whole.
    ///
    /// A file is written as it is encoded, a few megabytes at a time: a large site's model is
    /// never in memory twice.
    func save(_ model: SiteModel, id: UInt64) throws {
        try FileSystem.makeFolders(directory)
        if let base = model.base {
            let removed = (0..<base.count).filter { model.entries[$0] == nil }
            let changed = model.ids.filter { model[$0].saved == nil }
            if removed.count + changed.count <= max(16, base.count / 8) {
                try write(changesPath) { writer, flush in
                    try Self.encodeChanges(
                        model, id: id, base: base, removed: removed, changed: changed,
                        into: &writer, flush: flush)
                }
                return
            }
        }
        // Changes never outlive the model file they were made for.
        if unlink(changesPath) != 0 && errno != ENOENT {
            throw PathError(path: changesPath, error: .last)
        }
        try write(path) { writer, flush in
            try Self.encode(model, id: id, into: &writer, flush: flush)
        }
    }

    /// Writes the header, what `encode` writes and the checksum to a new file, then renames
    /// it to `target`. `encode` calls `flush` now and then, to write out what has piled up.
    private func write(
        _ target: String,
        encode: (inout ByteWriter, (inout ByteWriter) throws -> Void) throws -> Void
    ) throws {
        let temporary = "\(target).tmp-\(getpid())"
        do {
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw PathError(path: temporary, error: .last) }
            defer { close(descriptor) }
            try OutputWriter.write(Array(header.utf8), to: descriptor, path: temporary)
            // After the header, whole blocks go out as they fill, with their hashes kept for
            // the checksum.
            // Room for the blocks a flush writes and one more entry, so that the buffer never
            // doubles: a doubled buffer was 23 MB of the peak at 30,000 entries.
            var writer = ByteWriter()
            writer.bytes.reserveCapacity((Self.blocksPerFlush + 1) * Self.block)
            var (hashes, count) = ([UInt64](), 0)
            func flush(_ writer: inout ByteWriter, isLast: Bool) throws {
                let whole =
                    isLast ? writer.bytes.count : writer.bytes.count / Self.block * Self.block
                guard whole > 0 else { return }
                hashes += writer.bytes[..<whole].withUnsafeBytes(Self.blockHashes)
                try OutputWriter.write(writer.bytes[..<whole], to: descriptor, path: temporary)
                count += whole
                writer.bytes.removeFirst(whole)
            }
            try encode(&writer) { writer in
                if writer.bytes.count >= Self.blocksPerFlush * Self.block {
                    try flush(&writer, isLast: false)
                }
            }
            try flush(&writer, isLast: true)
            writer.word(Self.combine(count: count, hashes))
            try OutputWriter.write(writer.bytes, to: descriptor, path: temporary)
            guard rename(temporary, target) == 0 else {
                throw PathError(path: target, error: .last)
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    // MARK: - Bytes

    /// The checksum's block: a megabyte.
    private static let block = 1 << 20
    /// How many blocks a save writes at once: enough to hash on both cores.
    private static let blocksPerFlush = 4

    /// The hash of each megabyte, made on every core, then of those hashes in order.
    private static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        combine(count: bytes.count, blockHashes(bytes))
    }

    /// The hash of each block of `bytes`, which starts at a block's start, made on every core.
    private static func blockHashes(_ bytes: UnsafeRawBufferPointer) -> [UInt64] {
        nonisolated(unsafe) let buffer = bytes
        return Array(stride(from: 0, to: buffer.count, by: block)).concurrentMap { start in
            StableHasher.hash(
                wide: UnsafeRawBufferPointer(
                    rebasing: buffer[start..<min(start + block, buffer.count)]))
        }
    }

    private static func combine(count: Int, _ hashes: [UInt64]) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(UInt64(count))
        for hash in hashes { hasher.combine(hash) }
        return hasher.value
    }

    /// The checked bytes of a file after its header: nil when the checksum at its end does
    /// not match them.
    private static func verified(_ bytes: ByteSlice, from start: Int) -> Range<Int>? {
        guard bytes.count >= start + 8 else { return nil }
        let end = bytes.count - 8
        guard stored(in: bytes) == bytes[start..<end].withUnsafeBytes(checksum) else {
            return nil
        }
        return start..<end
    }

    /// The checksum a file ends with.
    private static func stored(in bytes: ByteSlice) -> UInt64 {
        bytes.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
    }

    // MARK: - The model whole

    /// The model after the header: its head (the marker id, the settings, the folders), the
    /// entries by path, the length of each, then its tail (the catalog order, the categories
    /// and facet values, the outputs other than fruit pages), and last how many bytes the
    /// lengths and the tail take. `flush` is called after each entry.
    ///
    /// The lengths come together after the entries, not each before its entry: finding the
    /// entries then reads a few hundred kilobytes in a row, where hopping from one length to
    /// the next was a chain of cache misses, a single core's 16 ms at 100,000 entries. With
    /// the entries found, they are decoded in parallel.
    private static func encode(
        _ model: SiteModel, id: UInt64, into writer: inout ByteWriter,
        flush: (inout ByteWriter) throws -> Void
    ) rethrows {
        encodeHead(model, id: id, into: &writer)
        let ids = model.savingOrder
        var newID = [Int](repeating: -1, count: model.entries.count)
        for (index, id) in ids.enumerated() { newID[id] = index }
        // Entries unchanged since they were loaded are copied as they were read.
        writer.integer(ids.count)
        var lengths: [Int] = []
        lengths.reserveCapacity(ids.count)
        for id in ids {
            let start = writer.bytes.count
            if let saved = model[id].saved {
                writer.bytes += saved
            } else {
                encode(model[id], into: &writer)
            }
            lengths.append(writer.bytes.count - start)
            try flush(&writer)
        }
        let end = writer.bytes.count
        writer.indexes(lengths)
        encodeTail(model, ids: { newID[$0] }, into: &writer)
        writer.word(UInt64(writer.bytes.count - end))
    }

    /// A model file read up to its tail, which the changes file, when there is one, replaces:
    /// reading both tails had been a tenth of loading the model.
    private struct ModelFile {
        var bytes: ByteSlice
        var head: Head
        var entries: SiteModel.EntryTable
        /// The tail's bytes: from its start to the word that ends the file before the checksum.
        var tail: Range<Int>
        var base: (checksum: UInt64, count: Int)

        /// The model with the file's own tail; nil when anything is out of place.
        func model() -> (UInt64, SiteModel)? {
            bytes.withUnsafeBytes { buffer in
                var reader = ByteReader(
                    UnsafeRawBufferPointer(rebasing: buffer[..<tail.upperBound]),
                    offset: tail.lowerBound)
                return decodeTail(&reader, in: bytes, head: head, entries: entries, base: base)
                    .map { (head.id, $0) }
            }
        }
    }

    /// Reads what `encode` wrote, but for the tail; nil when anything is out of place.
    private static func decode(_ bytes: ByteSlice, from start: Int) -> ModelFile? {
        guard let checked = verified(bytes, from: start) else { return nil }
        return bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: buffer[..<checked.upperBound]), offset: start)
            guard let head = decodeHead(&reader),
                let count = reader.integer(), count >= 0, count <= reader.buffer.count,
                reader.buffer.count - reader.offset >= 8
            else { return nil }
            // The lengths and the tail end 8 bytes before the checksum, which say how long
            // they are.
            let trailer = reader.buffer.count - 8
            let records = reader.offset
            let extent = UInt64(
                littleEndian: reader.buffer.loadUnaligned(fromByteOffset: trailer, as: UInt64.self))
            guard extent <= UInt64(trailer - records) else { return nil }
            var lengths = ByteReader(
                UnsafeRawBufferPointer(rebasing: reader.buffer[..<trailer]),
                offset: trailer - Int(extent))
            let recordBytes = lengths.offset - records
            guard let counts = lengths.indexes(below: recordBytes + 1), counts.count == count
            else { return nil }
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(count)
            var start = records
            for length in counts {
                guard length <= records + recordBytes - start else { return nil }
                ranges.append(start..<start + length)
                start += length
            }
            guard start == records + recordBytes else { return nil }
            reader = lengths
            nonisolated(unsafe) let buffer = reader.buffer
            let recordRanges = ranges
            let entries = SiteModel.EntryTable(count: count) { id in
                let range = recordRanges[id]
                var record = ByteReader(
                    UnsafeRawBufferPointer(rebasing: buffer[..<range.upperBound]),
                    offset: range.lowerBound)
                let entry = decodeEntry(&record, in: bytes, keepingBytes: true)
                return record.isAtEnd ? entry : nil
            }
            guard entries.isFull else { return nil }
            return ModelFile(
                bytes: bytes, head: head, entries: entries,
                tail: reader.offset..<trailer,
                base: (checksum: stored(in: bytes), count: count))
        }
    }

    // MARK: - Changes

    /// The changes after the header: the model's head, the checksum of the model file they
    /// apply to, how many ids there are, the ids removed from that file, each entry changed
    /// or added with its id, then the model's tail. Entries read from a changes file are
    /// written again to the next one, which replaces it.
    private static func encodeChanges(
        _ model: SiteModel, id: UInt64, base: (checksum: UInt64, count: Int), removed: [Int],
        changed: [Int], into writer: inout ByteWriter, flush: (inout ByteWriter) throws -> Void
    ) rethrows {
        encodeHead(model, id: id, into: &writer)
        writer.word(base.checksum)
        writer.integer(model.entries.count)
        writer.integer(removed.count)
        for id in removed { writer.integer(id) }
        writer.integer(changed.count)
        for id in changed {
            var record = ByteWriter()
            encode(model[id], into: &record)
            writer.integer(id)
            writer.integer(record.bytes.count)
            writer.bytes += record.bytes
            try flush(&writer)
        }
        encodeTail(model, ids: { $0 }, into: &writer)
    }

    /// The model that changes read from `bytes` make of the model `file`: `.some(nil)` when
    /// they were made for another model file, nil when they are damaged or do not fit it.
    /// Once the changes are found to be `file`'s, its entries are taken from it, so that they
    /// are changed in place: a copy of each chunk they touched was 12 ms of loading 100,000.
    private static func decodeChanges(
        _ bytes: ByteSlice, from start: Int, over file: inout ModelFile
    ) -> (UInt64, SiteModel)?? {
        let base = file.base
        guard let checked = verified(bytes, from: start) else { return nil }
        return bytes.withUnsafeBytes { buffer -> (UInt64, SiteModel)?? in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: buffer[..<checked.upperBound]), offset: start)
            guard let head = decodeHead(&reader), let checksum = reader.word() else { return nil }
            guard checksum == base.checksum else { return .some(nil) }
            guard let count = reader.integer(), count >= base.count,
                count <= base.count + reader.buffer.count,
                let removedCount = reader.integer(), removedCount >= 0,
                removedCount <= base.count
            else { return nil }
            var entries = SiteModel.EntryTable()
            swap(&entries, &file.entries)
            for _ in 0..<removedCount {
                guard let id = reader.integer(), id >= 0, id < base.count, entries[id] != nil
                else { return nil }
                entries[id] = nil
            }
            while entries.count < count { entries.append(nil) }
            guard let changedCount = reader.integer(), changedCount >= 0,
                changedCount <= count
            else { return nil }
            for _ in 0..<changedCount {
                guard let id = reader.integer(), id >= 0, id < count,
                    let length = reader.integer(), length >= 0,
                    length <= reader.buffer.count - reader.offset
                else { return nil }
                var record = ByteReader(
                    UnsafeRawBufferPointer(rebasing: reader.buffer[..<(reader.offset + length)]),
                    offset: reader.offset)
                guard let entry = decodeEntry(&record, in: bytes, keepingBytes: false),
                    record.isAtEnd
                else { return nil }
                entries[id] = entry
                reader.offset += length
            }
            guard
                let changed = decodeTail(
                    &reader, in: bytes, head: head, entries: entries, base: base)
            else { return nil }
            return (head.id, changed)
        }
    }

    // MARK: - Head and tail

    /// What a model file and a changes file both start with.
    private struct Head {
        var id: UInt64
        var settings: SiteModel.Settings
        var listedAt: Int64
        var folders: [SiteModel.Folder]?
    }

    private static func encodeHead(_ model: SiteModel, id: UInt64, into writer: inout ByteWriter) {
        writer.word(id)
        writer.string(model.settings.contentDirectory)
        writer.integer(model.settings.includesDrafts ? 1 : 0)
        writer.integer(model.settings.facets.count)
        for facet in model.settings.facets { writer.string(facet) }
        writer.integer(model.settings.maximumEntrySize)
        writer.integer(model.settings.maximumPageSize)
        writer.integer(model.listedAt)
        writer.integer(model.folders?.count ?? -1)
        for folder in model.folders ?? [] {
            writer.string(folder.path)
            writer.status(folder.status)
        }
    }

    private static func decodeHead(_ reader: inout ByteReader) -> Head? {
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
        return Head(
            id: id,
            settings: SiteModel.Settings(
                contentDirectory: content, includesDrafts: drafts != 0, facets: facets,
                maximumEntrySize: maximumEntrySize, maximumPageSize: maximumPageSize),
            listedAt: Int64(listedAt), folders: folders)
    }

    /// The catalog order, with each entry's id as `ids` gives it, then the categories and
    /// each facet's values, then the outputs other than fruit pages.
    private static func encodeTail(
        _ model: SiteModel, ids: (Int) -> Int, into writer: inout ByteWriter
    ) {
        writer.indexes(model.order.lazy.map(ids))
        for groups in [model.categories] + model.facets {
            writer.integer(groups.count)
            for group in groups {
                writer.string(group.name)
                writer.string(group.slug)
                writer.indexes(group.fruitIndexes)
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
    private static func decodeTail(
        _ reader: inout ByteReader, in bytes: ByteSlice, head: Head, entries: SiteModel.EntryTable,
        base: (checksum: UInt64, count: Int)
    ) -> SiteModel? {
        guard let order = reader.indexes(below: entries.count), order.count <= entries.count,
            order.allSatisfy({ entries[$0] != nil })
        else { return nil }
        let orderCount = order.count
        // The categories, then each facet's values.
        var groups: [[Category]] = []
        for _ in 0...head.settings.facets.count {
            guard let list = decodeGroups(&reader, orderCount: orderCount) else { return nil }
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

    // MARK: - Parts

    private static func encode(_ entry: SiteModel.Entry, into writer: inout ByteWriter) {
        writer.string(entry.path)
        writer.integer(entry.status == nil ? 0 : 1)
        if let status = entry.status { writer.status(status) }
        writer.word(UInt64(bitPattern: entry.verifiedAt))
        writer.word(entry.sourceHash)
        writer.word(entry.summaryHash)
        writer.word(entry.nameHash)
        encode(entry.date, into: &writer)
        writer.integer(entry.isRechecked ? 1 : 0)
        writer.integer(entry.page == nil ? 0 : 1)
        if let page = entry.page { encode(page, into: &writer) }
        entry.facts.encode(into: &writer)
    }

    private static func encode(_ record: SiteModel.OutputRecord, into writer: inout ByteWriter) {
        writer.word(record.inputHash)
        writer.word(record.outputHash)
    }

    /// A list of categories or of a facet's values, each with the positions of its fruits.
    private static func decodeGroups(_ reader: inout ByteReader, orderCount: Int) -> [Category]? {
        guard let count = reader.integer(), count >= 0, count <= orderCount else { return nil }
        var groups: [Category] = []
        for _ in 0..<count {
            guard let name = reader.string(), let slug = reader.string(),
                let members = reader.indexes(below: orderCount), !members.isEmpty,
                members.count <= orderCount
            else { return nil }
            groups.append(Category(name: name, slug: slug, fruitIndexes: members))
        }
        return groups
    }

    /// The entry whose bytes `reader` reads, up to its end; with them as its `saved` bytes
    /// when `keepingBytes`, for an entry of the model file.
    private static func decodeEntry(
        _ reader: inout ByteReader, in bytes: ByteSlice, keepingBytes: Bool
    ) -> SiteModel.Entry? {
        let start = reader.offset
        guard let path = reader.string(), let hasStatus = reader.integer() else { return nil }
        var status: FileStatus?
        if hasStatus != 0 {
            guard let read = reader.status() else { return nil }
            status = read
        }
        guard let verifiedAt = reader.word(), let sourceHash = reader.word(),
            let summaryHash = reader.word(), let nameHash = reader.word(),
            let date = decodeDate(&reader),
            let isRechecked = reader.integer(),
            let hasPage = reader.integer()
        else { return nil }
        var page: SiteModel.OutputRecord?
        if hasPage != 0 {
            guard let record = decodeRecord(&reader) else { return nil }
            page = record
        }
        guard let facts = EntryFacts.read(from: &reader, in: bytes) else { return nil }
        return SiteModel.Entry(
            path: path, status: status, verifiedAt: Int64(bitPattern: verifiedAt),
            sourceHash: sourceHash,
            summaryHash: summaryHash, nameHash: nameHash, date: date,
            isRechecked: isRechecked != 0, page: page,
            facts: facts,
            saved: keepingBytes ? bytes[start..<reader.buffer.count] : nil)
    }

    /// A date, or none: a flag, then the seconds.
    static func encode(_ date: EntryDate?, into writer: inout ByteWriter) {
        writer.integer(date == nil ? 0 : 1)
        if let date { writer.integer(date.seconds) }
    }

    /// The date `encode(_:into:)` wrote: `.some(nil)` for none, nil when it is damaged.
    static func decodeDate(_ reader: inout ByteReader) -> EntryDate?? {
        switch reader.integer() {
        case 0: return .some(nil)
        case 1: return reader.integer().map { EntryDate(seconds: Int64($0)) }
        default: return nil
        }
    }

    private static func decodeRecord(_ reader: inout ByteReader) -> SiteModel.OutputRecord? {
        guard let input = reader.word(), let output = reader.word() else { return nil }
        return SiteModel.OutputRecord(inputHash: input, outputHash: output)
    }
}
