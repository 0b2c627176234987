/// A 1-based position in a file, with the path relative to the site root.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file, relative to the site root (for example `Content/apple.md`).
    public var path: String
    /// The 1-based line, or nil when the problem concerns the whole file.
    public var line: Int?
    /// The 1-based column in Unicode scalars, or nil when only the line is known.
    public var column: Int?

    /// Creates a location.
    /// - Parameters:
    ///   - path: The file, relative to the site root.
    ///   - line: The 1-based line.
    ///   - column: The 1-based column.
    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, leaving out what is unknown.
    public var description: String {
        switch (line, column) {
        case (let line?, let column?): "\(path):\(line):\(column)"
        case (let line?, nil): "\(path):\(line)"
        default: path
        }
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line ?? 0, lhs.column ?? 0) < (rhs.path, rhs.line ?? 0, rhs.column ?? 0)
    }
}
