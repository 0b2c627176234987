/// Where a request target points inside the site, decided from the text alone: the site is
/// served from memory, so no spelling of a path can reach a file outside it, and spellings
/// that try are refused outright.
public enum RequestPath: Equatable, Sendable {
    /// A path inside the site, relative to its root, without a leading slash (`""` is the
    /// root, `fruits/apple/` a folder, `assets/site.css` a file); `query` includes its `?`.
    case site(String, query: String)
    /// The server root, or the base path without its final slash, while the site lives
    /// under a base path: redirect there, with the query.
    case basePath(query: String)
    /// Any other path outside the base path.
    case outsideBasePath
    /// A target no honest client sends: answer 400.
    case refused

    /// Resolves `target` against the site mounted at `basePath` (`/` or `/sub/path/`).
    public init(target: String, basePath: String) {
        // Origin form only: `*` and absolute-form targets (`http://host/…`) are refused.
        guard target.hasPrefix("/") else {
            self = .refused
            return
        }
        var rawPath = Substring(target)
        var query = ""
        if let mark = rawPath.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            if rawPath[mark] == "?" {
                query = String(rawPath[mark...].prefix { $0 != "#" })
            }
            rawPath = rawPath[..<mark]
        }
        guard let path = Self.percentDecoded(rawPath) else {
            self = .refused
            return
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        // `.`, `..` and backslashes (a separator on some systems) are refused in every
        // spelling: percent-decoding happens once, above, so `%2e%2e` arrives here as `..`,
        // and `%252e` as the harmless name `%2e`.
        guard !path.contains("\\"), !segments.contains(where: { $0 == "." || $0 == ".." }) else {
            self = .refused
            return
        }
        guard path.hasPrefix(basePath) else {
            self =
                path == "/" || path + "/" == basePath ? .basePath(query: query) : .outsideBasePath
            return
        }
        self = .site(String(path.dropFirst(basePath.count)), query: query)
    }

    /// `path` as a URI path: each byte but the letters, digits and `-._~!$&'()*+,;=:@/`
    /// written `%XX`, so that a `Location` holds the name a request decodes back.
    public static func encoded(_ path: String) -> String {
        let kept = Set("-._~!$&'()*+,;=:@/".utf8)
        var text = ""
        for byte in path.utf8 {
            if byte < 0x80,
                (Character(Unicode.Scalar(byte)).isLetter
                    || Character(Unicode.Scalar(byte)).isNumber || kept.contains(byte))
            {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true)
                    + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return text
    }

    /// `%XX` decoded once; nil for a malformed escape, an encoded slash or backslash, a NUL
    /// byte or invalid UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue),
                let low = iterator.next().flatMap(hexValue),
                // `%2F` would be a slash inside a segment, which no file name holds, and
                // `%5C` one on some systems: either is refused, not read as a separator.
                high << 4 | low != UInt8(ascii: "/"), high << 4 | low != UInt8(ascii: "\\")
            else { return nil }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
