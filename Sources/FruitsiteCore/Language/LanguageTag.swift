/// The shape of a BCP 47 language tag, which the config's `language` and the pages' hreflang
/// alternates take.
enum LanguageTag {
    /// Whether `tag` has a language tag's shape: a first subtag of two or three letters (a
    /// language), five to eight (a registered one), or `x` or `i` followed by more; then
    /// subtags of one to eight letters and digits, each after a `-`. So `en`, `pt-BR`,
    /// `zh-Hant-TW` and `x-default` are, and `fr_CA`, `e-GB` and `en-` are not.
    static func isWellFormed(_ tag: String) -> Bool { isWellFormed(tag.utf8) }

    /// `isWellFormed(_:)` of a tag's UTF-8 bytes, as a file name holds it (`apple.fr.md`).
    static func isWellFormed(_ tag: some Collection<UInt8>) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        // A language alone (`fr`), as most are, without splitting: content file names are
        // read for theirs on every page of a site in several languages.
        if tag.count <= 3 && !tag.contains(UInt8(ascii: "-")) {
            return tag.count >= 2 && tag.allSatisfy(isLetter)
        }
        let subtags = tag.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard let first = subtags.first, first.allSatisfy(isLetter) else { return false }
        switch first.count {
        case 2, 3, 5...8: break
        case 1 where "xXiI".utf8.contains(first[first.startIndex]) && subtags.count > 1: break
        default: return false
        }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { isLetter($0) || isDigit($0) }
        }
    }
}
