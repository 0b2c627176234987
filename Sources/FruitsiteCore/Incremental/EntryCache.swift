/// The entries of the last build, parsed, with the status of the file each came from: a
/// rebuild takes an unchanged file's entry from here instead of reading and parsing it.
///
/// Kept in the build cache. Entries keep no body or params: a page that needs them parses
/// its file again.
struct EntryCache: Sendable {
    struct Entry: Sendable {
        var status: FileStatus
        /// When the file was found with this status, in nanoseconds since 1970.
        var verifiedAt: Int64
        /// The entry, without details.
        var fruit: Fruit
        /// Where the entry's bytes are in `storage`, while it is as it was read.
        var record: Range<Int>?
    }

    /// Content file paths as the build names them (`Content/apple.md`), sorted by UTF-8
    /// bytes, as `SiteLoader.list()` sorts them.
    var paths: [String] = []
    /// The entry of each path.
    var entries: [Entry] = []
    /// The bytes the cache was read from, which unchanged entries are copied from when saved.
    var storage: [UInt8] = []
    /// Whether this differs from the cache read at the start of the build: only then is it
    /// saved.
    var isChanged = true

    /// A file changed within this long before it was seen could change again without its
    /// status showing it, as file times are only as fine as the file system keeps them
    /// (two seconds on FAT); such an entry is checked against the file's bytes.
    static let racyWindow: Int64 = 2_000_000_000

    /// Whether `entry` still holds for a file whose status is now `status`: the status is the
    /// one recorded, and was recorded long enough after the file's last change.
    static func isCurrent(_ entry: Entry, status: FileStatus?) -> Bool {
        guard let status, entry.status == status else { return false }
        return max(status.modified, status.changed) < entry.verifiedAt - racyWindow
    }

    /// For each of `sorted` paths, the position of its entry in this cache, if it has one.
    func positions(of sorted: [String]) -> [Int?] {
        var result = [Int?](repeating: nil, count: sorted.count)
        var cached = 0
        for (index, path) in sorted.enumerated() {
            while cached < paths.count, UTF8Order.precedes(paths[cached], path) { cached += 1 }
            if cached < paths.count, UTF8Order.equal(paths[cached], path) {
                result[index] = cached
            }
        }
        return result
    }

    // MARK: - Bytes

    /// The cache file's first bytes: the format, the fruitsite that wrote it and the
    /// settings parsing depends on.
    static func header(rawHTML: Bool) -> String {
        "fruitsite-entries 3 \(Generator.identity) rawHTML=\(rawHTML)\n"
    }

    init(storage: [UInt8] = []) {
        self.storage = storage
    }

    /// Reads what `encoded(into:)` wrote, in parallel; nil when the bytes are damaged.
    ///
    /// The layout: the entry count, the offset of each entry's record, then the records.
    init?(decoding bytes: [UInt8], from offset: Int) {
        let decoded = bytes.withUnsafeBytes { buffer -> [(String, Entry)?]? in
            nonisolated(unsafe) let buffer = buffer
            var reader = ByteReader(buffer, offset: offset)
            guard let count = reader.integer(), count >= 0, count <= buffer.count / 8 else {
                return nil
            }
            let table = reader.offset
            let recordsStart = table + count * 8
            guard recordsStart <= buffer.count else { return nil }
            return Array(0..<count).concurrentMap { index -> (String, Entry)? in
                var reader = ByteReader(buffer, offset: table + index * 8)
                guard let start = reader.integer(), start >= 0, recordsStart + start < buffer.count
                else { return nil }
                reader.offset = recordsStart + start
                return Self.readEntry(&reader)
            }
        }
        guard let decoded else { return nil }
        paths.reserveCapacity(decoded.count)
        entries.reserveCapacity(decoded.count)
        // The records must follow one another to the last byte, their paths in order.
        var end = offset + 8 + decoded.count * 8
        for item in decoded {
            guard let (path, entry) = item, entry.record?.lowerBound == end else { return nil }
            if let last = paths.last, !UTF8Order.precedes(last, path) { return nil }
            end = entry.record!.upperBound
            paths.append(path)
            entries.append(entry)
        }
        guard end == bytes.count else { return nil }
        storage = bytes
        isChanged = false
    }

    /// The entries as bytes; an entry unchanged since it was read is copied as it was.
    func encoded(into writer: inout ByteWriter) {
        writer.integer(entries.count)
        let table = writer.bytes.count
        writer.bytes += repeatElement(0, count: entries.count * 8)
        let recordsStart = writer.bytes.count
        for (index, entry) in entries.enumerated() {
            writer.set(UInt64(writer.bytes.count - recordsStart), at: table + index * 8)
            if let record = entry.record {
                writer.bytes += storage[record]
            } else {
                Self.writeEntry(entry, path: paths[index], into: &writer)
            }
        }
    }

    private static func writeEntry(_ entry: Entry, path: String, into writer: inout ByteWriter) {
        let fruit = entry.fruit
        writer.string(path)
        writer.word(entry.status.device)
        writer.word(entry.status.inode)
        writer.integer(entry.status.size)
        writer.integer(entry.status.modified)
        writer.integer(entry.status.changed)
        writer.integer(entry.verifiedAt)
        writer.word(fruit.sourceHash)
        writer.string(fruit.slug)
        writer.string(fruit.name)
        writer.string(fruit.emoji)
        writer.string(fruit.category)
        writer.integer(fruit.vitamins.count)
        for vitamin in fruit.vitamins { writer.string(vitamin) }
        writer.integer(fruit.isDraft ? 1 : 0)
        for location in [fruit.location, fruit.categoryLocation] {
            writer.integer(location.line ?? -1)
            writer.integer(location.column ?? -1)
        }
        writer.string(fruit.nameKey)
        writer.string(fruit.categoryKey)
    }

    private static func readEntry(_ reader: inout ByteReader) -> (String, Entry)? {
        let start = reader.offset
        guard let path = reader.string(), let device = reader.word(), let inode = reader.word(),
            let size = reader.integer(), let modified = reader.integer(),
            let changed = reader.integer(), let verifiedAt = reader.integer(),
            let sourceHash = reader.word(), let slug = reader.string(), let name = reader.string(),
            let emoji = reader.string(), let category = reader.string(),
            let vitaminCount = reader.integer(), vitaminCount >= 0, vitaminCount < 1 << 16
        else { return nil }
        var vitamins: [String] = []
        vitamins.reserveCapacity(vitaminCount)
        for _ in 0..<vitaminCount {
            guard let vitamin = reader.string() else { return nil }
            vitamins.append(vitamin)
        }
        guard let draft = reader.integer(), let line = reader.integer(),
            let column = reader.integer(), let categoryLine = reader.integer(),
            let categoryColumn = reader.integer(), let nameKey = reader.bytes(),
            let categoryKey = reader.bytes()
        else { return nil }
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
        let status = FileStatus(
            device: device, inode: inode, size: Int64(size), modified: Int64(modified),
            changed: Int64(changed))
        let entry = Entry(
            status: status, verifiedAt: Int64(verifiedAt), fruit: fruit,
            record: start..<reader.offset)
        return (path, entry)
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
        guard buffer.count - offset >= 8 else { return nil }
        defer { offset += 8 }
        return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func integer() -> Int? {
        word().map { Int(Int64(bitPattern: $0)) }
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
