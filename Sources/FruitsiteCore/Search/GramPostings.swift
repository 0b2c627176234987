/// Every gram of one to three code points of the catalog's folded names, each with the
/// catalog positions of the names that have it, as runs, in the order the gram files list
/// them (`SearchShards`).
///
/// The model keeps them beside the catalog order and moves them with the fruits
/// (`move(_:arriving:)`). A fruit renamed, added or removed shifts the positions of every
/// fruit between its two places, and reading every name again for that was most of such a
/// rebuild: 146M of its 483M instructions at 10,000 fruits.
struct GramPostings: Sendable, Equatable {
    /// A gram: its code points packed 21 bits each, the first highest, and where it is found.
    /// A three-code-point gram is found at one offset in the name (`place`, from 0); shorter
    /// ones are found anywhere, and `place` is minus their length.
    struct Gram: Sendable, Equatable, Comparable {
        var packed: UInt64
        var place: Int32

        init(packed: UInt64, place: Int32) {
            (self.packed, self.place) = (packed, place)
        }

        /// The gram of `length` code points, packed, that starts at `start` in a name.
        init(packed: UInt64, length: Int, start: Int) {
            self.init(packed: packed, place: length < 3 ? Int32(-length) : Int32(start))
        }

        var length: Int { place < 0 ? Int(-place) : 3 }

        /// In the order of the grams' UTF-8, which is that of their code points, a gram before
        /// the longer ones it begins; a three-code-point gram's places ascending.
        static func < (left: Gram, right: Gram) -> Bool {
            let (a, b) = (left.aligned, right.aligned)
            if a != b { return a < b }
            return left.length != right.length
                ? left.length < right.length : left.place < right.place
        }

        /// The code points moved up as if there were three, those missing 0.
        private var aligned: UInt64 { packed << (21 * UInt64(3 - length)) }

        var utf8: [UInt8] {
            var bytes: [UInt8] = []
            for index in (0..<length).reversed() {
                let scalar = Unicode.Scalar(UInt32(packed >> (21 * index) & 0x1F_FFFF))!
                UTF8.encode(scalar) { bytes.append($0) }
            }
            return bytes
        }

        /// Calls `body` with every gram of a name's code points: packed, its length and where
        /// it starts. A gram the name has twice comes twice.
        @inline(__always)
        static func forEach(
            in scalars: UnsafeBufferPointer<UInt32>,
            _ body: (_ packed: UInt64, _ length: Int, _ start: Int) -> Void
        ) {
            let count = scalars.count
            for start in 0..<count {
                var packed: UInt64 = 0
                var length = 0
                while length < 3, start + length < count {
                    packed = packed << 21 | UInt64(scalars[start + length])
                    length += 1
                    body(packed, length, start)
                }
            }
        }
    }

    /// The grams, in order, each once.
    private(set) var grams: [Gram] = []
    /// Where each gram's runs begin in `runs`, and after the last gram's, their end.
    private(set) var starts: [Int32] = [0]
    /// Each gram's runs of positions, ascending, none touching the next.
    private(set) var runs: [SearchShards.Run] = []

    init() {}

    /// The postings of `grams` in order, each with its runs.
    init(_ grams: some Sequence<(Gram, ArraySlice<SearchShards.Run>)>) {
        for (gram, runs) in grams {
            self.grams.append(gram)
            self.runs += runs
            starts.append(Int32(self.runs.count))
        }
    }

    /// The postings of `parts`, each of its own grams.
    init(merging parts: [GramPostings]) {
        let order = parts.indices.flatMap { part in parts[part].grams.indices.map { (part, $0) } }
            .sorted { parts[$0.0].grams[$0.1] < parts[$1.0].grams[$1.1] }
        grams.reserveCapacity(order.count)
        starts.reserveCapacity(order.count + 1)
        runs.reserveCapacity(parts.reduce(0) { $0 + $1.runs.count })
        for (part, index) in order {
            grams.append(parts[part].grams[index])
            runs += parts[part][index]
            starts.append(Int32(runs.count))
        }
    }

    /// Whether every position is below `count`.
    func lie(below count: Int) -> Bool {
        runs.allSatisfy { Int($0.end) <= count }
    }

    /// The runs of the gram at `index`.
    subscript(index: Int) -> ArraySlice<SearchShards.Run> {
        runs[Int(starts[index])..<Int(starts[index + 1])]
    }

    /// Each gram's UTF-8 and JSON posting, in order: a run list, or for a three-code-point
    /// gram an object of run lists by the offset at which it starts.
    func json() -> [(gram: [UInt8], bytes: [UInt8])] {
        // A share of the grams for each core, each share starting at a gram of its own.
        let parts = processorCount
        var bounds = (0...parts).map { $0 * grams.count / parts }
        for part in bounds.indices.dropFirst().dropLast() {
            while bounds[part] < grams.count, bounds[part] > 0, grams[bounds[part]].place >= 0,
                grams[bounds[part]].packed == grams[bounds[part] - 1].packed
            {
                bounds[part] += 1
            }
            bounds[part] = max(bounds[part], bounds[part - 1])
        }
        let ranges = (0..<parts).map { bounds[$0]..<bounds[$0 + 1] }
        return ranges.concurrentMap(json).flatMap { $0 }
    }

    private func json(_ range: Range<Int>) -> [(gram: [UInt8], bytes: [UInt8])] {
        var postings: [(gram: [UInt8], bytes: [UInt8])] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let gram = grams[index]
            var json: [UInt8] = []
            if gram.place < 0 {
                SearchShards.append(self[index], to: &json)
                index += 1
            } else {
                json.append(UInt8(ascii: "{"))
                while index < range.upperBound, grams[index].place >= 0,
                    grams[index].packed == gram.packed
                {
                    if json.count > 1 { json.append(UInt8(ascii: ",")) }
                    json.append(UInt8(ascii: "\""))
                    JSONText.append(Int(grams[index].place), to: &json)
                    json += "\":".utf8
                    SearchShards.append(self[index], to: &json)
                    index += 1
                }
                json.append(UInt8(ascii: "}"))
            }
            postings.append((gram.utf8, json))
        }
        return postings
    }

    /// Moves the postings with the catalog: the fruit that was at each position is now at
    /// `moved[position]`, or is gone when that is -1, and `arriving` names (`Fruit.nameKey`)
    /// came in at their new positions. The fruits that stay keep their order, so a run of
    /// them moves whole unless a fruit left or came between.
    mutating func move(_ moved: [Int], arriving: [(position: Int, name: [UInt8])]) {
        // For each old position, where the run of kept positions that move together from it
        // ends: at a fruit that left, after it, and where one came in between.
        let count = Int32(moved.count)
        var segmentEnd = [Int32](repeating: count, count: moved.count)
        for position in moved.indices.dropLast().reversed() {
            let (from, to) = (moved[position], moved[position + 1])
            segmentEnd[position] =
                from >= 0 && to == from + 1 ? segmentEnd[position + 1] : Int32(position + 1)
        }

        // The arrivals' grams with their positions, in gram order, then position order.
        var added: [(gram: Gram, position: Int32)] = []
        let (scalars, ends) = SearchShards.codePoints(
            of: Array(arriving.lazy.map(\.name).joined()),
            endingAt: arriving.reduce(into: []) { $0.append(($0.last ?? 0) + $1.name.count) })
        scalars.withUnsafeBufferPointer { scalars in
            var start = 0
            for ((position, _), end) in zip(arriving, ends) {
                Gram.forEach(in: UnsafeBufferPointer(rebasing: scalars[start..<end])) {
                    added.append((Gram(packed: $0, length: $1, start: $2), Int32(position)))
                }
                start = end
            }
        }
        added.sort { $0.gram != $1.gram ? $0.gram < $1.gram : $0.position < $1.position }

        var next = GramPostings()
        next.grams.reserveCapacity(grams.count)
        next.starts.reserveCapacity(grams.count + 1)
        next.runs.reserveCapacity(runs.count + added.count)
        var kept: [SearchShards.Run] = []
        var addedIndex = 0
        // Ends the gram whose runs are being made: its kept runs, then those of its arrivals
        // merged in. A gram left with none is dropped.
        func close(_ gram: Gram) {
            let first = Int(next.starts[next.starts.count - 1])
            if addedIndex < added.count, added[addedIndex].gram == gram {
                kept = Array(next.runs[first...])
                next.runs.removeSubrange(first...)
                var keptIndex = 0
                while addedIndex < added.count, added[addedIndex].gram == gram {
                    let position = added[addedIndex].position
                    while keptIndex < kept.count, kept[keptIndex].start <= position {
                        Self.append(kept[keptIndex], to: &next.runs, after: first)
                        keptIndex += 1
                    }
                    Self.append(
                        SearchShards.Run(start: position, end: position + 1), to: &next.runs,
                        after: first)
                    addedIndex += 1
                }
                for run in kept[keptIndex...] { Self.append(run, to: &next.runs, after: first) }
            }
            if next.runs.count > first {
                next.grams.append(gram)
                next.starts.append(Int32(next.runs.count))
            }
        }
        for index in grams.indices {
            let gram = grams[index]
            while addedIndex < added.count, added[addedIndex].gram < gram {
                close(added[addedIndex].gram)
            }
            let first = next.runs.count
            for run in self[index] {
                var position = run.start
                while position < run.end {
                    let end = min(run.end, segmentEnd[Int(position)])
                    let to = moved[Int(position)]
                    if to >= 0 {
                        Self.append(
                            SearchShards.Run(start: Int32(to), end: Int32(to) + end - position),
                            to: &next.runs, after: first)
                    }
                    position = end
                }
            }
            close(gram)
        }
        while addedIndex < added.count { close(added[addedIndex].gram) }
        self = next
    }

    /// Appends `run` to the runs of a gram, which start at `first`, joined to the last one
    /// when the two touch or overlap.
    @inline(__always)
    private static func append(
        _ run: SearchShards.Run, to runs: inout [SearchShards.Run], after first: Int
    ) {
        if runs.count > first, run.start <= runs[runs.count - 1].end {
            runs[runs.count - 1].end = max(runs[runs.count - 1].end, run.end)
        } else {
            runs.append(run)
        }
    }

    // MARK: - Saving

    /// Writes the postings for `init(from:)`.
    func encode(into writer: inout ByteWriter) {
        writer.integer(grams.count)
        for gram in grams {
            writer.word(gram.packed)
            writer.integer(gram.place)
        }
        writer.indexes(starts.lazy.map(Int.init))
        // Each run's start, then its end, read where they lie rather than copied first.
        writer.indexes(
            (0..<2 * runs.count).lazy.map { [runs] in
                Int($0 & 1 == 0 ? runs[$0 >> 1].start : runs[$0 >> 1].end)
            })
    }

    /// The postings `encode(into:)` wrote; nil when anything is out of place.
    init?(from reader: inout ByteReader) {
        guard let count = reader.integer(), count >= 0, count <= reader.buffer.count else {
            return nil
        }
        grams.reserveCapacity(count)
        for _ in 0..<count {
            guard let packed = reader.word(), let place = reader.integer(),
                let place = Int32(exactly: place), place >= -2
            else { return nil }
            grams.append(Gram(packed: packed, place: place))
        }
        let limit = Int(Int32.max)
        guard let starts = reader.indexes(below: limit), let bounds = reader.indexes(below: limit),
            starts.count == count + 1, starts.first == 0, starts.last == bounds.count / 2,
            bounds.count % 2 == 0, zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 })
        else { return nil }
        self.starts = starts.map { Int32($0) }
        runs = [SearchShards.Run](unsafeUninitializedCapacity: bounds.count / 2) { runs, count in
            for index in runs.indices {
                runs[index] = SearchShards.Run(
                    start: Int32(bounds[2 * index]), end: Int32(bounds[2 * index + 1]))
            }
            count = runs.count
        }
        guard runs.allSatisfy({ $0.start < $0.end }) else { return nil }
    }
}
