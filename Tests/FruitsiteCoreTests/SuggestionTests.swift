@testable import FruitsiteCore
import Testing

@Suite struct SuggestionTests {
    static let keys = ["name", "emoji", "category", "vitamins", "draft", "date"]

    @Test func suggestsTheNearestKnownWord() {
        #expect(Suggestion.closest(to: "catgory", in: Self.keys) == "category")
        // Two letters swapped are one typo.
        #expect(Suggestion.closest(to: "emoij", in: Self.keys) == "emoji")
        #expect(Suggestion.closest(to: "nmae", in: Self.keys) == "name")
        #expect(Suggestion.closest(to: "vitamin", in: Self.keys) == "vitamins")
        #expect(Suggestion.closest(to: "origin", in: Self.keys) == nil)
    }

    /// The same word in another case, or in another Unicode normalization, is suggested; the
    /// word itself is not.
    @Test func suggestsTheWordInAnotherCaseOrForm() {
        #expect(Suggestion.closest(to: "Category", in: Self.keys) == "category")
        #expect(Suggestion.closest(to: "CATEGORY", in: Self.keys) == "category")
        #expect(Suggestion.closest(to: "category", in: Self.keys) == nil)
        #expect(Suggestion.closest(to: "Cafe\u{301}", in: ["Café", "Cake"]) == "Café")
        #expect(Suggestion.closest(to: "Café", in: ["Café"]) == nil)
    }

    @Test func keepsWithinTheDistanceAndPrefersTheFirstOfEqualOnes() {
        #expect(Suggestion.closest(to: "dat", in: Self.keys) == "date")
        #expect(Suggestion.closest(to: "dates", in: ["date", "dated"]) == "date")
        #expect(Suggestion.closest(to: "abcdef", in: ["uvwxyz"], maximumDistance: 5) == nil)
        #expect(Suggestion.closest(to: "abcdef", in: ["abcxyz"], maximumDistance: 3) == "abcxyz")
        #expect(Suggestion.closest(to: "abcdef", in: ["abcxyz"], maximumDistance: 2) == nil)
        #expect(Suggestion.closest(to: "abc", in: ["uvwxyz"], maximumDistance: .max) == "uvwxyz")
    }

    /// The distance stops once it must exceed the limit, and is exact up to it: every pair of
    /// short words over three letters, swaps included, at every limit.
    @Test func stopsPastTheLimitAndIsExactWithinIt() {
        let words = (0..<300).map { seed in
            (0..<(seed % 7)).map {
                Unicode.Scalar(UInt8(ascii: "a") + UInt8((seed * 7 + $0 * $0) % 3))
            }
        }
        for a in words.prefix(60) {
            for b in words {
                let exact = Suggestion.editDistance(a, b)
                for limit in 0...7 {
                    #expect(
                        Suggestion.editDistance(a, b, limit: limit) == min(exact, limit + 1),
                        "\(a) \(b) \(limit)")
                }
            }
        }
    }
}
