/// `search-index.json`: the categories' names and every fruit's search record, in catalog
/// order (`SearchIndexBuilder`). Written named by its bytes, before the index's pages, which
/// name it (`SiteModel.singleSearchIndex`).
struct SearchIndexFile {
    func walk(_ data: PageData, into walk: inout some PageWalk) {
        walk.add(
            file: SearchIndexBuilder.version, data.groups(.categories, isSized: false),
            SearchRecords(data, data.model.catalogPositions)
        ) { _, categories, records in
            SearchIndexBuilder().build(
                categories: data.groups(of: categories.list).groups.map(\.name),
                records: records.records(in: data.model))
        }
    }
}

/// The sharded search index (`SearchShards`): what it shows as a whole, which its manifest's
/// record holds, and its records files.
struct SearchShardsFiles {
    /// The categories and facets, the fruits' names and records: when they change, the
    /// manifest and the files it names are made again (`SiteModel.searchShards`), each
    /// named by its bytes, and the manifest from their names.
    func walk(_ data: PageData, into walk: inout some PageWalk) {
        walk.add(
            assembledFrom: SearchShards().layout, data.groups(.categories, isSized: false),
            data.facetLists(isSized: false),
            SearchRecords(data, data.model.catalogPositions))
    }

    /// A records file: the records of the fruits at its catalog positions.
    struct Records {
        let positions: Range<CatalogPosition>

        func walk(_ data: PageData, into walk: inout some PageWalk) {
            let builder = SearchShards()
            walk.add(file: builder.layout, SearchRecords(data, positions)) { _, records in
                builder.recordsFile(records.records(in: data.model))
            }
        }
    }
}

/// The search records of the fruits at catalog positions: hashed as their summaries, which
/// cover every field a record shows (`Fruit.visitFields`).
struct SearchRecords: PageRead {
    let positions: Range<CatalogPosition>
    private let hash: UInt64

    init(_ data: PageData, _ positions: Range<CatalogPosition>) {
        self.positions = positions
        var hasher = StableHasher()
        for position in positions { hasher.combine(data.hashes[position.rawValue].summary) }
        hash = hasher.value
    }

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }

    /// The records, as the model keeps them (`EntryFacts.searchRecord(pictures:)`).
    func records(in model: SiteModel) -> some Collection<ByteSlice> {
        positions.lazy.map {
            model[position: $0].facts.searchRecord(pictures: model.settings.pictures)
        }
    }
}
