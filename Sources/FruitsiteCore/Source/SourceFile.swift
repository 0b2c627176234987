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

    /// The slug of the file at `path`, from its name alone. By UTF-8 bytes: ten thousand
    /// paths walked by characters cost milliseconds.
    static func slug(of path: String) -> Substring {
        let utf8 = path.utf8
        let start = utf8.lastIndex(of: UInt8(ascii: "/")).map(utf8.index(after:)) ?? utf8.startIndex
        var end = utf8.endIndex
        if utf8.distance(from: start, to: end) >= 3,
            utf8[utf8.index(end, offsetBy: -3)...].elementsEqual(".md".utf8)
        {
            end = utf8.index(end, offsetBy: -3)
        }
        return path[start..<end]
    }
}
