import Foundation

/// Case folding "fold-v1": the one definition of matching that Swift and the JavaScript
/// client share (docs/explanation/search.md).
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
        var lowered = lowercased(text)
        if lowered.unicodeScalars.contains("\u{03C2}") {
            lowered = lowered.replacingOccurrences(of: "\u{03C2}", with: "\u{03C3}")
        }
        return normalizeNFC(lowered)
    }

    /// `text.lowercased()`: each code point's full lowercase mapping, without context (no
    /// Final_Sigma rule). Made as bytes, where `lowercased()` appended a string for every
    /// code point, some 400 instructions each: a name in Arabic or Greek cost 11,000.
    static func lowercased(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                bytes.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
            } else if scalar.properties.changesWhenLowercased {
                bytes += scalar.properties.lowercaseMapping.utf8
            } else {
                // Its mapping is itself (a test checks every code point).
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The folded string's UTF-8 bytes: comparing these compares code points in order.
    public static func key(_ text: String) -> [UInt8] {
        Array(fold(text).utf8)
    }

    /// NFC (`NFC`), which composes what browsers' `normalize("NFC")` composes.
    public static func normalizeNFC(_ text: String) -> String {
        NFC.normalize(text)
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
