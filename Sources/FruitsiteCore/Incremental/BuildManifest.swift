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
        var sum: UInt64 = 0
        for (path, entry) in entries {
            var hasher = StableHasher()
            hasher.combine(path)
            hasher.combine(entry.inputHash ?? 0)
            hasher.combine(entry.outputHash)
            sum &+= hasher.value
        }
        var hasher = StableHasher()
        hasher.combine(UInt64(entries.count))
        hasher.combine(sum)
        return hasher.value
    }

    // MARK: - Bytes

    /// Reads what `encoded(into:)` wrote; nil when the bytes are damaged.
    init?(decoding bytes: [UInt8], from offset: Int) {
        let decoded = bytes.withUnsafeBytes { buffer -> [String: Entry]? in
            var reader = ByteReader(buffer, offset: offset)
            guard let count = reader.integer(), count >= 0, count <= buffer.count else {
                return nil
            }
            var entries = [String: Entry](minimumCapacity: count)
            for _ in 0..<count {
                guard let path = reader.string(), let flags = reader.integer(),
                    let input = reader.word(), let output = reader.word()
                else { return nil }
                entries[path] = Entry(inputHash: flags == 0 ? nil : input, outputHash: output)
            }
            return reader.isAtEnd ? entries : nil
        }
        guard let decoded else { return nil }
        entries = decoded
    }

    /// The entries as bytes, in no particular order: nothing depends on it, and sorting
    /// would cost more than all the rest.
    func encoded(into writer: inout ByteWriter) {
        writer.integer(entries.count)
        for (path, entry) in entries {
            writer.string(path)
            writer.integer(entry.inputHash == nil ? 0 : 1)
            writer.word(entry.inputHash ?? 0)
            writer.word(entry.outputHash)
        }
    }
}
