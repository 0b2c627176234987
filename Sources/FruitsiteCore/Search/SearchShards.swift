/// Builds the sharded search index (format 5): a small manifest, and files a browser fetches
/// only when a query needs them, so that the first result of a search at a million fruits
/// costs kilobytes rather than the whole catalog. docs/reference/search-index.md has the
/// layout; `Templates/assets/search-index.js` reads it.
///
/// Matching stays fold-v1 exactly: every gram of one, two and three code points of each
/// folded name has the list of the fruits whose name contains it, and three-code-point grams
/// say where in the name, so that a longer text is found by trigrams at fixed distances
/// rather than by reading names. A pure function of its input: same catalog, same bytes.
struct SearchShards: Sendable {
    /// The folder below the output folder that holds every file; the manifest is its
    /// `index.json`.
    static let folder = "search/"
    static let manifestPath = folder + "index.json"

    /// Records a file holds: a screen of results seldom spans more than two files.
    var recordsPerFile = 32
    /// A posting whose JSON is longer than this gets a file of its own, so that the few very
    /// common grams (single letters, mostly) are never fetched beside others.
    var heavyBytes = 4_096
    /// About how much of the other postings a bucket file holds.
    var bucketBytes = 8_192

    /// The most stamps of records files the manifest holds (`recordsGroup(fileCount:)`).
    var recordsStamps = 512

    /// The format and the sizes above, which an index made before mixes into its hash.
    var layout: String { "5 \(recordsPerFile) \(heavyBytes) \(bucketBytes) \(recordsStamps)" }

    /// The bytes of the categories' files and of each facet's values' files, in the
    /// manifest's order: every file of the index but the manifest, the gram and the records
    /// files.
    func groupFiles(categories: [FruitGroup], facets: [(key: String, values: [FruitGroup])]) -> (
        categories: [[UInt8]], facets: [[[UInt8]]]
    ) {
        let file = { (group: FruitGroup) in
            Self.runList(group.positions.lazy.map(\.rawValue)) + [0x0A]
        }
        return (categories.map(file), facets.map { $0.values.map(file) })
    }

    /// The path of a category's file (`facet` nil) or a facet value's, whose bytes hash to
    /// `hash`: `fruits.<stamp>.json`, by the stamp the manifest gives, not by the group's
    /// number, which changes for every group after one that comes or goes while their bytes
    /// do not.
    static func groupPath(facet: Int?, hash: UInt64) -> String {
        let groups = facet.map { "facets/\($0)/" } ?? "categories/"
        return ContentName.path(folder + groups + "fruits.json", hash: hash)
    }

    /// The catalog positions whose records each records file holds, for `count` fruits: a
    /// file is made only when one of its fruits' summaries changed.
    func recordsFiles(count: Int) -> [Range<CatalogPosition>] {
        stride(from: 0, to: count, by: recordsPerFile).map {
            CatalogPosition($0)..<CatalogPosition(min($0 + recordsPerFile, count))
        }
    }

    /// How many records files share a stamp, for `fileCount` of them: one each up to
    /// `recordsStamps` files, then the fewest consecutive files (a power of two) that keep
    /// the stamps within it. A stamp is 8 bytes of the manifest a first visit loads, so one
    /// each at a million fruits (31,250 files) would be 250 KB; a group's stamp is the hash of
    /// its files' hashes, so a name still always means the same bytes, and an edit renames the
    /// files of its group.
    func recordsGroup(fileCount: Int) -> Int {
        var group = 1
        while (fileCount + group - 1) / group > recordsStamps { group *= 2 }
        return group
    }

    /// The path of the records file holding `positions`, one of `recordsFiles(count:)`,
    /// without its stamp.
    func recordsPath(of positions: Range<CatalogPosition>) -> String {
        Self.folder + "records/\(positions.lowerBound.rawValue / recordsPerFile).json"
    }

    /// A records file: the records of its fruits (`SearchIndexBuilder.record(of:)`), in
    /// catalog order.
    func recordsFile(_ records: some Sequence<ByteSlice>) -> [UInt8] {
        var json: [UInt8] = [UInt8(ascii: "[")]
        SearchIndexBuilder.append(records, to: &json)
        json += "]\n".utf8
        return json
    }

    /// The hashes of the files the manifest names, in the order of their numbers: a file's
    /// name is stamped with its hash (`ContentName`), and a records file's with its group's.
    struct FileHashes: Sendable {
        var buckets: [UInt64] = []
        var heavy: [UInt64] = []
        var categories: [UInt64] = []
        var facets: [[UInt64]] = []
        /// How many records files share a stamp (`recordsGroup(fileCount:)`), and the hash
        /// of each group.
        var recordsGroup = 1
        var records: [UInt64] = []
    }

    /// The manifest: the only file of the index whose name does not change with its bytes,
    /// read again by an open page to tell a new build (its `build`, the stamp of the rest).
    func manifest(
        count: Int, grams: Grams, categories: [FruitGroup],
        facets: [(key: String, values: [FruitGroup])], hashes: FileHashes
    ) -> [UInt8] {
        func stamps(_ hashes: [UInt64], into json: inout [UInt8]) {
            json.append(UInt8(ascii: "\""))
            for hash in hashes { json += ContentName.stamp(hash).utf8 }
            json.append(UInt8(ascii: "\""))
        }
        func groups(_ groups: [FruitGroup], into json: inout [UInt8]) {
            json.append(UInt8(ascii: "["))
            for (index, group) in groups.enumerated() {
                if index > 0 { json.append(UInt8(ascii: ",")) }
                json += #"{"name":"#.utf8
                JSONText.append(quoted: group.name, to: &json)
                json += #","count":\#(group.positions.count)}"#.utf8
            }
            json.append(UInt8(ascii: "]"))
        }
        var json: [UInt8] = []
        json += #""count":\#(count),"records":\#(recordsPerFile),"#.utf8
        json += #""recordsGroup":\#(hashes.recordsGroup),"recordsFiles":"#.utf8
        stamps(hashes.records, into: &json)
        json += #","buckets":"#.utf8
        stamps(hashes.buckets, into: &json)
        json += #","categories":"#.utf8
        groups(categories, into: &json)
        json += #","categoryFiles":"#.utf8
        stamps(hashes.categories, into: &json)
        json += #","facets":["#.utf8
        for (index, facet) in facets.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json += #"{"key":"#.utf8
            JSONText.append(quoted: facet.key, to: &json)
            json += #","values":"#.utf8
            groups(facet.values, into: &json)
            json += #","files":"#.utf8
            stamps(index < hashes.facets.count ? hashes.facets[index] : [], into: &json)
            json.append(UInt8(ascii: "}"))
        }
        json += #"],"heavy":{"#.utf8
        for (id, gram) in grams.heavy.enumerated() {
            if id > 0 { json.append(UInt8(ascii: ",")) }
            JSONText.append(quoted: gram, to: &json)
            json += ":\(id)".utf8
        }
        json += #"},"heavyFiles":"#.utf8
        stamps(hashes.heavy, into: &json)
        json += "}\n".utf8
        let build = ContentName.stamp(StableHasher.hash(json))
        return Array(#"{"version":5,"build":"\#(build)","#.utf8) + json
    }
}
