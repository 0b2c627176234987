extension SiteModel {
    /// The entries by the slug of their file's name, drafts included: how `serve` finds the
    /// entry of an open page, or of a file a watcher saw change, without a pass over the
    /// catalog (at 100,000 fruits such a pass took 12 ms on both cores, a quarter of an
    /// edit's way to the screen). Kept by the model that `serve` holds (`indexSlugs()`), and
    /// made for the one lookup of a build.
    struct SlugIndex: Sendable {
        /// The first entry with each slug's hash: plain words, which a copy of the model
        /// copies without retaining anything.
        private var first: [UInt64: EntryID] = [:]
        /// The others, when two entries share a slug (a draft and a listed fruit, or files
        /// in two folders) or two slugs a hash.
        private var more: [UInt64: [EntryID]] = [:]

        /// The index of every entry, or only of those whose slug is one of `wanted`: a build
        /// looks up a few slugs once, and indexing all 100,000 entries for them had cost more
        /// than the one hashed pass that finds them.
        init(_ model: SiteModel, only wanted: Set<Substring>? = nil) {
            let hashes = wanted.map { Set($0.map { StableHasher.hash(Array($0.utf8)) }) }
            if hashes == nil { first.reserveCapacity(model.count) }
            for id in model.ids {
                var path = model[id].path
                let hash = path.withUTF8(Self.slugHash)
                if hashes?.contains(hash) ?? true { insert(id, hash: hash) }
            }
        }

        /// The entries whose slug is `slug`, by id.
        func ids(withSlug slug: Substring, in model: SiteModel) -> [EntryID] {
            let hash = StableHasher.hash(Array(slug.utf8))
            guard let id = first[hash] else { return [] }
            return ([id] + (more[hash] ?? [])).filter { model[$0].slug == slug }
        }

        /// The entry of the file at `path`, if it has one.
        func id(ofPath path: String, in model: SiteModel) -> EntryID? {
            ids(withSlug: SourceFile.slug(of: path), in: model).first { model[$0].path == path }
        }

        mutating func insert(_ id: EntryID, of entry: Entry) {
            var path = entry.path
            insert(id, hash: path.withUTF8(Self.slugHash))
        }

        private mutating func insert(_ id: EntryID, hash: UInt64) {
            if first[hash] == nil {
                first[hash] = id
            } else {
                more[hash, default: []].append(id)
            }
        }

        mutating func remove(_ id: EntryID, of entry: Entry) {
            var path = entry.path
            let hash = path.withUTF8(Self.slugHash)
            if first[hash] == id {
                first[hash] = more[hash]?.popLast()
            } else {
                more[hash]?.removeAll { $0 == id }
            }
            if more[hash]?.isEmpty == true { more[hash] = nil }
        }

        /// `StableHasher.hash` of the slug of the file at `path` (`SourceFile.slug(of:)`),
        /// hashed from the path's bytes: making each path's slug a string had cost 1,300
        /// instructions a fruit.
        private static func slugHash(_ path: UnsafeBufferPointer<UInt8>) -> UInt64 {
            let slug = UnsafeBufferPointer(rebasing: path[SourceFile.slugRange(in: path)])
            var hasher = StableHasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(slug))
            return hasher.value
        }
    }

    /// The slug index this model keeps, or one made now of the entries with the slugs
    /// `wanted`, the only ones it is then asked for.
    func slugs(for wanted: some Sequence<Substring>) -> SlugIndex {
        slugIndex ?? SlugIndex(self, only: Set(wanted))
    }
}
