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
    public var slug: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".md") ? String(name.dropLast(3)) : name
    }
}
