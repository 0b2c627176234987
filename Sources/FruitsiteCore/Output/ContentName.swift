/// Names a published file by its bytes: `assets/site.css` is also published as
/// `assets/site.k3j5h2a9.css`, so that a name, once published, always means the same bytes.
/// A host may then cache such a file for good, and a page open across a deploy never reads
/// one build's file under another build's name.
public enum ContentName {
    /// How many characters a stamp has: 8 of base32, the low 40 bits of a 64-bit hash, so that
    /// two versions of one file share a name once in a trillion.
    public static let stampLength = 8

    /// The lowercase base32 alphabet (RFC 4648's, lowercased): a name differs from another
    /// in more than case, which a case-insensitive file system or host would fold.
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// The stamp of a file whose bytes hash to `hash`: 8 characters of `[a-z2-7]`.
    public static func stamp(_ hash: UInt64) -> String {
        var bytes = [UInt8](repeating: 0, count: stampLength)
        for index in 0..<stampLength {
            bytes[index] = alphabet[Int((hash >> UInt64(5 * (stampLength - 1 - index))) & 31)]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `path` with the stamp of `hash` before its last extension: `assets/site.css` →
    /// `assets/site.<stamp>.css`, `search/grams/7.json` → `search/grams/7.<stamp>.json`; a
    /// name without an extension gets the stamp at its end.
    public static func path(_ path: String, hash: UInt64) -> String {
        let name = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[name...].lastIndex(of: "."), dot > name else {
            return path + "." + stamp(hash)
        }
        return path[..<dot] + "." + stamp(hash) + path[dot...]
    }

    /// Whether the last part of `path`'s name (before its extension, if it has one) is a
    /// stamp, as `path(_:hash:)` puts there.
    public static func isStamped(_ path: String) -> Bool {
        stampRange(in: path) != nil
    }

    /// `path` without the stamp `path(_:hash:)` put in it; `path` itself when it has none.
    public static func unstamped(_ path: String) -> String {
        guard let range = stampRange(in: path) else { return path }
        var bytes = Array(path.utf8)
        bytes.removeSubrange(range)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Where a stamp lies in `path`'s UTF-8 bytes, with the dot before it: between the last
    /// two dots of the name, or after its last dot when it has one (a leading dot starts a
    /// name, `.hidden`, and parts nothing). Byte by byte: a build looks at every search
    /// file's name, and doing it by characters cost 40,000 instructions a name.
    private static func stampRange(in path: String) -> Range<Int>? {
        let bytes = Array(path.utf8)
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        let name = (bytes.lastIndex(of: slash) ?? -1) + 1
        guard let last = bytes[name...].lastIndex(of: dot), last > name else { return nil }
        let before = bytes[(name + 1)..<last].lastIndex(of: dot)
        let stamp = before.map { ($0 + 1)..<last } ?? (last + 1)..<bytes.count
        guard stamp.count == stampLength, bytes[stamp].allSatisfy(alphabet.contains) else {
            return nil
        }
        return before.map { $0..<last } ?? last..<bytes.count
    }
}
