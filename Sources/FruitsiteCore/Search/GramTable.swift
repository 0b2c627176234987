/// The grams of one to three code points of the folded names, with where they occur: those
/// of one share of them, so that each core can make one.
///
/// Its own open-addressing table rather than a `Dictionary`: a gram is looked up for every
/// code point of every name, and a multiplicative hash of the packed code points costs a
/// fraction of hashing them with SipHash.
struct GramTable {
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
