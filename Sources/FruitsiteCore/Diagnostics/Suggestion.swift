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
        let lowered = word.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let limit = maximumDistance ?? max(1, min(word.count, candidate.count) / 3)
            // The distance is at least the difference in length: skip the full computation.
            guard abs(word.count - candidate.count) <= limit else { continue }
            let distance = editDistance(lowered, candidate.lowercased())
            if distance > 0, distance <= limit, distance < best?.distance ?? .max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
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
