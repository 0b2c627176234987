/// One file of the finished site, ready to write.
public struct RenderedPage: Sendable, Equatable {
    /// The path inside the output folder, such as `fruits/apple/index.html`.
    public var path: String
    /// The file's contents.
    public var bytes: [UInt8]

    /// Creates a page from raw bytes.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// Creates a page from text, stored as UTF-8.
    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }
}
