import Foundation
import FruitsiteCore
import Testing

/// `Fold.normalizeNFC` leaves some code points to themselves without normalizing; these check
/// that against the whole normalization, for every code point up to U+2FFFF.
@Suite struct FoldTests {
    static func wholeNFC(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    static let scalars = (0..<0x30000).compactMap(Unicode.Scalar.init)

    @Test func eachCodePointNormalizesAsFoundationDoes() {
        let wrong = Self.scalars.filter {
            let text = String($0)
            return Fold.normalizeNFC(text).unicodeScalars.elementsEqual(
                Self.wholeNFC(text).unicodeScalars) == false
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
                Self.wholeNFC(decomposed).unicodeScalars)
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

    /// What browsers' `normalize("NFC")` composes and Foundation's tables (Unicode 15) did not:
    /// pairs that compose since Unicode 16, and a Hangul syllable with a trailing consonant.
    @Test func composesAsBrowsersDo() {
        for (text, composed) in [
            ("\u{16D67}\u{16D67}", "\u{16D68}"), ("\u{105D2}\u{307}", "\u{105C9}"),
            ("\u{11382}\u{113C9}", "\u{11383}"), ("가\u{11A8}", "각"),
        ] {
            #expect(Fold.normalizeNFC(text).unicodeScalars.elementsEqual(composed.unicodeScalars))
        }
    }
}
