/// Every file of a rendered site, by its path inside the output folder: what the paths links
/// lead to are looked up in, the way a static server finds the file of an address.
struct SitePaths: Sendable {
    let paths: Set<String>

    /// The file a path of the site serves: itself, or the `index.html` of a folder.
    /// - Parameter path: A path inside the site, its escapes decoded, without a leading `/`.
    func file(at path: [UInt8]) -> String? {
        func file(_ bytes: [UInt8]) -> String? {
            let file = String(decoding: bytes, as: UTF8.self)
            return paths.contains(file) ? file : nil
        }
        if path.isEmpty || path.last == UInt8(ascii: "/") {
            return file(path + "index.html".utf8)
        }
        // A folder without its final slash: servers redirect to it.
        return file(path) ?? file(path + "/index.html".utf8)
    }

    /// Whether the link starts with a scheme: a letter, then letters, digits, `+`, `-` or `.`,
    /// then a colon.
    static func hasScheme(_ link: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        guard let first = link.first, isLetter(first) else { return false }
        let scheme = link.prefix {
            isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || "+-.".utf8.contains($0)
        }
        return scheme.endIndex < link.endIndex && link[scheme.endIndex] == UInt8(ascii: ":")
    }
}
