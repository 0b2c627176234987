import Foundation

/// URL slugs for fruits and categories.
public enum Slug {
    /// The longest slug a folder can be named with: 255 bytes is the longest file name of
    /// ext4, XFS, APFS and NTFS alike (NTFS counts UTF-16 units; a slug is ASCII).
    static let maximumLength = 255

    /// Whether `text` looks like `apple` or `blood-orange`: lowercase ASCII letters and digits,
    /// words joined by single hyphens.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, let last = bytes.last, first != 0x2D, last != 0x2D
        else { return false }
        var previousWasHyphen = false
        for byte in bytes {
            let isHyphen = byte == 0x2D
            let isWordByte = (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            guard isWordByte || (isHyphen && !previousWasHyphen) else { return false }
            previousWasHyphen = isHyphen
        }
        return true
    }

    /// Each of `items` whose slug an earlier one has, with that earlier one: names that differ
    /// but would share a URL (`c` and `C`), which a build refuses (and `new` before it).
    static func collisions<Item>(
        in items: [Item], slug: (Item) -> String
    ) -> [(Item, first: Item)] {
        var firstBySlug: [String: Item] = [:]
        var collisions: [(Item, first: Item)] = []
        for item in items {
            let slug = slug(item)
            if let first = firstBySlug[slug] {
                collisions.append((item, first))
            } else {
                firstBySlug[slug] = item
            }
        }
        return collisions
    }

    /// A slug for any text: accents dropped, lowercased, other characters turned into hyphens.
    ///
    /// Text with no Latin letters or digits (say, `果物`) gets `c-` and a stable hash, so
    /// every category still has a plain ASCII folder name.
    public static func make(from text: String) -> String {
        var slug = ""
        var pendingHyphen = false
        // ASCII is its own decomposition. Asking Foundation cost 1.3% of a clean build's
        // instructions, as every fruit page makes the slugs of its facet values.
        let decomposed =
            text.utf8.allSatisfy { $0 < 0x80 } ? text : text.decomposedStringWithCanonicalMapping
        for scalar in decomposed.lowercased().unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            let piece: String
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                piece = String(scalar)
            } else if let latin = Self.latinLetters[scalar] {
                piece = latin
            } else {
                pendingHyphen = true
                continue
            }
            if pendingHyphen && !slug.isEmpty { slug += "-" }
            pendingHyphen = false
            slug += piece
        }
        if slug.isEmpty { slug = "c-" + stableHash(text) }
        return slug
    }

    /// Latin letters that have no accent to drop, as they are written in ASCII: `Ærø` is
    /// `aero`, `Œuf` is `oeuf`.
    private static let latinLetters: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th",
        "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "ng",
    ]

    /// FNV-1a of the UTF-8 bytes as 8 hex digits: the same on every run and platform.
    static func stableHash(_ text: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
