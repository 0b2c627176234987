extension SearchShards {
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
}
