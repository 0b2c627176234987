/// The content as the last build into an output folder saw it: each entry, parsed, with the
/// status of its file; the folders listed; and the catalog that came out. A rebuild takes an
/// unchanged file's entry from here instead of reading and parsing it, and when no entry's
/// summary changed it starts from the catalog (see `SteadyRebuild`).
///
/// Read lazily from its bytes: a field of one entry is read without decoding the others.
/// Entries keep no body or params: a page that needs them parses its file again.
struct EntryCache: Sendable {
    /// One entry, decoded.
    struct Entry: Sendable {
        var status: FileStatus
        /// When the file was found with this status, in nanoseconds since 1970.
        var verifiedAt: Int64
        /// The entry, without details.
        var fruit: Fruit
    }

    /// The catalog of the build that wrote the cache.
    struct CatalogSnapshot: Sendable {
        var includesDrafts: Bool
        /// See `ContextBuilder.siteInputs` and `ContextBuilder.categoryInputs`.
        var siteInputs: UInt64
        var categoryInputs: UInt64
        /// The entry (position in path order) at each catalog position.
        var order: [Int]
        var categories: [Category]
    }

    /// A folder listed for content files, and its status then.
    struct Folder: Sendable {
        var path: String
        var status: FileStatus
    }

    /// The id of the manifest of the build that wrote this (see `BuildManifest.id`).
    let manifestID: UInt64
    /// How many entries, in path order.
    let count: Int
    /// The folders listed, when the listing found no problem.
    let folders: [Folder]?
    /// When the folders were listed, in nanoseconds since 1970.
    let listedAt: Int64
    let catalog: CatalogSnapshot?

    private let bytes: [UInt8]
    private let recordsStart: Int
    private let recordOffsets: [Int]
    /// Where each folder's status is, for `patches`.
    private let folderStatusOffsets: [Int]

    /// A file changed within this long before it was seen could change again without its
    /// status showing it, as file times are only as fine as the file system keeps them
    /// (two seconds on FAT); such an entry is checked against the file's bytes.
    static let racyWindow: Int64 = 2_000_000_000

    /// Whether a record made at `verifiedAt` of a file then with `recorded` status still
    /// holds for the file now with `status`.
    static func isCurrent(recorded: FileStatus, verifiedAt: Int64, status: FileStatus?) -> Bool {
        guard let status, recorded == status else { return false }
        return max(status.modified, status.changed) < verifiedAt - racyWindow
    }

    /// The content files as listed by the build that wrote the cache, when that listing
    /// still holds: every file was cached (none had warnings to repeat), and no folder's
    /// status changed, as a folder's modification time moves whenever an entry is added to,
    /// removed from or renamed in it. Nil when the folders must be listed again.
    func listing(of contentDirectory: String, fileSystem: FileSystem) -> SiteLoader.Listing? {
        guard catalog != nil, let folders, let root = folders.first,
            UTF8Order.equal(root.path, contentDirectory),
            folders.allSatisfy({
                Self.isCurrent(
                    recorded: $0.status, verifiedAt: listedAt, status: fileSystem.status($0.path))
            })
        else { return nil }
        var paths: [String] = []
        paths.reserveCapacity(count)
        for index in 0..<count {
            guard let path = path(index) else { return nil }
            paths.append(path)
        }
        return SiteLoader.Listing(
            paths: paths, folders: folders.map { ($0.path, $0.status) }, diagnostics: [])
    }

    // MARK: - One entry's fields

    /// The fixed part of a record: the status (five words), when it was verified, the source
    /// hash, the summary's inputs, the draft flag and the two locations (four words).
    private static let fixedWords = 13

    private func word(_ entry: Int, _ index: Int) -> UInt64 {
        Self.word(in: bytes, at: recordsStart + recordOffsets[entry] + index * 8)
    }

    func status(_ entry: Int) -> FileStatus {
        FileStatus(
            device: word(entry, 0), inode: word(entry, 1),
            size: Int64(bitPattern: word(entry, 2)), modified: Int64(bitPattern: word(entry, 3)),
            changed: Int64(bitPattern: word(entry, 4)))
    }

    func verifiedAt(_ entry: Int) -> Int64 { Int64(bitPattern: word(entry, 5)) }
    func sourceHash(_ entry: Int) -> UInt64 { word(entry, 6) }
    func summaryInputs(_ entry: Int) -> UInt64 { word(entry, 7) }
    func isDraft(_ entry: Int) -> Bool { word(entry, 8) != 0 }

    /// Whether the entry holds for its file, now with `status`.
    func isCurrent(_ entry: Int, status: FileStatus?) -> Bool {
        Self.isCurrent(recorded: self.status(entry), verifiedAt: verifiedAt(entry), status: status)
    }

    func path(_ entry: Int) -> String? {
        bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(
                buffer, offset: recordsStart + recordOffsets[entry] + Self.fixedWords * 8)
            return reader.string()
        }
    }

    /// The entry, decoded; nil when its bytes are damaged.
    func entry(_ index: Int) -> Entry? {
        let range = recordRange(index)
        return bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: buffer[..<range.upperBound]),
                offset: range.lowerBound)
            guard let entry = Self.readEntry(&reader), reader.isAtEnd else { return nil }
            return entry
        }
    }

    /// Every path and entry, decoded in parallel; nil when any is damaged or out of order.
    func decodeAll() -> (paths: [String], entries: [Entry])? {
        let decoded = Array(0..<count).concurrentMap(entry)
        var paths: [String] = []
        var entries: [Entry] = []
        paths.reserveCapacity(count)
        entries.reserveCapacity(count)
        for item in decoded {
            guard let item else { return nil }
            let path = item.fruit.location.path
            if let last = paths.last, !UTF8Order.precedes(last, path) { return nil }
            paths.append(path)
            entries.append(item)
        }
        return (paths, entries)
    }

    /// The bytes of entry `index`'s record, to copy unchanged into a new cache.
    func record(_ index: Int) -> ArraySlice<UInt8> {
        bytes[recordRange(index)]
    }

    private func recordRange(_ index: Int) -> Range<Int> {
        let end = index + 1 < count ? recordsStart + recordOffsets[index + 1] : recordsEnd
        return (recordsStart + recordOffsets[index])..<end
    }

    private let recordsEnd: Int
    private let headerLength: Int

    // MARK: - Reading

    /// The cache file's first bytes: the format, the fruitsite that wrote it and the
    /// settings parsing depends on.
    static func header(rawHTML: Bool) -> String {
        "fruitsite-entries 4 \(Generator.identity) rawHTML=\(rawHTML)\n"
    }

    /// Reads the structure of what `encode` wrote: the entry table, the folders and the
    /// catalog. Entries are read when asked for. Nil when the structure is damaged.
    init?(bytes: [UInt8], from start: Int) {
        self.bytes = bytes
        guard
            let parsed = bytes.withUnsafeBytes({ buffer in
                Self.readStructure(buffer, from: start)
            })
        else { return nil }
        (manifestID, count, recordsStart, recordOffsets, recordsEnd) = (
            parsed.manifestID, parsed.offsets.count, parsed.recordsStart, parsed.offsets,
            parsed.recordsEnd
        )
        headerLength = start
        (folders, folderStatusOffsets, catalog, listedAt) = (
            parsed.folders, parsed.folderStatusOffsets, parsed.catalog, parsed.listedAt
        )
    }

    private struct Structure {
        var manifestID: UInt64
        var offsets: [Int]
        var recordsStart: Int
        var recordsEnd: Int
        var folders: [Folder]?
        var folderStatusOffsets: [Int]
        var listedAt: Int64
        var catalog: CatalogSnapshot?
    }

    private static func readStructure(_ buffer: UnsafeRawBufferPointer, from start: Int)
        -> Structure?
    {
        var reader = ByteReader(buffer, offset: start)
        guard let manifestID = reader.word(), let count = reader.integer(),
            let trailer = reader.integer(), count >= 0, count <= buffer.count / 8,
            trailer >= 0, trailer <= buffer.count
        else { return nil }
        // Records follow one another, each at least as long as its fixed part.
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for _ in 0..<count {
            guard let offset = reader.integer() else { return nil }
            let earliest = offsets.last.map { $0 + fixedWords * 8 } ?? 0
            guard offsets.isEmpty ? offset == 0 : offset >= earliest else { return nil }
            offsets.append(offset)
        }
        let recordsStart = reader.offset
        let shortestEnd = recordsStart + (offsets.last.map { $0 + fixedWords * 8 } ?? 0)
        guard shortestEnd <= trailer else { return nil }

        reader.offset = trailer
        var folders: [Folder]?
        var statusOffsets: [Int] = []
        guard let hasFolders = reader.integer(), let listedAt = reader.integer(),
            let folderCount = reader.integer(), folderCount >= 0, folderCount < buffer.count
        else { return nil }
        var list: [Folder] = []
        for _ in 0..<folderCount {
            guard let path = reader.string() else { return nil }
            statusOffsets.append(reader.offset)
            guard let status = reader.status() else { return nil }
            list.append(Folder(path: path, status: status))
        }
        if hasFolders != 0 { folders = list }

        guard let hasCatalog = reader.integer() else { return nil }
        var catalog: CatalogSnapshot?
        if hasCatalog != 0 {
            guard let drafts = reader.integer(), let site = reader.word(),
                let categoryInputs = reader.word(), let orderCount = reader.integer(),
                orderCount >= 0, orderCount <= count
            else { return nil }
            var order: [Int] = []
            order.reserveCapacity(orderCount)
            for _ in 0..<orderCount {
                guard let entry = reader.integer(), entry >= 0, entry < count else { return nil }
                order.append(entry)
            }
            guard let categoryCount = reader.integer(), categoryCount >= 0,
                categoryCount <= orderCount
            else { return nil }
            var categories: [Category] = []
            for _ in 0..<categoryCount {
                guard let name = reader.string(), let slug = reader.string(),
                    let members = reader.integer(), members >= 0, members <= orderCount
                else { return nil }
                var indexes: [Int] = []
                for _ in 0..<members {
                    guard let index = reader.integer(), index >= 0, index < orderCount else {
                        return nil
                    }
                    indexes.append(index)
                }
                categories.append(Category(name: name, slug: slug, fruitIndexes: indexes))
            }
            catalog = CatalogSnapshot(
                includesDrafts: drafts != 0, siteInputs: site, categoryInputs: categoryInputs,
                order: order, categories: categories)
        }
        guard reader.isAtEnd else { return nil }
        return Structure(
            manifestID: manifestID, offsets: offsets, recordsStart: recordsStart,
            recordsEnd: trailer, folders: folders, folderStatusOffsets: statusOffsets,
            listedAt: Int64(listedAt), catalog: catalog)
    }

    private static func word(in bytes: [UInt8], at offset: Int) -> UInt64 {
        bytes.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
    }

    private static func readEntry(_ reader: inout ByteReader) -> Entry? {
        guard let status = reader.status(), let verifiedAt = reader.integer(),
            let sourceHash = reader.word(), reader.word() != nil, let draft = reader.integer(),
            let line = reader.integer(), let column = reader.integer(),
            let categoryLine = reader.integer(), let categoryColumn = reader.integer(),
            let path = reader.string(), let slug = reader.string(), let name = reader.string(),
            let emoji = reader.string(), let category = reader.string(),
            let vitaminCount = reader.integer(), vitaminCount >= 0, vitaminCount < 1 << 16
        else { return nil }
        var vitamins: [String] = []
        vitamins.reserveCapacity(vitaminCount)
        for _ in 0..<vitaminCount {
            guard let vitamin = reader.string() else { return nil }
            vitamins.append(vitamin)
        }
        guard let nameKey = reader.bytes(), let categoryKey = reader.bytes() else { return nil }
        func location(_ line: Int, _ column: Int) -> SourceLocation {
            SourceLocation(
                path: path, line: line < 0 ? nil : line, column: column < 0 ? nil : column)
        }
        let fruit = Fruit(
            slug: slug, name: name, emoji: emoji, category: category, vitamins: vitamins,
            isDraft: draft != 0, details: nil, sourceHash: sourceHash,
            location: location(line, column),
            categoryLocation: location(categoryLine, categoryColumn), nameKey: nameKey,
            categoryKey: categoryKey)
        return Entry(status: status, verifiedAt: Int64(verifiedAt), fruit: fruit)
    }

    // MARK: - Writing

    /// The fixed part of a record.
    private static func writeFixed(_ entry: Entry, into writer: inout ByteWriter) {
        let fruit = entry.fruit
        writer.status(entry.status)
        writer.integer(entry.verifiedAt)
        writer.word(fruit.sourceHash)
        writer.word(ContextBuilder.summaryInputs(fruit))
        writer.integer(fruit.isDraft ? 1 : 0)
        for location in [fruit.location, fruit.categoryLocation] {
            writer.integer(location.line ?? -1)
            writer.integer(location.column ?? -1)
        }
    }

    /// One entry to write: copied from an earlier cache when unchanged, else encoded.
    enum Record: Sendable {
        case copied(ArraySlice<UInt8>)
        case entry(Entry)
    }

    /// The cache as bytes. After the header: the manifest id, the entry count, where the
    /// trailer starts, each record's offset, the records (each a fixed part of `fixedWords`
    /// words, then the path and the summary's strings), and the trailer: the folders with
    /// their statuses and when they were listed, then the catalog.
    /// - Parameters:
    ///   - header: See `header(rawHTML:)`.
    ///   - manifestID: The id of the manifest of the build.
    ///   - records: The entries in path order.
    ///   - folders: The folders listed, or nil when the listing met a problem.
    ///   - listedAt: When they were listed.
    ///   - catalog: The build's catalog.
    static func encode(
        header: String, manifestID: UInt64, records: [Record], folders: [Folder]?,
        listedAt: Int64, catalog: CatalogSnapshot?
    ) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes += header.utf8
        writer.word(manifestID)
        writer.integer(records.count)
        let trailerAt = writer.bytes.count
        writer.integer(0)
        let table = writer.bytes.count
        writer.bytes += repeatElement(0, count: records.count * 8)
        let recordsStart = writer.bytes.count
        for (index, record) in records.enumerated() {
            writer.set(UInt64(writer.bytes.count - recordsStart), at: table + index * 8)
            switch record {
            case .copied(let bytes): writer.bytes += bytes
            case .entry(let entry): writeEntry(entry, into: &writer)
            }
        }
        writer.set(UInt64(writer.bytes.count), at: trailerAt)
        writer.integer(folders == nil ? 0 : 1)
        writer.integer(listedAt)
        writer.integer(folders?.count ?? 0)
        for folder in folders ?? [] {
            writer.string(folder.path)
            writer.status(folder.status)
        }
        writer.integer(catalog == nil ? 0 : 1)
        if let catalog {
            writer.integer(catalog.includesDrafts ? 1 : 0)
            writer.word(catalog.siteInputs)
            writer.word(catalog.categoryInputs)
            writer.integer(catalog.order.count)
            for entry in catalog.order { writer.integer(entry) }
            writer.integer(catalog.categories.count)
            for category in catalog.categories {
                writer.string(category.name)
                writer.string(category.slug)
                writer.integer(category.fruitIndexes.count)
                for index in category.fruitIndexes { writer.integer(index) }
            }
        }
        return writer.bytes
    }

    private static func writeEntry(_ entry: Entry, into writer: inout ByteWriter) {
        let fruit = entry.fruit
        writeFixed(entry, into: &writer)
        writer.string(fruit.location.path)
        writer.string(fruit.slug)
        writer.string(fruit.name)
        writer.string(fruit.emoji)
        writer.string(fruit.category)
        writer.integer(fruit.vitamins.count)
        for vitamin in fruit.vitamins { writer.string(vitamin) }
        writer.string(fruit.nameKey)
        writer.string(fruit.categoryKey)
    }

    /// Writes that record some entries' files as seen again, unchanged in summary: their
    /// status, verification time, source hash and locations; the folders' statuses when
    /// given; and, last, the id of the manifest of the build.
    func patches(
        entries changes: [Int: Entry], folders statuses: [FileStatus]?, listedAt: Int64,
        manifestID: UInt64
    ) -> [(offset: Int, bytes: [UInt8])] {
        var writes: [(offset: Int, bytes: [UInt8])] = []
        for (index, entry) in changes {
            var writer = ByteWriter()
            Self.writeFixed(entry, into: &writer)
            writes.append((recordsStart + recordOffsets[index], writer.bytes))
        }
        if let statuses {
            var writer = ByteWriter()
            // The listing time sits just before the folder count and the folders.
            writer.integer(listedAt)
            writes.append((recordsEnd + 8, writer.bytes))
            for (offset, status) in zip(folderStatusOffsets, statuses) {
                writer = ByteWriter()
                writer.status(status)
                writes.append((offset, writer.bytes))
            }
        }
        var writer = ByteWriter()
        writer.word(manifestID)
        writes.append((headerLength, writer.bytes))
        return writes
    }
}

/// Appends little-endian integers and length-prefixed strings.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func word(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func integer<Integer: BinaryInteger>(_ value: Integer) {
        word(UInt64(bitPattern: Int64(value)))
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            integer(utf8.count)
            bytes += utf8
        }
    }

    mutating func string(_ utf8: [UInt8]) {
        integer(utf8.count)
        bytes += utf8
    }

    mutating func status(_ status: FileStatus) {
        word(status.device)
        word(status.inode)
        integer(status.size)
        integer(status.modified)
        integer(status.changed)
    }

    /// Overwrites eight bytes written earlier.
    mutating func set(_ value: UInt64, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { word in
            bytes.replaceSubrange(offset..<offset + 8, with: word)
        }
    }
}

/// Reads what `ByteWriter` wrote; every read is bounds-checked and gives nil past the end.
/// The buffer must outlive the reader.
struct ByteReader {
    let buffer: UnsafeRawBufferPointer
    var offset: Int

    init(_ buffer: UnsafeRawBufferPointer, offset: Int) {
        self.buffer = buffer
        self.offset = offset
    }

    var isAtEnd: Bool { offset == buffer.count }

    mutating func word() -> UInt64? {
        guard offset >= 0, buffer.count - offset >= 8 else { return nil }
        defer { offset += 8 }
        return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func integer() -> Int? {
        word().map { Int(Int64(bitPattern: $0)) }
    }

    mutating func status() -> FileStatus? {
        guard let device = word(), let inode = word(), let size = integer(),
            let modified = integer(), let changed = integer()
        else { return nil }
        return FileStatus(
            device: device, inode: inode, size: Int64(size), modified: Int64(modified),
            changed: Int64(changed))
    }

    mutating func bytes() -> [UInt8]? {
        guard let count = integer(), count >= 0, buffer.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(buffer[offset..<offset + count])
    }

    mutating func string() -> String? {
        guard let count = integer(), count >= 0, buffer.count - offset >= count else { return nil }
        defer { offset += count }
        return String(
            decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count]),
            as: UTF8.self)
    }
}
