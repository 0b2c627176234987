import Foundation

/// Builds the sharded search index (format 4): a small manifest, and files a browser fetches
/// only when a query needs them, so that the first result of a search at a million fruits
/// costs kilobytes rather than the whole catalog. docs/reference/search-index.md has the
/// layout; `Templates/assets/search-index.js` reads it.
///
/// Matching stays fold-v1 exactly: every gram of one, two and three code points of each
/// folded name has the list of the fruits whose name contains it, and three-code-point grams
/// say where in the name, so that a longer text is found by trigrams at fixed distances
/// rather than by reading names. A pure function of its input: same catalog, same bytes.
struct SearchShards: Sendable {
    /// A category or a facet's value: its name and its fruits' positions, ascending.
    struct Group: Sendable {
        var name: String
        var positions: [Int]
    }

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
    var layout: String { "4 \(recordsPerFile) \(heavyBytes) \(bucketBytes) \(recordsStamps)" }

    /// The gram files as the manifest names them: how many buckets there are, and the grams
    /// with a file of their own, in the order of their numbers; and the postings they were
    /// made from. They depend on the names alone, so a change that moves and renames no fruit
    /// leaves them as they are.
    struct Grams: Sendable {
        /// A hash of the names, in catalog order, and of the layout: what the files show.
        var source: UInt64
        var buckets: Int
        var heavy: [String]

        /// The postings of the names in catalog order: the model moves them with the fruits
        /// (`GramPostings.move`), so that the files are made again without reading a name.
        /// Nil when they are not known (a saved model's that cannot be read): the names are
        /// then read again.
        var postings: GramPostings? {
            mutating get {
                if let saved = savedPostings {
                    decoded = saved.withUnsafeBytes { buffer in
                        var reader = ByteReader(buffer, offset: 0)
                        return GramPostings(from: &reader).flatMap { reader.isAtEnd ? $0 : nil }
                    }
                    savedPostings = nil
                }
                return decoded
            }
            set {
                decoded = newValue
                savedPostings = nil
            }
        }
        private var decoded: GramPostings?
        /// The postings as the saved model holds them (`GramPostings.encode(into:)`), until
        /// they are read: a build that moves no fruit never reads them, and saves these bytes.
        private(set) var savedPostings: ByteSlice?

        init(source: UInt64, buckets: Int, heavy: [String], postings: GramPostings) {
            (self.source, self.buckets, self.heavy) = (source, buckets, heavy)
            decoded = postings
        }

        init(source: UInt64, buckets: Int, heavy: [String], saved: ByteSlice) {
            (self.source, self.buckets, self.heavy) = (source, buckets, heavy)
            savedPostings = saved
        }

        /// The postings' bytes for the saved model: as read, or encoded anew.
        var encodedPostings: [UInt8] {
            if let savedPostings { return savedPostings.array }
            var writer = ByteWriter()
            decoded?.encode(into: &writer)
            return writer.bytes
        }

        /// The files' paths without their stamps: the buckets', then the common grams'.
        var paths: [String] {
            (0..<buckets).map { SearchShards.folder + "grams/\($0).json" }
                + heavy.indices.map { SearchShards.folder + "grams/h\($0).json" }
        }
    }

    /// What the gram files of names are made from (`Grams.source`), from the hashes of the
    /// names (`StableHasher.hash(fruit.nameKey)`) in catalog order.
    func source(of nameHashes: some Collection<UInt64>) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(layout)
        hasher.combine(UInt64(nameHashes.count))
        for hash in nameHashes { hasher.combine(hash) }
        return hasher.value
    }

    /// The postings of `names`, each fruit's `fold(name)` as UTF-8 (`Fruit.nameKey`) in
    /// catalog order, one after another, the position after each at `ends`.
    func postings(of names: [UInt8], endingAt ends: [Int]) -> GramPostings {
        // The names' code points, decoded once for every core, and where each name ends.
        let (scalars, scalarEnds) = Self.codePoints(of: names, endingAt: ends)
        // Each core reads every name and keeps its own share of the grams.
        let parts = processorCount
        return GramPostings(
            merging: Array(0..<parts).concurrentMap { part in
                var grams = GramTable(part: part, of: parts)
                scalars.withUnsafeBufferPointer { scalars in
                    var start = 0
                    for (position, end) in scalarEnds.enumerated() {
                        grams.add(UnsafeBufferPointer(rebasing: scalars[start..<end]), at: position)
                        start = end
                    }
                }
                return grams.postings()
            })
    }

    /// The gram files of `postings`, whose names hash to `source`: the buckets first, then
    /// the common grams' own files.
    func grams(of postings: GramPostings, source: UInt64) -> (Grams, [RenderedPage]) {
        // Each gram's JSON, in gram order; heavy ones are numbered in that order.
        var heavy: [(gram: [UInt8], bytes: [UInt8])] = []
        var light: [(gram: [UInt8], bytes: [UInt8])] = []
        for posting in postings.json() {
            if posting.bytes.count > heavyBytes {
                heavy.append(posting)
            } else {
                light.append(posting)
            }
        }
        let lightBytes = light.reduce(0) { $0 + $1.gram.count + $1.bytes.count + 4 }
        let buckets = max(1, (lightBytes + bucketBytes - 1) / bucketBytes)
        let grams = Grams(
            source: source, buckets: buckets,
            heavy: heavy.map { String(decoding: $0.gram, as: UTF8.self) }, postings: postings)

        var bucketed = [[(gram: [UInt8], bytes: [UInt8])]](repeating: [], count: buckets)
        for posting in light {
            bucketed[Int(Self.bucket(of: posting.gram) % UInt32(buckets))].append(posting)
        }
        let contents =
            bucketed.map { postings in
                var json: [UInt8] = [UInt8(ascii: "{")]
                for (offset, posting) in postings.enumerated() {
                    if offset > 0 { json.append(UInt8(ascii: ",")) }
                    posting.gram.withUnsafeBufferPointer { JSONText.append(quoted: $0, to: &json) }
                    json.append(UInt8(ascii: ":"))
                    json += posting.bytes
                }
                return json + "}\n".utf8
            } + heavy.map { $0.bytes + [0x0A] }
        return (grams, zip(grams.paths, contents).map { RenderedPage(path: $0, bytes: $1) })
    }

    /// The code points of UTF-8 `names`, and the index after each name's last. Decoded by
    /// hand: the standard library's decoding took 16M of the 157M instructions of making the
    /// gram files of 10,000 names, this 2M.
    static func codePoints(of names: [UInt8], endingAt ends: [Int]) -> (
        [UInt32], [Int]
    ) {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(names.count)
        var scalarEnds: [Int] = []
        scalarEnds.reserveCapacity(ends.count)
        names.withUnsafeBufferPointer { bytes in
            var index = 0
            for end in ends {
                while index < end {
                    // The names are valid UTF-8 (`Fruit.nameKey`): a lead byte says how many
                    // follow. Kept within the name all the same, never past the buffer.
                    let lead = UInt32(bytes[index])
                    let (value, length): (UInt32, Int) =
                        switch lead {
                        case ..<0x80: (lead, 1)
                        case ..<0xE0: (lead & 0x1F, 2)
                        case ..<0xF0: (lead & 0x0F, 3)
                        default: (lead & 0x07, 4)
                        }
                    var scalar = value
                    for next in index + 1..<min(index + length, end) {
                        scalar = scalar << 6 | UInt32(bytes[next] & 0x3F)
                    }
                    scalars.append(scalar)
                    index += length
                }
                scalarEnds.append(scalars.count)
            }
        }
        return (scalars, scalarEnds)
    }

    /// The categories' and the facet values' files, as their stamp-free paths name them:
    /// every file of the index but the manifest, the gram and the records files.
    func groupFiles(categories: [Group], facets: [(key: String, values: [Group])]) -> (
        categories: [RenderedPage], facets: [[RenderedPage]]
    ) {
        let file = { (path: String, group: Group) in
            RenderedPage(path: Self.folder + path, bytes: Self.runList(group.positions) + [0x0A])
        }
        return (
            categories.enumerated().map { file("categories/\($0).json", $1) },
            facets.enumerated().map { facet, list in
                list.values.enumerated().map { file("facets/\(facet)/\($0).json", $1) }
            }
        )
    }

    /// The catalog positions whose records each records file holds, for `count` fruits: a
    /// file is made only when one of its fruits' summaries changed.
    func recordsFiles(count: Int) -> [Range<Int>] {
        stride(from: 0, to: count, by: recordsPerFile).map {
            $0..<min($0 + recordsPerFile, count)
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
    func recordsPath(of positions: Range<Int>) -> String {
        Self.folder + "records/\(positions.lowerBound / recordsPerFile).json"
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
        count: Int, grams: Grams, categories: [Group],
        facets: [(key: String, values: [Group])], hashes: FileHashes
    ) -> [UInt8] {
        func stamps(_ hashes: [UInt64], into json: inout [UInt8]) {
            json.append(UInt8(ascii: "\""))
            for hash in hashes { json += ContentName.stamp(hash).utf8 }
            json.append(UInt8(ascii: "\""))
        }
        func groups(_ groups: [Group], into json: inout [UInt8]) {
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
        return Array(#"{"version":4,"build":"\#(build)","#.utf8) + json
    }

    /// Which bucket file holds a gram, modulo their number: FNV-1a, 32 bits, of the UTF-8 of
    /// its key. The key of a gram of one or two code points is its first, of three its first
    /// two: what a browser knows one keystroke ahead, as the gram the next keystroke needs
    /// begins with the text's last code point (up to two letters typed) or last two. So it
    /// fetches that one bucket while the visitor types, rather than after.
    static func bucket(of gram: some Collection<UInt8>) -> UInt32 {
        // Where each code point starts: UTF-8 continuation bytes are 0b10xxxxxx.
        let starts = gram.indices.filter { gram[$0] & 0xC0 != 0x80 }
        let keyLength = max(1, starts.count - 1)
        let end = keyLength < starts.count ? starts[keyLength] : gram.endIndex
        var hash: UInt32 = 0x811C_9DC5
        for byte in gram[..<end] { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }

    /// Ascending positions as a run list: `[gap, length, gap, length, …]`, each run starting
    /// `gap` after the end of the one before (the first, after 0). A position again is ignored.
    static func runList(_ positions: some Sequence<Int>) -> [UInt8] {
        var runs: [Run] = []
        for position in positions.lazy.map(Int32.init) {
            if runs.isEmpty || !runs[runs.count - 1].absorbs(position) {
                runs.append(Run(start: position, end: position + 1))
            }
        }
        var json: [UInt8] = []
        append(runs, to: &json)
        return json
    }

    /// Consecutive positions, from `start` to `end` (exclusive).
    struct Run: Sendable, Equatable {
        var start: Int32
        var end: Int32

        /// Takes in a position from this run's start on: the next one extends it, one already
        /// in it is ignored. False for one past its end, which starts a run of its own.
        mutating func absorbs(_ position: Int32) -> Bool {
            if end == position { end += 1 }
            return end > position
        }
    }

    /// Appends ascending runs as a run list (`runList(_:)`).
    ///
    /// Into a buffer of the most bytes the runs can take, then appended at once: appended byte
    /// by byte, the gram files' 250,000 numbers at 10,000 fruits were 30M instructions.
    static func append(_ runs: some Collection<Run>, to json: inout [UInt8]) {
        // Two numbers of at most ten digits and two commas a run, and the brackets.
        json += [UInt8](unsafeUninitializedCapacity: 2 + runs.count * 22) { buffer, count in
            var end = 0
            func put(_ number: Int32) {
                var digits = 1
                var rest = number / 10
                while rest > 0 { (digits, rest) = (digits + 1, rest / 10) }
                rest = number
                for offset in (end..<end + digits).reversed() {
                    buffer[offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                end += digits
            }
            buffer[0] = UInt8(ascii: "[")
            end = 1
            var previous: Int32 = 0
            for run in runs {
                if end > 1 {
                    buffer[end] = UInt8(ascii: ",")
                    end += 1
                }
                put(run.start - previous)
                buffer[end] = UInt8(ascii: ",")
                end += 1
                put(run.end - run.start)
                previous = run.end
            }
            buffer[end] = UInt8(ascii: "]")
            count = end + 1
        }
    }
}

/// The grams of one to three code points of the folded names, with where they occur: those
/// of one share of them, so that each core can make one.
///
/// Its own open-addressing table rather than a `Dictionary`: a gram is looked up for every
/// code point of every name, and a multiplicative hash of the packed code points costs a
/// fraction of hashing them with SipHash.
private struct GramTable {
    private typealias Gram = GramPostings.Gram

    private var grams: [Gram] = []
    /// For each gram, the index in `runs` of its last run, or -1 before its first.
    private var lastRun: [Int32] = []
    /// Every run of every gram, in the order they start, and its gram's index. Names come in
    /// catalog order, so a gram's runs are in order too. One array for all, grouped by gram
    /// when the postings are made, rather than an array for each gram.
    private var runs: [(gram: Int32, run: SearchShards.Run)] = []
    /// For each slot, the index in `grams` plus one, or 0 when free; at most half are taken.
    private var slots = [Int32](repeating: 0, count: 1 << 12)
    /// The share this table keeps: the grams whose packed code points, once mixed, fall in
    /// the `part`th of `parts` equal ranges.
    private let part: UInt64
    private let parts: UInt64

    init(part: Int, of parts: Int) {
        (self.part, self.parts) = (UInt64(part), UInt64(parts))
    }

    /// Adds the grams of the name at `position`, given as its code points.
    mutating func add(_ scalars: UnsafeBufferPointer<UInt32>, at position: Int) {
        let position = Int32(position)
        Gram.forEach(in: scalars) { packed, length, start in
            // The share is a multiply and a shift of the mixed bits, not a division.
            let mixed = (packed &* 0x9E37_79B9_7F4A_7C15) >> 32
            guard (mixed &* parts) >> 32 == part else { return }
            let gram = index(of: Gram(packed: packed, length: length, start: start))
            let last = Int(lastRun[gram])
            // Absorbed when the fruit before has it too, or this name has it twice.
            if last < 0 || !runs[last].run.absorbs(position) {
                lastRun[gram] = Int32(runs.count)
                runs.append((Int32(gram), SearchShards.Run(start: position, end: position + 1)))
            }
        }
    }

    /// The index in `grams` and `lastRun` of `gram`, added when new.
    private mutating func index(of gram: Gram) -> Int {
        let mask = slots.count - 1
        var slot = Self.slot(of: gram, mask: mask)
        while slots[slot] != 0 {
            let index = Int(slots[slot] - 1)
            if grams[index] == gram { return index }
            slot = (slot + 1) & mask
        }
        grams.append(gram)
        lastRun.append(-1)
        slots[slot] = Int32(grams.count)
        if grams.count * 2 > slots.count { grow() }
        return grams.count - 1
    }

    private static func slot(of gram: Gram, mask: Int) -> Int {
        let hash =
            (gram.packed ^ UInt64(UInt32(bitPattern: gram.place)) << 43)
            &* 0xFF51_AFD7_ED55_8CCD
        return Int(truncatingIfNeeded: hash >> 32) & mask
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, gram) in grams.enumerated() {
            var slot = Self.slot(of: gram, mask: mask)
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }

    /// The postings of this share's grams.
    func postings() -> GramPostings {
        // The runs grouped by gram, each gram's still in order: a counting sort.
        var firstRun = [Int](repeating: 0, count: grams.count + 1)
        for (gram, _) in runs { firstRun[Int(gram) + 1] += 1 }
        for gram in grams.indices { firstRun[gram + 1] += firstRun[gram] }
        var byGram = [SearchShards.Run](
            repeating: SearchShards.Run(start: 0, end: 0), count: runs.count)
        var next = firstRun
        for (gram, run) in runs {
            byGram[next[Int(gram)]] = run
            next[Int(gram)] += 1
        }
        return GramPostings(
            grams.indices.sorted { grams[$0] < grams[$1] }.lazy.map {
                (grams[$0], byGram[firstRun[$0]..<firstRun[$0 + 1]])
            })
    }
}
