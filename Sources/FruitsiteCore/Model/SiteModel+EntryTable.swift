extension SiteModel {
    /// The entries by id, in chunks: a copy of the model shares every chunk, and a change
    /// copies only the chunk it touches. `serve` applies each update to a copy, to keep the
    /// model as it was when the update fails; copying 10,000 entries whole was half of a
    /// body edit's update.
    struct EntryTable: Sendable {
        private static let chunkBits = 8
        private static let chunkMask = (1 << chunkBits) - 1
        private var chunks: [[Entry?]] = []
        /// How many ids there are, holes included.
        private(set) var count = 0

        init() {}

        /// The entries `make` gives for the ids `0..<count`, made on every core, chunk by chunk.
        init(count: Int, _ make: @Sendable (EntryID) -> Entry?) {
            let size = 1 << Self.chunkBits
            chunks = Array(stride(from: 0, to: count, by: size)).concurrentMap { start in
                (EntryID(start)..<EntryID(min(start + size, count))).map(make)
            }
            self.count = count
        }

        /// Whether every id has an entry.
        var isFull: Bool { chunks.allSatisfy { !$0.contains { $0 == nil } } }

        /// Every id, holes included.
        var ids: Range<EntryID> { EntryID(0)..<EntryID(count) }

        subscript(id: EntryID) -> Entry? {
            _read { yield chunks[id.rawValue >> Self.chunkBits][id.rawValue & Self.chunkMask] }
            _modify {
                yield &chunks[id.rawValue >> Self.chunkBits][id.rawValue & Self.chunkMask]
            }
        }

        /// Adds an entry, or a hole, with the next id, which it returns.
        @discardableResult
        mutating func append(_ entry: Entry?) -> EntryID {
            if count & Self.chunkMask == 0 { chunks.append([]) }
            chunks[chunks.count - 1].append(entry)
            count += 1
            return EntryID(count - 1)
        }
    }
}
