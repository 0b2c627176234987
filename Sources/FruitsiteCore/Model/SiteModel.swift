/// The site in memory: every content file's entry, the listed fruits in catalog order, their
/// categories, and for every output file the hashes of what it was made from and of its
/// bytes.
///
/// A clean build applies every file to an empty model; a later build loads the model the
/// last one saved (`ModelStore`) and applies what changed since. `apply(_:)` is the one
/// operation that takes the model from one state to the next.
struct SiteModel: Sendable {
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
        /// How pictures are published, which each search record's thumbnail follows.
        var pictures = PictureSettings()
        /// The config's `rawHTML`, which decides whether an SVG picture may hold script.
        var allowsRawHTML = false
        /// The config's `language`, whose collation orders the catalog and its groups.
        var language = SiteConfig.defaultLanguage
        /// The files the model takes and where its pages go, in a site of several languages.
        var scope = LanguageScope()
    }

    var settings: Settings
    /// Entries by id; a removed entry leaves a hole until the model is saved.
    private(set) var entries = EntryTable()
    /// How many entries there are.
    private(set) var count = 0
    /// The ids of the listed fruits (drafts only when included), in catalog order.
    private(set) var order: [EntryID] = []
    /// The categories of the listed fruits, with their positions in `order`.
    private(set) var categories: [FruitGroup] = []
    /// For each of `settings.facets`, its values that listed fruits have, each with the
    /// positions of those fruits, sorted like categories.
    private(set) var facets: [[FruitGroup]]
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
    /// Kept once `indexSlugs()` is called (`serve`): see `SlugIndex`.
    private(set) var slugIndex: SlugIndex?

    /// The order of the catalog and its groups: the collation of `settings.language`.
    var collation: Collation { Collation.of(settings.language) }

    /// An empty model: what a clean build starts from.
    init(settings: Settings) {
        self.settings = settings
        facets = Array(repeating: [], count: settings.facets.count)
    }

    /// A model as saved.
    init(
        settings: Settings, entries: EntryTable, order: [EntryID], categories: [FruitGroup],
        facets: [[FruitGroup]], outputs: [String: OutputRecord], searchGrams: SearchShards.Grams?,
        folders: [Folder]?, listedAt: Int64, base: (checksum: UInt64, count: Int)?
    ) {
        self.settings = settings
        self.entries = entries
        count = entries.ids.count { entries[$0] != nil }
        self.base = base
        self.order = order
        self.categories = categories
        self.facets = facets
        self.outputs = outputs
        self.searchGrams = searchGrams
        self.folders = folders
        self.listedAt = listedAt
    }

    // MARK: - Changing

    // Only this file writes the entries, the catalog order, the groups and the slug index:
    // `replace` keeps the four in agreement.

    /// Makes the model keep a slug index from now on, kept by `replace` as entries change.
    mutating func indexSlugs() {
        if slugIndex == nil { slugIndex = SlugIndex(self) }
    }

    /// Records that the file of `id` was seen again with the same bytes.
    mutating func verify(_ id: EntryID, status: FileStatus?, at time: Int64) {
        entries[id]!.verify(status: status, at: time)
    }

    /// Sets the record of the fruit page of `id`.
    mutating func setPage(of id: EntryID, _ record: OutputRecord?) {
        entries[id]!.setPage(record)
    }

    /// Removes the entries `removed`, stores each of `stored` (over the entry with its id,
    /// or as a new one), and keeps the catalog order and the categories: only fruits that
    /// come, go or move are placed, each by binary search. Returns the entries removed or
    /// replaced, the id of each stored one, and the ids of the fruits newly listed (new
    /// files, and drafts published): only these can bring a slug the catalog already has.
    mutating func replace(
        removing removed: [EntryID], storing stored: some Collection<(id: EntryID?, entry: Entry)>
    ) -> (old: [Entry], ids: [EntryID], listed: [EntryID]) {
        // Where the leaving fruits are, found while every fruit still has its old key.
        var leaving: [CatalogPosition] = []
        for id in removed where isListed(id) { leaving.append(position(of: id)!) }
        for case (let id?, let entry) in stored where isListed(id) && !staysInPlace(id, entry) {
            leaving.append(position(of: id)!)
        }
        let leavingNames = leaving.map { self[position: $0].nameHash }
        var old: [Entry] = []
        var arriving: [EntryID] = []
        var newlyListed: [EntryID] = []
        var ids: [EntryID] = []
        for id in removed {
            old.append(entries[id]!)
            slugIndex?.remove(id, of: entries[id]!)
            entries[id] = nil
            count -= 1
        }
        for (id, entry) in stored {
            if let id {
                let (stays, wasListed) = (staysInPlace(id, entry), isListed(id))
                old.append(entries[id]!)
                if entries[id]!.path != entry.path {
                    slugIndex?.remove(id, of: entries[id]!)
                    slugIndex?.insert(id, of: entry)
                }
                entries[id] = entry
                if !stays && isListed(id) { arriving.append(id) }
                if !wasListed && isListed(id) { newlyListed.append(id) }
                ids.append(id)
            } else {
                let id = entries.append(entry)
                slugIndex?.insert(id, of: entry)
                count += 1
                if isListed(entry.fruit) {
                    arriving.append(id)
                    newlyListed.append(id)
                }
                ids.append(id)
            }
        }
        if !leaving.isEmpty || !arriving.isEmpty {
            let reordering = reordering(leaving: leaving, arriving: arriving)
            order = reordering.order
            moveSearchPostings(reordering, leaving: leaving, names: leavingNames)
            regroup(reordering)
        }
        return (old, ids, newlyListed)
    }

    /// Moves the positions of every category and facet value as `reordering` moves the
    /// fruits, adds each fruit placed to its groups, and drops the groups left empty.
    private mutating func regroup(_ reordering: Reordering) {
        Self.move(&categories, by: reordering.moved)
        for facet in facets.indices { Self.move(&facets[facet], by: reordering.moved) }
        var keys = GroupKeys(collation)
        for (id, position) in reordering.placed {
            let fruit = self[id].fruit
            Catalog.add(position, to: fruit.category, key: keys[fruit.category], in: &categories)
            for (facet, key) in settings.facets.enumerated() {
                for value in fruit.values(ofFacet: key) {
                    Catalog.add(position, to: value, key: keys[value], in: &facets[facet])
                }
            }
        }
        categories.removeAll { $0.positions.isEmpty }
        for facet in facets.indices { facets[facet].removeAll { $0.positions.isEmpty } }
    }
}
