extension SiteModel {
    /// The entry with `id`, which must exist; borrowed, as copying an entry costs a dozen
    /// reference counts.
    subscript(id: EntryID) -> Entry {
        _read { yield entries[id]! }
    }

    /// The entry of the fruit at a catalog position.
    subscript(position position: CatalogPosition) -> Entry {
        _read { yield entries[order[position.rawValue]]! }
    }

    /// Every catalog position, in order: one for each listed fruit.
    var catalogPositions: Range<CatalogPosition> {
        CatalogPosition(0)..<CatalogPosition(order.count)
    }

    /// The id of the entry of the fruit at a catalog position.
    func id(at position: CatalogPosition) -> EntryID { order[position.rawValue] }

    /// The catalog position of each entry, by id: with it, a pass over every listed fruit can
    /// go in id order, the order entries lie in memory. In catalog order, such a pass at
    /// 100,000 fruits missed the cache on nearly every entry.
    struct Positions: Sendable {
        /// By id, the position, or -1 for an entry that is not listed.
        private let byID: [Int32]

        init(of order: [EntryID], idCount: Int) {
            var byID = [Int32](repeating: -1, count: idCount)
            for (position, id) in order.enumerated() { byID[id.rawValue] = Int32(position) }
            self.byID = byID
        }

        /// The catalog position of the entry `id`, or nil when it is not listed.
        subscript(id: EntryID) -> CatalogPosition? {
            let position = byID[id.rawValue]
            return position >= 0 ? CatalogPosition(Int(position)) : nil
        }
    }

    /// The catalog position of each entry; made once for every pass of a build.
    var positions: Positions { Positions(of: order, idCount: entries.count) }

    /// `value` of each listed fruit's entry, by catalog position (`rawValue`), read in id
    /// order.
    /// - Parameter positions: `positions`, made once for every pass of a build.
    func byPosition<Value>(
        filling empty: Value, positions: Positions, _ value: (Entry) -> Value
    ) -> [Value] {
        var values = [Value](repeating: empty, count: order.count)
        for id in entries.ids {
            if let position = positions[id] { values[position.rawValue] = value(self[id]) }
        }
        return values
    }

    /// The ids of every entry, in ascending order.
    var ids: [EntryID] {
        var ids: [EntryID] = []
        ids.reserveCapacity(count)
        for id in entries.ids where entries[id] != nil { ids.append(id) }
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

    func isListed(_ id: EntryID) -> Bool { isListed(self[id].fruit) }

    /// Every id in the order the model file holds entries (`ModelCodec`): by path.
    ///
    /// The saved model's entries (`base`) have their ids in that order already, and new
    /// entries come after them: only the ids after the longest run in order are sorted, and
    /// each is put in its place by binary search. Checking all 100,000 paths' order, and
    /// sorting them all after one was added, took 89M instructions of a build that listed
    /// the folders again.
    var savingOrder: [EntryID] {
        let ids = ids
        func precedes(_ left: EntryID, _ right: EntryID) -> Bool {
            UTF8Order.precedes(self[left].path, self[right].path)
        }
        // Ids below the base's count are the saved file's, in its order.
        var inOrder = ids.partitioningIndex(where: { $0.rawValue >= (base?.count ?? 0) })
        assert(ids[..<inOrder].indices.dropFirst().allSatisfy { precedes(ids[$0 - 1], ids[$0]) })
        if inOrder == 0, !ids.isEmpty { inOrder = 1 }
        while inOrder < ids.count, precedes(ids[inOrder - 1], ids[inOrder]) { inOrder += 1 }
        guard inOrder < ids.count else { return ids }
        return Array(ids[..<inOrder]).merging(ids[inOrder...].sorted(by: precedes), by: precedes)
    }
}
