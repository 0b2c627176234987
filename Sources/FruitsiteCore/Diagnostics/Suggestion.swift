/// Finds "did you mean" candidates by edit distance.
public enum Suggestion {
    /// The words we know, each kept beside the form it is compared in (composed, lowercased,
    /// as code points): made once for words asked about again and again, such as the
    /// front-matter keys every entry's unknown keys are checked against.
    public struct Candidates: Sendable {
        fileprivate let words: [(word: String, compared: [Unicode.Scalar])]

        public init(_ words: [String]) {
            self.words = words.map { ($0, Suggestion.compared($0)) }
        }
    }

    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    /// - Parameters:
    ///   - word: What the user wrote.
    ///   - candidates: The words we know.
    ///   - maximumDistance: The most edits a typo may be, by default a third of the word.
    public static func closest(
        to word: String, in candidates: [String], maximumDistance: Int? = nil
    ) -> String? {
        closest(to: word, in: Candidates(candidates), maximumDistance: maximumDistance)
    }

    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    public static func closest(
        to word: String, in candidates: Candidates, maximumDistance: Int? = nil
    ) -> String? {
        let compared = compared(word)
        var best: (candidate: String, distance: Int)?
        // The word itself (byte for byte) is no typo; the word in another case or Unicode
        // form is the likeliest one, at distance 0 once both are composed and lowercased.
        for (candidate, other) in candidates.words
        where !candidate.utf8.elementsEqual(word.utf8) {
            let limit = maximumDistance ?? max(1, min(compared.count, other.count) / 3)
            // The distance is at least the difference in length: skip the full computation.
            guard abs(compared.count - other.count) <= limit else { continue }
            let distance = editDistance(compared, other, limit: limit)
            if distance <= limit, distance < best?.distance ?? .max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// A word as it is compared: as code points, once, since every front-matter key the
    /// parser does not know is checked, and over Characters that took 4% of a clean build's
    /// instructions at 10,000 fruits.
    private static func compared(_ word: String) -> [Unicode.Scalar] {
        Array(Fold.normalizeNFC(word).lowercased().unicodeScalars)
    }

    /// Edit distance over code points, a swap of two neighbours counting as one edit (the
    /// optimal string alignment distance): `emoij` is one typo away from `emoji`, not two.
    ///
    /// Any distance past `limit` is returned as `limit + 1`, found as soon as two rows in a
    /// row exceed it, since every later cell adds to a cell of those two: most unknown keys
    /// are no typo, and every entry's unknown keys are checked.
    static func editDistance(
        _ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int = .max - 1
    ) -> Int {
        let limit = Swift.min(limit, .max - 1)
        if a.isEmpty || b.isEmpty { return Swift.min(a.count + b.count, limit + 1) }
        let width = b.count + 1
        // Three rows on the stack, rotated: most calls are for a word that is no typo.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows in
            var (beforePrevious, previous, current) = (0, width, 2 * width)
            for j in 0..<width { rows[previous + j] = j }
            var previousMinimum = 0
            for i in 1...a.count {
                rows[current] = i
                var minimum = i
                for j in 1...b.count {
                    let substitution = rows[previous + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    var cell = Swift.min(
                        rows[previous + j] + 1, rows[current + j - 1] + 1, substitution)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        cell = Swift.min(cell, rows[beforePrevious + j - 2] + 1)
                    }
                    rows[current + j] = cell
                    minimum = Swift.min(minimum, cell)
                }
                if minimum > limit, previousMinimum > limit { return limit + 1 }
                previousMinimum = minimum
                (beforePrevious, previous, current) = (previous, current, beforePrevious)
            }
            return Swift.min(rows[previous + b.count], limit + 1)
        }
    }
}
