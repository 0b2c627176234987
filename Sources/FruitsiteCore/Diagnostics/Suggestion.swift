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
        let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let limit = maximumDistance ?? max(1, min(word.count, best.0.count) / 3)
        return best.1 <= limit && best.1 > 0 ? best.0 : nil
    }

    /// Levenshtein distance over Characters.
    public static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
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
