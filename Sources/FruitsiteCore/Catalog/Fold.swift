import Foundation

/// Case folding "fold-v1": the one definition of matching that Swift and the JavaScript
/// client share (README, "How search matches").
public enum Fold {
    /// Folds `text`: full lowercase mapping of each code point without context or language
    /// rules, then every final sigma `ς` replaced by `σ`, then NFC.
    ///
    /// - Parameter text: Any string; front-matter strings are already NFC.
    /// - Returns: The folded string.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII lowercases to ASCII, which is already NFC.
            return text.lowercased()
        }
        // `lowercased()` maps code point by code point (no Final_Sigma context rule).
        var lowered = text.lowercased()
        if lowered.unicodeScalars.contains("\u{03C2}") {
            lowered = lowered.replacingOccurrences(of: "\u{03C2}", with: "\u{03C3}")
        }
        return normalizeNFC(lowered)
    }

    /// The folded string's UTF-8 bytes: comparing these compares code points in order.
    public static func key(_ text: String) -> [UInt8] {
        Array(fold(text).utf8)
    }

    /// NFC, by the standard library's tables (Unicode 16), which compose what browsers'
    /// `normalize("NFC")` composes: Foundation's stop at Unicode 15, so a name in Kirat Rai
    /// or Tulu-Tigalari was left decomposed here and composed by the search in the browser.
    /// Foundation's also left a Hangul LV syllable and a trailing consonant (`가` + `ᆨ`) apart.
    public static func normalizeNFC(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy(isInert) { return text }
        return String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// Whether NFC leaves `scalar` as it is wherever it stands: it has no canonical
    /// decomposition, is a starter, and composes with nothing before it. True of every code
    /// point below U+0300 (the combining marks start there) and of the emoji blocks with
    /// their joiner and variation selector, which is most of what front matter holds.
    /// Sending Latin names and emoji through Foundation cost 4% of a clean build's instructions.
    static func isInert(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case ..<0x300, 0x200D, 0xFE0F, 0x1F000..<0x1FB00: true
        default: false
        }
    }

    /// Whether `needle` occurs as a contiguous run of bytes in `haystack`.
    ///
    /// Both are UTF-8 of folded strings; UTF-8 is self-synchronizing, so a byte match is a
    /// code point match. `String.contains` would compare grapheme clusters instead.
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        if needle.count > haystack.count { return false }
        let first = needle[0]
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var offset = 1
                while offset < needle.count, haystack[start + offset] == needle[offset] {
                    offset += 1
                }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}
