/// The search index's files: the sharded index's, or the single one, each named by its bytes
/// (`ContentName`) and made again only when what it shows changed.
extension SiteModel {
    /// The sharded search index's files whose bytes changed, each recorded as written, and
    /// the paths of all of them. They are made again only when what the index shows changed:
    /// the manifest's record holds the hash of that, as a page's holds its inputs'. The gram
    /// files only when the names did (`searchGrams`), from the postings the model moved with
    /// the fruits; the names are read only for a model that has none. Every file but the
    /// manifest is named by its bytes (`ContentName`), so a file whose bytes change is written
    /// under a new name, and the old one goes with the files the site no longer has.
    /// `remadeDamagedPostings` says when the saved postings could not be read, and the names
    /// were read instead.
    mutating func searchShards(of data: PageData) -> (
        changed: [RenderedPage], paths: [String], remadeDamagedPostings: Bool
    ) {
        let builder = SearchShards()
        let inputHash = data.inputHash(of: .searchShards)
        let written = outputs.keys.filter { $0.hasPrefix(SearchShards.folder) }
        if outputs[SearchShards.manifestPath]?.inputHash == inputHash {
            return ([], written, false)
        }
        // The files as last written, by their paths without stamps.
        var stamped: [String: String] = [:]
        for path in written { stamped[ContentName.unstamped(path)] = path }

        var changed: [RenderedPage] = []
        var paths: [String] = []
        var hashes = SearchShards.FileHashes()
        let source = builder.source(
            of: byPosition(filling: 0, positions: data.positions) { $0.nameHash })
        let gramHashes =
            searchGrams?.paths.map { stamped[$0].flatMap { outputs[$0]?.outputHash } } ?? []
        var remadeDamagedPostings = false
        if searchGrams?.source != source || gramHashes.contains(nil) {
            // Gram files always come with their postings, which only damage takes away.
            let saved = searchGrams?.postings
            remadeDamagedPostings = searchGrams != nil && saved == nil
            let postings =
                saved
                ?? {
                    // One buffer of every name rather than an array each.
                    var names: [UInt8] = []
                    var ends: [Int] = []
                    ends.reserveCapacity(order.count)
                    for id in order {
                        names += self[id].facts.nameKey
                        ends.append(names.count)
                    }
                    return builder.postings(of: names, endingAt: ends)
                }()
            let (grams, files) = builder.grams(of: postings, source: source)
            let all = publish(files, changed: &changed, paths: &paths)
            (hashes.buckets, hashes.heavy) = (
                Array(all.prefix(grams.buckets)), Array(all.dropFirst(grams.buckets))
            )
            searchGrams = grams
        } else {
            let all = gramHashes.map { $0! }
            paths += zip(searchGrams!.paths, all).map { ContentName.path($0, hash: $1) }
            let buckets = searchGrams!.buckets
            (hashes.buckets, hashes.heavy) = (
                Array(all.prefix(buckets)), Array(all.dropFirst(buckets))
            )
        }
        let grams = searchGrams!
        let facets = zip(settings.facets, self.facets).map { (key: $0, values: $1) }
        let files = builder.groupFiles(categories: categories, facets: facets)
        hashes.categories = files.categories.map { bytes in
            publish(
                bytes, named: { SearchShards.groupPath(facet: nil, hash: $0) }, &changed, &paths)
        }
        hashes.facets = files.facets.enumerated().map { facet, values in
            values.map { bytes in
                publish(
                    bytes, named: { SearchShards.groupPath(facet: facet, hash: $0) }, &changed,
                    &paths)
            }
        }
        shardRecords(of: data, builder, lastWritten: stamped, into: &hashes, &changed, &paths)

        let manifest = builder.manifest(
            count: order.count, grams: grams, categories: categories, facets: facets,
            hashes: hashes)
        let record = OutputRecord(inputHash: inputHash, outputHash: StableHasher.hash(manifest))
        if outputs[SearchShards.manifestPath]?.outputHash != record.outputHash {
            changed.append(RenderedPage(path: SearchShards.manifestPath, bytes: manifest))
        }
        outputs[SearchShards.manifestPath] = record
        paths.append(SearchShards.manifestPath)
        return (changed, paths, remadeDamagedPostings)
    }

    /// Records the records files, and adds those to write to `changed`: a records file is
    /// made again only when what it shows changed (`SearchShardsFiles.Records`; an edit
    /// touches one of them, while making them all copied every record of the catalog), and
    /// written again when its group's stamp changed.
    private mutating func shardRecords(
        of data: PageData, _ builder: SearchShards, lastWritten stamped: [String: String],
        into hashes: inout SearchShards.FileHashes, _ changed: inout [RenderedPage],
        _ paths: inout [String]
    ) {
        let files = builder.recordsFiles(count: order.count)
        hashes.recordsGroup = builder.recordsGroup(fileCount: files.count)
        typealias File = (
            path: String, positions: Range<CatalogPosition>, record: OutputRecord, bytes: [UInt8]?
        )
        var group: [File] = []
        for (number, positions) in files.enumerated() {
            let page = Page.searchRecords(positions)
            let path = page.path(in: self)
            let inputHash = data.inputHash(of: page)
            if let last = stamped[path].flatMap({ outputs[$0] }), last.inputHash == inputHash {
                group.append((path, positions, last, nil))
            } else {
                let bytes = data.bytes(of: page)
                let record = OutputRecord(
                    inputHash: inputHash, outputHash: StableHasher.hash(bytes))
                group.append((path, positions, record, bytes))
            }
            guard group.count == hashes.recordsGroup || number == files.count - 1 else { continue }
            var groupHasher = StableHasher()
            for file in group { groupHasher.combine(file.record.outputHash) }
            hashes.records.append(groupHasher.value)
            for file in group {
                let published = ContentName.path(file.path, hash: groupHasher.value)
                // A name, once written, means the same bytes: only a new one is written.
                if outputs[published] == nil {
                    changed.append(
                        RenderedPage(
                            path: published,
                            bytes: file.bytes ?? data.bytes(of: .searchRecords(file.positions))))
                }
                outputs[published] = file.record
                paths.append(published)
            }
            group.removeAll(keepingCapacity: true)
        }
    }

    /// Records `files`, named by their bytes, adds those not written before to `changed` and
    /// every one's path to `paths`.
    /// - Returns: Each file's hash, in the order of `files`.
    private mutating func publish(
        _ files: [RenderedPage], changed: inout [RenderedPage], paths: inout [String]
    ) -> [UInt64] {
        files.map { file in
            publish(file.bytes, named: { ContentName.path(file.path, hash: $0) }, &changed, &paths)
        }
    }

    /// Records a file of `bytes` at the path `named` gives for their hash, adds it to
    /// `changed` unless a file of that name was written before (a name, once written, means
    /// the same bytes), and its path to `paths`.
    /// - Returns: The hash of `bytes`.
    private mutating func publish(
        _ bytes: [UInt8], named: (UInt64) -> String, _ changed: inout [RenderedPage],
        _ paths: inout [String]
    ) -> UInt64 {
        let hash = StableHasher.hash(bytes)
        let path = named(hash)
        if outputs[path] == nil { changed.append(RenderedPage(path: path, bytes: bytes)) }
        outputs[path] = OutputRecord(inputHash: hash, outputHash: hash)
        paths.append(path)
        return hash
    }

    /// The single search index (`search-index.json`, named by its bytes), made again only when
    /// what it shows changed; nil when it did not.
    /// - Returns: The file, if it changed, and its path.
    mutating func singleSearchIndex(of data: PageData) -> (
        changed: RenderedPage?, path: String
    ) {
        let inputHash = data.inputHash(of: .searchIndex)
        let name = Page.searchIndex.path(in: self)
        let last = outputs.first { ContentName.unstamped($0.key) == name }
        if let last, last.value.inputHash == inputHash { return (nil, last.key) }
        let bytes = data.bytes(of: .searchIndex)
        let hash = StableHasher.hash(bytes)
        let path = ContentName.path(name, hash: hash)
        let isNew = outputs[path] == nil
        outputs[path] = OutputRecord(inputHash: inputHash, outputHash: hash)
        return (isNew ? RenderedPage(path: path, bytes: bytes) : nil, path)
    }
}
