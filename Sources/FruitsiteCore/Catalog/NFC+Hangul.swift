extension NFC {
    /// The Hangul syllables, which UAX #15 decomposes and composes by arithmetic rather than
    /// by a table: a leading consonant, a vowel, and maybe a trailing consonant.
    enum Hangul {
        private static let (syllables, leading, vowels, trailing) = (
            UInt32(0xAC00), UInt32(0x1100), UInt32(0x1161), UInt32(0x11A7)
        )
        private static let (leadingCount, vowelCount, trailingCount) = (
            UInt32(19), UInt32(21), UInt32(28)
        )
        private static let syllableCount = leadingCount * vowelCount * trailingCount

        /// Whether `point` composes with the jamo or syllable before it.
        static func isVowelOrTrailing(_ point: UInt32) -> Bool {
            (vowels..<vowels + vowelCount).contains(point)
                || (trailing + 1..<trailing + trailingCount).contains(point)
        }

        /// The jamo of the syllable `point`; nil when it is none.
        static func decomposition(of point: UInt32) -> [UInt32]? {
            guard (syllables..<syllables + syllableCount).contains(point) else { return nil }
            let index = point - syllables
            let parts = [
                leading + index / (vowelCount * trailingCount),
                vowels + index % (vowelCount * trailingCount) / trailingCount,
            ]
            let trailingIndex = index % trailingCount
            return trailingIndex == 0 ? parts : parts + [trailing + trailingIndex]
        }

        /// The syllable a leading consonant and a vowel make, or a syllable without a
        /// trailing consonant and one; nil for any other pair.
        static func composite(of first: UInt32, _ second: UInt32) -> UInt32? {
            if (leading..<leading + leadingCount).contains(first),
                (vowels..<vowels + vowelCount).contains(second)
            {
                return syllables + ((first - leading) * vowelCount + second - vowels)
                    * trailingCount
            }
            if (syllables..<syllables + syllableCount).contains(first),
                (first - syllables) % trailingCount == 0,
                (trailing + 1..<trailing + trailingCount).contains(second)
            {
                return first + second - trailing
            }
            return nil
        }
    }
}
