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
        var parts = path.split(separator: "/").last?.split(separator: ".") ?? []
        if parts.count > 2 { parts.removeLast() }
        guard parts.count >= 2, let stamp = parts.last else { return false }
        return stamp.utf8.count == stampLength && stamp.utf8.allSatisfy(alphabet.contains)
    }

    /// `path` without the stamp `path(_:hash:)` put in it; `path` itself when it has none.
    public static func unstamped(_ path: String) -> String {
        guard isStamped(path) else { return path }
        let name = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        // A leading dot starts a name (`.hidden`); the others part it.
        let dots = path[name...].indices.filter { path[$0] == "." && $0 > name }
        // The stamp is between the last two dots, or after the last when there is one.
        return dots.count >= 2
            ? String(path[..<dots[dots.count - 2]] + path[dots[dots.count - 1]...])
            : String(path[..<dots[0]])
    }
}
