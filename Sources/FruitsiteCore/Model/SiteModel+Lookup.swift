extension SiteModel {
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
