/// Finds "did you mean" candidates by edit distance.
public enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    /// - Parameters:
    ///   - word: What the user wrote.
    ///   - candidates: The words we know.
    ///   - maximumDistance: The most edits a typo may be, by default a third of the word.
    public static func closest(
        to word: String, in candidates: [String], maximumDistance: Int? = nil
    ) -> String? {
        // Each word as code points, once: every front-matter key the parser does not know is
        // checked, and over Characters that took 4% of a clean build's instructions at 10,000
        // fruits.
        let written = word
        let word = Array(Fold.normalizeNFC(word).lowercased().unicodeScalars)
        var best: (candidate: String, distance: Int)?
        // The word itself (byte for byte) is no typo; the word in another case or Unicode
        // form is the likeliest one, at distance 0 once both are composed and lowercased.
        for candidate in candidates where !candidate.utf8.elementsEqual(written.utf8) {
            let other = Array(Fold.normalizeNFC(candidate).lowercased().unicodeScalars)
            let limit = maximumDistance ?? max(1, min(word.count, other.count) / 3)
            // The distance is at least the difference in length: skip the full computation.
            guard abs(word.count - other.count) <= limit else { continue }
            let distance = editDistance(word, other)
            if distance <= limit, distance < best?.distance ?? .max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Levenshtein distance over code points.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
