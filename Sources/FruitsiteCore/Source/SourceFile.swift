/// A content file as read from disk, before any parsing.
public struct SourceFile: Sendable {
    /// The path shown in diagnostics, such as `Content/citrus/lemon.md`.
    public var path: String
    /// The raw bytes; decoding is the parser's job, so it can report bad UTF-8 by line.
    public var bytes: [UInt8]

    /// Creates a source file.
    /// - Parameters:
    ///   - path: The path shown in diagnostics.
    ///   - bytes: The file's contents.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// The file name without `.md`: the fruit's slug.
    public var slug: String { String(Self.slug(of: path)) }

    /// The slug of the file at `path`, from its name alone. Found in the path's contiguous
    /// bytes: walking its UTF-8 view index by index cost milliseconds over ten thousand
    /// paths, which the sitemap and the duplicate check look at in every rebuild that adds,
    /// removes or renames a file.
    static func slug(of path: String) -> Substring {
        var contiguous = path
        let range = contiguous.withUTF8(slugRange)
        let utf8 = path.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return path[from..<utf8.index(from, offsetBy: range.count)]
    }

    /// Where the slug lies in a path's UTF-8 bytes: after the last `/`, without `.md`.
    static func slugRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = bytes.count
        while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
        let isMarkdown = Self.isMarkdown(UnsafeBufferPointer(rebasing: bytes[start...]))
        return start..<(isMarkdown ? bytes.count - 3 : bytes.count)
    }

    /// Whether a file name's UTF-8 bytes end in `.md`. Byte by byte: comparing with
    /// `".md".utf8` as a collection cost 700 instructions a name, more than listing it.
    static func isMarkdown(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = name.count
        return count >= 3 && name[count - 3] == UInt8(ascii: ".")
            && name[count - 2] == UInt8(ascii: "m") && name[count - 1] == UInt8(ascii: "d")
    }
}
