extension SiteModel {
    /// How the catalog order changes when some fruits leave it and others arrive: what
    /// `replace` needs to move the order, the groups and the search postings with them.
    struct Reordering {
        /// The ids of the listed fruits, in their new catalog order.
        var order: [EntryID]
        /// For each old catalog position, the new one, or -1 for a fruit that left: as
        /// `rawValue`s, the numbers the search postings move by (`GramPostings.move`).
        var moved: [Int]
        /// Each arriving fruit's id and new position, in catalog order.
        var placed: [(id: EntryID, position: CatalogPosition)]
    }

    /// Whether `entry`, stored over the entry `id`, keeps its place in the catalog, its
    /// category and its facets' values: then neither the order nor the groups change.
    func staysInPlace(_ id: EntryID, _ entry: Entry) -> Bool {
        let (before, after) = (self[id].fruit, entry.fruit)
        guard isListed(before) == isListed(after) else { return false }
        return !isListed(before)
            || (before.name.utf8.elementsEqual(after.name.utf8) && before.slug == after.slug
                && before.category == after.category && before.facets == after.facets)
    }

    /// The catalog position of the listed fruit `id`, by binary search.
    func position(of id: EntryID) -> CatalogPosition? {
        let collation = collation
        let key = CatalogKey(self[id].fruit, in: collation)
        var low = order.indices.partitioningIndex(where: {
            !(CatalogKey(self[order[$0]].fruit, in: collation) < key)
        })
        // Equal keys (a duplicate slug, which fails the build) sit side by side.
        while low < order.count, order[low] != id,
            !(key < CatalogKey(self[order[low]].fruit, in: collation))
        {
            low += 1
        }
        return low < order.count && order[low] == id ? CatalogPosition(low) : nil
    }

    /// The catalog without the fruits at the `leaving` positions and with the `arriving`
    /// ones merged in: only these are placed, each by binary search among the fruits that
    /// stay, whose keys are as they were.
    func reordering(leaving: [CatalogPosition], arriving: [EntryID]) -> Reordering {
        // The fruits that stay, in order.
        var isLeaving = [Bool](repeating: false, count: order.count)
        for position in leaving { isLeaving[position.rawValue] = true }
        var kept: [EntryID] = []
        kept.reserveCapacity(order.count - leaving.count)
        var keptIndex = [Int](repeating: -1, count: order.count)
        for position in order.indices where !isLeaving[position] {
            keptIndex[position] = kept.count
            kept.append(order[position])
        }
        // The arrivals merged in.
        let collation = collation
        let sorted = CatalogKey.order(of: arriving.map { self[$0].fruit }, by: collation).map {
            arriving[$0]
        }
        var placedKept = [Int](repeating: -1, count: kept.count)
        var placed: [(id: EntryID, position: CatalogPosition)] = []
        var result: [EntryID] = []
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
            // Once every kept fruit is placed (always, in a clean build), the rest follow.
            if next < kept.count {
                let key = CatalogKey(self[id].fruit, in: collation)
                copy(
                    upTo: kept[next...].partitioningIndex(where: {
                        !(CatalogKey(self[$0].fruit, in: collation) < key)
                    }))
            }
            placed.append((id, CatalogPosition(result.count)))
            result.append(id)
        }
        copy(upTo: kept.count)
        let moved = order.indices.map { keptIndex[$0] >= 0 ? placedKept[keptIndex[$0]] : -1 }
        return Reordering(order: result, moved: moved, placed: placed)
    }

    /// Moves the search postings as `reordering` moves the fruits, once the entries are
    /// stored.
    /// - Parameters:
    ///   - leaving: The old positions of the fruits that left or moved.
    ///   - names: The `nameHash` of each fruit at the `leaving` positions.
    mutating func moveSearchPostings(
        _ reordering: Reordering, leaving: [CatalogPosition], names: [UInt64]
    ) {
        let (moved, placed) = (reordering.moved, reordering.placed)
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
                let arriving = placed.map { ($0.position.rawValue, self[$0.id].fruit.nameKey) }
                searchGrams!.postings!.move(moved, arriving: arriving)
            } else {
                searchGrams!.postings = nil
            }
        }
    }

    /// Moves the positions of each of `groups` as the fruits at them moved (`moved`), and
    /// drops those of fruits that left.
    static func move(_ groups: inout [FruitGroup], by moved: [Int]) {
        for index in groups.indices {
            groups[index].positions = groups[index].positions.compactMap {
                moved[$0.rawValue] >= 0 ? CatalogPosition(moved[$0.rawValue]) : nil
            }
        }
    }
}
