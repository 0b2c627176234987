import Foundation
import FruitsiteCore
import Testing

/// `Fold.normalizeNFC` leaves some code points to themselves without asking Foundation; these
/// check that against Foundation's own tables, for every code point up to U+2FFFF.
@Suite struct FoldTests {
    static func foundationNFC(_ text: String) -> String {
        text.decomposedStringWithCanonicalMapping.precomposedStringWithCanonicalMapping
    }

    static let scalars = (0..<0x30000).compactMap(Unicode.Scalar.init)

    @Test func eachCodePointNormalizesAsFoundationDoes() {
        let wrong = Self.scalars.filter {
            let text = String($0)
            return Fold.normalizeNFC(text).unicodeScalars.elementsEqual(
                Self.foundationNFC(text).unicodeScalars) == false
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10).map { String($0.value, radix: 16) })")
    }

    /// Every decomposition, written out, composes again: none of the code points that follow
    /// a starter in one is taken as inert.
    @Test func everyDecompositionComposes() {
        var checked = 0
        var wrong: [String] = []
        for scalar in Self.scalars {
            let decomposed = String(scalar).decomposedStringWithCanonicalMapping
            guard decomposed.unicodeScalars.count > 1 else { continue }
            checked += 1
            if !Fold.normalizeNFC(decomposed).unicodeScalars.elementsEqual(
                Self.foundationNFC(decomposed).unicodeScalars)
            {
                wrong.append(String(scalar.value, radix: 16))
            }
        }
        #expect(checked > 10_000)
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    @Test func latinNamesAndEmojiAreKeptAsTheyAre() {
        for text in ["Açaí", "Pêche de vigne", "Żurawina", "🍽️", "🫐", "👩🏽‍🌾"] {
            #expect(Fold.normalizeNFC(text) == text)
        }
        #expect(Fold.normalizeNFC("e\u{301}") == "é")
        #expect(Fold.fold("ΣΟΦΟΣ") == "σοφοσ")
    }
}
