/// Every problem found while compiling a set of templates, so all can be fixed in one pass.
public struct MustacheErrors: Error, Sendable, CustomStringConvertible {
    /// The problems, sorted by template name, line and column.
    public var errors: [MustacheError]

    /// Creates the collection, sorting the errors by template name, line and column.
    /// - Parameter errors: The problems found.
    public init(errors: [MustacheError]) {
        self.errors = errors.sorted {
            ($0.template, $0.line, $0.column) < ($1.template, $1.line, $1.column)
        }
    }

    /// One error per line, each as `template:line:column: message`.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
