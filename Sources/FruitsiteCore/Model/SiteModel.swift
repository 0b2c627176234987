/// The site in memory: every content file's entry, the listed fruits in catalog order, their
/// categories, and for every output file the hashes of what it was made from and of its
/// bytes.
///
/// A clean build applies every file to an empty model; a later build loads the model the
/// last one saved (`ModelStore`) and applies what changed since. `apply(_:)` is the one
/// operation that takes the model from one state to the next.
struct SiteModel: Sendable {
    /// One content file that parsed without errors, drafts included.
    struct Entry: Sendable {
        /// The path as listed, such as `Content/citrus/lemon.md`.
        let path: String
        /// The hash of `path`, which the sitemap's inputs and the output folder's id take
        /// for every fruit: hashing each path's string there again was 5.0M of a build's
        /// 72.8M instructions at 10,000 fruits when nothing changed.
        let pathHash: UInt64
        /// Nil when the file system cannot tell, which makes every build read the file.
        var status: FileStatus?
        /// When the file was seen with `status`, in nanoseconds since 1970.
        var verifiedAt: Int64
        /// The hash of the file's bytes: stands for everything in it, details included.
        var sourceHash: UInt64
        /// `fruit.summaryHash`, kept so that no build hashes unchanged summaries again.
        var summaryHash: UInt64
        /// The hash of `fruit.nameKey`, which the sharded index's grams are made of: a
        /// rebuild learns whether they changed without reading every name.
        var nameHash: UInt64
        /// `fruit.date`, kept so that the sitemap and the feeds, which look at every fruit's
        /// date, decode no fruit.
        var date: EntryDate?
        /// Whether every build reads the entry's facts again: to repeat the parser's warnings,
        /// or to check the body's `fruit:` and `category:` links against the catalog.
        var isRechecked: Bool
        /// The fruit's page as last written; nil while the fruit has no page.
        var page: OutputRecord?
        /// The fruit and what the parser said of it.
        var facts: EntryFacts
        /// The entry as the saved model holds it, while it has not changed since: saving
        /// copies these bytes instead of encoding the entry again.
        fileprivate(set) var saved: ByteSlice?

        /// Creates the entry of a file just parsed.
        init(
            path: String, status: FileStatus?, verifiedAt: Int64, sourceHash: UInt64,
            facts: EntryFacts.Value
        ) {
            self.init(
                path: path, status: status, verifiedAt: verifiedAt, sourceHash: sourceHash,
                summaryHash: facts.fruit.summaryHash,
                nameHash: StableHasher.hash(facts.fruit.nameKey), date: facts.fruit.date,
                isRechecked: !facts.warnings.isEmpty || !facts.siteLinks.isEmpty,
                page: nil, facts: EntryFacts(facts))
        }

        /// Creates an entry from its parts, as the saved model holds them.
        init(
            path: String, status: FileStatus?, verifiedAt: Int64, sourceHash: UInt64,
            summaryHash: UInt64, nameHash: UInt64, date: EntryDate?, isRechecked: Bool,
            page: OutputRecord?, facts: EntryFacts, saved: ByteSlice? = nil
        ) {
            self.path = path
            var hasher = StableHasher()
            hasher.combine(path)
            pathHash = hasher.value
            self.status = status
            self.verifiedAt = verifiedAt
            self.sourceHash = sourceHash
            self.summaryHash = summaryHash
            self.nameHash = nameHash
            self.date = date
            self.isRechecked = isRechecked
            self.page = page
            self.facts = facts
            self.saved = saved
        }

        var fruit: Fruit { facts.fruit }

        /// What a listing shows of the fruit (`EntryFacts.listed`).
        var listed: ListedFruit { facts.listed }

        /// The fruit's slug, from the file's name: no need to decode the facts.
        var slug: Substring { SourceFile.slug(of: path) }

        var warnings: [Diagnostic] { isRechecked ? facts.value.warnings : [] }

        var siteLinks: [SiteLink] { isRechecked ? facts.value.siteLinks : [] }

        var categoryLocation: SourceLocation {
            let facts = facts.value
            return SourceLocation(
                path: path, line: facts.categoryLine, column: facts.categoryColumn)
        }
    }

    /// What one output file was made from and what it holds.
    struct OutputRecord: Sendable, Equatable {
        /// The hash of everything the file shows (`PageData.inputHash(of:)`).
        var inputHash: UInt64
        /// The hash of the file's bytes.
        var outputHash: UInt64
    }

    /// A folder listed for content files, and its status then: while no folder's status
    /// changes, no file came or went.
    struct Folder: Sendable, Equatable {
        var path: String
        var status: FileStatus
    }

    /// What the model was built for; another content folder, drafts setting or list of facets
    /// (which entries are parsed for) starts afresh, and so do other size limits, which the
    /// entries and pages the model took as they were have not been held to.
    struct Settings: Sendable, Equatable {
        var contentDirectory: String
        var includesDrafts: Bool
        var facets: [String]
        /// `maxEntrySize` and `maxPageSize`.
        var maximumEntrySize = SiteConfig.defaultMaximumEntrySize
        var maximumPageSize = SiteConfig.defaultMaximumPageSize
    }

    var settings: Settings
    /// Entries by id; a removed entry leaves a hole until the model is saved.
    private(set) var entries = EntryTable()
    /// How many entries there are.
    private(set) var count = 0
    /// The ids of the listed fruits (drafts only when included), in catalog order.
    private(set) var order: [Int] = []
    /// The categories of the listed fruits, with their positions in `order`.
    private(set) var categories: [Category] = []
    /// For each of `settings.facets`, its values that listed fruits have, each with the
    /// positions of those fruits, sorted like categories.
    private(set) var facets: [[Category]]
    /// Every output file but the fruits' pages (which their entries hold), by path.
    var outputs: [String: OutputRecord] = [:]
    /// The sharded search index's gram files as last written; nil when the index is single.
    var searchGrams: SearchShards.Grams?
    /// The folders as last listed, when that listing met no problem.
    var folders: [Folder]?
    /// When the folders were listed, in nanoseconds since 1970.
    var listedAt: Int64 = 0
    /// The saved model file the entries' `saved` bytes come from, which a build that changed
    /// little saves its changes against: that file's checksum and how many entries it holds
    /// (ids `0..<count`). Nil for a model made from nothing.
    var base: (checksum: UInt64, count: Int)?
    /// Whether the last listing, in this process, met no symbolic link: a watcher's list of
    /// changed paths is then all a scan needs to look at. Not saved: a loaded model does not
    /// know, and is listed again before it is trusted with that.
    var isLinkFree = false

    /// An empty model: what a clean build starts from.
    init(settings: Settings) {
        self.settings = settings
        facets = Array(repeating: [], count: settings.facets.count)
    }

    /// A model as saved.
    init(
        settings: Settings, entries: EntryTable, order: [Int], categories: [Category],
        facets: [[Category]], outputs: [String: OutputRecord], searchGrams: SearchShards.Grams?,
        folders: [Folder]?, listedAt: Int64, base: (checksum: UInt64, count: Int)?
    ) {
        self.settings = settings
        self.entries = entries
        count = entries.indices.count { entries[$0] != nil }
        self.base = base
        self.order = order
        self.categories = categories
        self.facets = facets
        self.outputs = outputs
        self.searchGrams = searchGrams
        self.folders = folders
        self.listedAt = listedAt
    }

    // MARK: - Reading

    /// The entry with `id`, which must exist; borrowed, as copying an entry costs a dozen
    /// reference counts.
    subscript(id: Int) -> Entry {
        _read { yield entries[id]! }
    }

    /// The entry of the fruit at a catalog position.
    subscript(position position: Int) -> Entry {
        _read { yield entries[order[position]]! }
    }

    /// The catalog position of each id, or -1 for an entry that is not listed: with it, a pass
    /// over every listed fruit can go in id order, the order entries lie in memory. In
    /// catalog order, such a pass at 100,000 fruits missed the cache on nearly every entry.
    var positions: [Int32] {
        var positions = [Int32](repeating: -1, count: entries.count)
        for (position, id) in order.enumerated() { positions[id] = Int32(position) }
        return positions
    }

    /// `value` of each listed fruit's entry, by catalog position, read in id order.
    /// - Parameter positions: `positions`, made once for every pass of a build.
    func byPosition<Value>(
        filling empty: Value, positions: [Int32], _ value: (Entry) -> Value
    ) -> [Value] {
        var values = [Value](repeating: empty, count: order.count)
        for id in entries.indices where positions[id] >= 0 {
            values[Int(positions[id])] = value(self[id])
        }
        return values
    }

    /// The ids of every entry, in ascending order.
    var ids: [Int] {
        var ids: [Int] = []
        ids.reserveCapacity(count)
        for id in entries.indices where entries[id] != nil { ids.append(id) }
        return ids
    }

    /// The listed fruits in catalog order, as the search filters them.
    var catalog: Catalog {
        Catalog(sorted: order.concurrentMap { self[$0].fruit }, categories: categories)
    }

    /// Whether the fruit is in the catalog: drafts are only when included.
    func isListed(_ fruit: Fruit) -> Bool {
        settings.includesDrafts || !fruit.isDraft
    }

    func isListed(_ id: Int) -> Bool { isListed(self[id].fruit) }

    // MARK: - Changing

    /// Records that the file of `id` was seen again with the same bytes.
    mutating func verify(_ id: Int, status: FileStatus?, at time: Int64) {
        entries[id]!.status = status
        entries[id]!.verifiedAt = time
        entries[id]!.saved = nil
    }

    /// Sets the record of the fruit page of `id`.
    mutating func setPage(of id: Int, _ record: OutputRecord?) {
        entries[id]!.page = record
        entries[id]!.saved = nil
    }

    /// Removes the entries `removed`, stores each of `stored` (over the entry with its id,
    /// or as a new one), and keeps the catalog order and the categories: only fruits that
    /// come, go or move are placed, each by binary search. Returns the entries removed or
    /// replaced, the id of each stored one, and the ids of the fruits newly listed (new
    /// files, and drafts published): only these can bring a slug the catalog already has.
    mutating func replace(
        removing removed: [Int], storing stored: some Collection<(id: Int?, entry: Entry)>
    ) -> (old: [Entry], ids: [Int], listed: [Int]) {
        // Where the leaving fruits are, found while every fruit still has its old key.
        var leaving: [Int] = []
        for id in removed where isListed(id) { leaving.append(position(of: id)!) }
        for case (let id?, let entry) in stored where isListed(id) && !staysInPlace(id, entry) {
            leaving.append(position(of: id)!)
        }
        let leavingNames = leaving.map { self[position: $0].nameHash }
        var old: [Entry] = []
        var arriving: [Int] = []
        var newlyListed: [Int] = []
        var ids: [Int] = []
        for id in removed {
            old.append(entries[id]!)
            entries[id] = nil
            count -= 1
        }
        for (id, entry) in stored {
            if let id {
                let (stays, wasListed) = (staysInPlace(id, entry), isListed(id))
                old.append(entries[id]!)
                entries[id] = entry
                if !stays && isListed(id) { arriving.append(id) }
                if !wasListed && isListed(id) { newlyListed.append(id) }
                ids.append(id)
            } else {
                entries.append(entry)
                count += 1
                if isListed(entry.fruit) {
                    arriving.append(entries.count - 1)
                    newlyListed.append(entries.count - 1)
                }
                ids.append(entries.count - 1)
            }
        }
        if !leaving.isEmpty || !arriving.isEmpty {
            reorder(leaving: leaving, names: leavingNames, arriving: arriving)
        }
        return (old, ids, newlyListed)
    }

    /// Whether `entry`, stored over the entry `id`, keeps its place in the catalog, its
    /// category and its facets' values: then neither the order nor the groups change.
    private func staysInPlace(_ id: Int, _ entry: Entry) -> Bool {
        let (before, after) = (self[id].fruit, entry.fruit)
        guard isListed(before) == isListed(after) else { return false }
        return !isListed(before)
            || (before.nameKey == after.nameKey && before.slug == after.slug
                && before.category == after.category && before.facets == after.facets)
    }

    /// The catalog position of the listed fruit `id`, by binary search.
    private func position(of id: Int) -> Int? {
        let fruit = self[id].fruit
        var low = order.indices.partitioningIndex(where: {
            !Catalog.precedes(self[position: $0].fruit, fruit)
        })
        // Equal keys (a duplicate slug, which fails the build) sit side by side.
        while low < order.count, order[low] != id,
            !Catalog.precedes(fruit, self[position: low].fruit)
        {
            low += 1
        }
        return low < order.count && order[low] == id ? low : nil
    }

    /// Takes the fruits at the `leaving` positions out of the catalog and merges the
    /// `arriving` ones in, then moves the positions of every category, facet value and
    /// search gram to match.
    /// - Parameter names: The `nameHash` of each fruit at the `leaving` positions.
    private mutating func reorder(leaving: [Int], names: [UInt64], arriving: [Int]) {
        // The fruits that stay, in order: their keys are as they were.
        var isLeaving = [Bool](repeating: false, count: order.count)
        for position in leaving { isLeaving[position] = true }
        var kept: [Int] = []
        kept.reserveCapacity(order.count - leaving.count)
        var keptIndex = [Int](repeating: -1, count: order.count)
        for position in order.indices where !isLeaving[position] {
            keptIndex[position] = kept.count
            kept.append(order[position])
        }
        // The arrivals merged in, each placed by binary search among the fruits that stay.
        let sorted = Catalog.order(of: arriving.map { self[$0].fruit }).map { arriving[$0] }
        var placedKept = [Int](repeating: -1, count: kept.count)
        var placed: [(id: Int, position: Int)] = []
        var result: [Int] = []
        result.reserveCapacity(kept.count + arriving.count)
        var next = 0
        func copy(upTo end: Int) {
            while next < end {
                placedKept[next] = result.count
                result.append(kept[next])
                next += 1
            }
        }
        for id in sorted {
            let fruit = self[id].fruit
            copy(
                upTo: kept[next...].partitioningIndex(where: {
                    !Catalog.precedes(self[$0].fruit, fruit)
                }))
            placed.append((id, result.count))
            result.append(id)
        }
        copy(upTo: kept.count)
        let moved = order.indices.map { keptIndex[$0] >= 0 ? placedKept[keptIndex[$0]] : -1 }
        order = result
        // A fruit that comes back to its place under its own name (its category or a facet's
        // value changed) leaves the names in catalog order, and so the postings, as they were.
        let namesStay =
            moved.indices.allSatisfy { moved[$0] < 0 || moved[$0] == $0 }
            && zip(leaving, names).sorted { $0.0 < $1.0 }.elementsEqual(
                placed.map { ($0.position, self[$0.id].nameHash) }.sorted { $0.0 < $1.0 },
                by: ==)
        if !namesStay, let postings = searchGrams?.postings {
            // Postings that name a position the catalog did not have can come only from a
            // damaged model: the names are then read again, and `--verbose` says so.
            if postings.lie(below: moved.count) {
                let arriving = placed.map { ($0.position, self[$0.id].fruit.nameKey) }
                searchGrams!.postings!.move(moved, arriving: arriving)
            } else {
                searchGrams!.postings = nil
            }
        }

        func move(_ groups: inout [Category]) {
            for index in groups.indices {
                groups[index].fruitIndexes = groups[index].fruitIndexes.compactMap {
                    moved[$0] >= 0 ? moved[$0] : nil
                }
            }
        }
        move(&categories)
        for facet in facets.indices { move(&facets[facet]) }
        for (id, position) in placed {
            let fruit = self[id].fruit
            Catalog.add(position, to: fruit.category, key: fruit.categoryKey, in: &categories)
            for (facet, key) in settings.facets.enumerated() {
                for value in fruit.values(ofFacet: key) {
                    Catalog.add(position, to: value, key: Fold.key(value), in: &facets[facet])
                }
            }
        }
        categories.removeAll { $0.fruitIndexes.isEmpty }
        for facet in facets.indices { facets[facet].removeAll { $0.fruitIndexes.isEmpty } }
    }

    /// Every id in the order the model file holds entries (`ModelCodec`): by path.
    ///
    /// The saved model's entries (`base`) have their ids in that order already, and new
    /// entries come after them: only the ids after the longest run in order are sorted, and
    /// each is put in its place by binary search. Checking all 100,000 paths' order, and
    /// sorting them all after one was added, took 89M instructions of a build that listed
    /// the folders again.
    var savingOrder: [Int] {
        let ids = ids
        func precedes(_ left: Int, _ right: Int) -> Bool {
            UTF8Order.precedes(self[left].path, self[right].path)
        }
        // Ids below the base's count are the saved file's, in its order.
        var inOrder = ids.partitioningIndex(where: { $0 >= (base?.count ?? 0) })
        assert(ids[..<inOrder].indices.dropFirst().allSatisfy { precedes(ids[$0 - 1], ids[$0]) })
        if inOrder == 0, !ids.isEmpty { inOrder = 1 }
        while inOrder < ids.count, precedes(ids[inOrder - 1], ids[inOrder]) { inOrder += 1 }
        guard inOrder < ids.count else { return ids }
        return Array(ids[..<inOrder]).merging(ids[inOrder...].sorted(by: precedes), by: precedes)
    }
}

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
        init(count: Int, _ make: @Sendable (Int) -> Entry?) {
            let size = 1 << Self.chunkBits
            chunks = Array(stride(from: 0, to: count, by: size)).concurrentMap { start in
                (start..<min(start + size, count)).map(make)
            }
            self.count = count
        }

        /// Whether every id has an entry.
        var isFull: Bool { chunks.allSatisfy { !$0.contains { $0 == nil } } }

        var indices: Range<Int> { 0..<count }

        subscript(id: Int) -> Entry? {
            _read { yield chunks[id >> Self.chunkBits][id & Self.chunkMask] }
            _modify { yield &chunks[id >> Self.chunkBits][id & Self.chunkMask] }
        }

        /// Adds an entry, or a hole, with the next id.
        mutating func append(_ entry: Entry?) {
            if count & Self.chunkMask == 0 { chunks.append([]) }
            chunks[chunks.count - 1].append(entry)
            count += 1
        }
    }
}

extension SiteModel {
    /// A hash of every output file's record, which the output folder's marker records: a
    /// folder and a saved model belong together only when the two agree. Equal sites have
    /// equal ids, so a rebuild writes the marker a clean build would.
    var outputID: UInt64 {
        // Records are hashed one by one and added up, which needs no sorting, and lets every
        // core add up a share of the fruit pages.
        @Sendable func hash(_ kind: String, _ name: UInt64, _ record: OutputRecord) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(kind)
            hasher.combine(name)
            hasher.combine(record.inputHash)
            hasher.combine(record.outputHash)
            return hasher.value
        }
        let shares = entries.indices.concurrentShares { [entries] share in
            var (sum, count): (UInt64, UInt64) = (0, 0)
            for id in share {
                // Borrowed, not bound: a copy of an entry costs a dozen reference counts.
                guard let page = entries[id]?.page else { continue }
                sum &+= hash("fruit", entries[id]!.pathHash, page)
                count += 1
            }
            return (sum, count)
        }
        var (sum, count) = shares.reduce((UInt64(0), UInt64(0))) { ($0.0 &+ $1.0, $0.1 + $1.1) }
        for (path, record) in outputs {
            var name = StableHasher()
            name.combine(path)
            sum &+= hash("file", name.value, record)
            count += 1
        }
        var hasher = StableHasher()
        hasher.combine(count)
        hasher.combine(sum)
        return hasher.value
    }
}
