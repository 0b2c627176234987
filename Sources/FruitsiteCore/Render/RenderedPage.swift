/// One file of the finished site, ready to write.
public struct RenderedPage: Sendable, Equatable {
    /// The path inside the output folder, such as `fruits/apple/index.html`.
    public var path: String
    /// The file's contents; empty when `isUnchanged`.
    public var bytes: [UInt8]
    /// The hash of what produced the page (theme, template and data), or nil for files that
    /// are not rendered from a template.
    public var inputHash: UInt64?
    /// The previous build made this page from the same inputs, so it was not rendered again
    /// and the file in the output folder stays as it is.
    public var isUnchanged = false

    /// Creates a page from raw bytes.
    public init(path: String, bytes: [UInt8], inputHash: UInt64? = nil) {
        self.path = path
        self.bytes = bytes
        self.inputHash = inputHash
    }

    /// Creates a page from text, stored as UTF-8.
    public init(path: String, text: String, inputHash: UInt64? = nil) {
        self.init(path: path, bytes: Array(text.utf8), inputHash: inputHash)
    }

    /// A page the previous build already wrote from the same inputs.
    static func unchanged(path: String, inputHash: UInt64) -> RenderedPage {
        var page = RenderedPage(path: path, bytes: [], inputHash: inputHash)
        page.isUnchanged = true
        return page
    }
}
