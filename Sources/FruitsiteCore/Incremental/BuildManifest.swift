/// What a build wrote into an output folder: each file's path, the hash of its bytes and the
/// hash of the inputs that produced it. The next build into the same folder renders only the
/// pages whose inputs changed and writes only the files whose bytes changed.
///
/// It is kept in the build cache, not in the published folder; the folder's marker file
/// names the manifest it matches by `id`.
public struct BuildManifest: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// Hash of the template, its source and its data; nil for files copied as they are.
        public var inputHash: UInt64?
        public var outputHash: UInt64
    }

    public var entries: [String: Entry]

    public init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// The manifest of a finished site: pages not rendered again keep the hashes `previous`
    /// recorded for them.
    init(pages: [RenderedPage], previous: BuildManifest?) {
        entries = Dictionary(minimumCapacity: pages.count)
        for page in pages {
            let outputHash =
                page.isUnchanged
                ? previous?.entries[page.path]?.outputHash ?? 0 : StableHasher.hash(page.bytes)
            entries[page.path] = Entry(inputHash: page.inputHash, outputHash: outputHash)
        }
    }

    /// A hash of every entry, which the output folder's marker records: a folder and a
    /// manifest belong together only when the two agree. Equal manifests have equal ids, so
    /// two builds of the same site write the same marker.
    public var id: UInt64 {
        Self.id(count: entries.count, sum: sum)
    }

    /// The entries' hashes added up: the order does not matter, and changing one entry
    /// changes the sum by the difference of its two hashes.
    var sum: UInt64 {
        entries.reduce(0) { $0 &+ Self.hash(path: $1.key, $1.value) }
    }

    static func hash(path: String, _ entry: Entry) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(path)
        hasher.combine(entry.inputHash ?? 0)
        hasher.combine(entry.outputHash)
        return hasher.value
    }

    static func id(count: Int, sum: UInt64) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(UInt64(count))
        hasher.combine(sum)
        return hasher.value
    }

    // MARK: - Bytes

    /// The manifest as bytes: its id and sum, then its entries sorted by path, found by
    /// binary search (see `StoredManifest`).
    func encoded(into writer: inout ByteWriter) {
        var paths = Array(entries.keys)
        UTF8Order.sort(&paths)
        writer.word(id)
        writer.word(sum)
        writer.integer(paths.count)
        let table = writer.bytes.count
        writer.bytes += repeatElement(0, count: paths.count * 8)
        let recordsStart = writer.bytes.count
        for (index, path) in paths.enumerated() {
            writer.set(UInt64(writer.bytes.count - recordsStart), at: table + index * 8)
            let entry = entries[path]!
            writer.integer(entry.inputHash == nil ? 0 : 1)
            writer.word(entry.inputHash ?? 0)
            writer.word(entry.outputHash)
            writer.string(path)
        }
    }
}

/// A manifest as the build cache holds it, read lazily: a rebuild that renders a few pages
/// looks up and patches their entries without decoding the others.
struct StoredManifest: Sendable {
    let id: UInt64
    let sum: UInt64
    let count: Int
    private let bytes: [UInt8]
    /// Where the binary part starts in the file, after the header.
    let start: Int
    private let recordsStart: Int

    /// Reads the structure of what `BuildManifest.encoded(into:)` wrote; nil when damaged.
    init?(bytes: [UInt8], from start: Int) {
        guard
            let (id, sum, count) = bytes.withUnsafeBytes({ buffer -> (UInt64, UInt64, Int)? in
                var reader = ByteReader(buffer, offset: start)
                guard let id = reader.word(), let sum = reader.word(),
                    let count = reader.integer(), count >= 0, count <= (buffer.count - start) / 32
                else { return nil }
                return (id, sum, count)
            })
        else { return nil }
        (self.id, self.sum, self.count, self.bytes, self.start) = (id, sum, count, bytes, start)
        recordsStart = start + 24 + count * 8
    }

    /// The position and entry of `path`, by binary search; nil when it has none.
    func lookup(_ path: String) -> (index: Int, entry: BuildManifest.Entry)? {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            guard let record = record(middle) else { return nil }
            if UTF8Order.equal(record.path, path) { return (middle, record.entry) }
            if UTF8Order.precedes(record.path, path) { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Every entry, decoded; nil when damaged.
    func decoded() -> BuildManifest? {
        var entries = [String: BuildManifest.Entry](minimumCapacity: count)
        for index in 0..<count {
            guard let record = record(index) else { return nil }
            entries[record.path] = record.entry
        }
        let manifest = BuildManifest(entries: entries)
        return manifest.sum == sum ? manifest : nil
    }

    /// Where the fixed part of entry `index` starts in the file.
    func recordOffset(_ index: Int) -> Int? {
        bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer, offset: start + 24 + index * 8)
            guard let offset = reader.integer(), offset >= 0,
                recordsStart + offset + 24 <= buffer.count
            else { return nil }
            return recordsStart + offset
        }
    }

    private func record(_ index: Int) -> (path: String, entry: BuildManifest.Entry)? {
        guard index >= 0, index < count, let offset = recordOffset(index) else { return nil }
        return bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer, offset: offset)
            guard let flags = reader.integer(), let input = reader.word(),
                let output = reader.word(), let path = reader.string()
            else { return nil }
            return (
                path, BuildManifest.Entry(inputHash: flags == 0 ? nil : input, outputHash: output)
            )
        }
    }

    /// Writes that turn this manifest into one with `changes`, all of whose paths it has, and
    /// the new id. The id comes last: until it is written the manifest names no output.
    func patches(_ changes: [String: BuildManifest.Entry]) -> (
        writes: [(offset: Int, bytes: [UInt8])], id: UInt64
    )? {
        var writes: [(offset: Int, bytes: [UInt8])] = []
        var sum = self.sum
        for (path, entry) in changes {
            guard let (index, old) = lookup(path), let offset = recordOffset(index) else {
                return nil
            }
            sum =
                sum &- BuildManifest.hash(path: path, old) &+ BuildManifest.hash(path: path, entry)
            var writer = ByteWriter()
            writer.integer(entry.inputHash == nil ? 0 : 1)
            writer.word(entry.inputHash ?? 0)
            writer.word(entry.outputHash)
            writes.append((offset, writer.bytes))
        }
        let id = BuildManifest.id(count: count, sum: sum)
        var writer = ByteWriter()
        writer.word(id)
        writer.word(sum)
        writes.append((start, writer.bytes))
        return (writes, id)
    }
}
