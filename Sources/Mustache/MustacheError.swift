/// A problem in a template, found while compiling or rendering it, with its position.
///
/// Lines and columns are 1-based; columns count `Character`s (grapheme clusters), so an
/// emoji or an accented letter is one column, as an editor shows it.
public struct MustacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A 1-based line and column in a template.
    public struct Position: Sendable, Hashable {
        /// The 1-based line.
        public var line: Int
        /// The 1-based column, counted in `Character`s.
        public var column: Int

        /// Creates a position.
        /// - Parameters:
        ///   - line: The 1-based line.
        ///   - column: The 1-based column, counted in `Character`s.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// A tag opened with a delimiter was never closed by `expected`, such as `}}`.
        case unclosedTag(expected: String)
        /// A tag holds no name, such as `{{}}` or `{{# }}`.
        case emptyTagName
        /// A name holds whitespace or an empty dotted part, such as `{{a b}}` or `{{a..b}}`.
        case invalidTagName(String)
        /// A set-delimiters tag does not hold two delimiters, such as `{{=<%%>=}}`.
        case invalidDelimiters(String)
        /// A section, inverted section, parent or block was never closed.
        case unclosedSection(String)
        /// A closing tag names a different section than the innermost open one.
        case mismatchedClosingTag(expected: String, found: String)
        /// A closing tag has no open section to close.
        case unexpectedClosingTag(String)
        /// A partial tag names a template the library does not have.
        case unknownPartial(String)
        /// A parent tag names a template the library does not have.
        case unknownParent(String)
        /// Partials, parents or blocks nest deeper than the bound; holds the repeating chain.
        case recursionTooDeep([String])
        /// Sections, parents and blocks nest deeper than the bound within one template.
        case nestingTooDeep
        /// `render` was asked for a template the library does not have.
        case unknownTemplate(String)
        /// The output grew past the size limit `render` was given, in bytes.
        case outputTooLarge(limit: Int)
    }

    /// What went wrong.
    public var reason: Reason
    /// The name of the template the problem is in.
    public var template: String
    /// The 1-based line of the problem, or 0 when it has no position (`unknownTemplate`).
    public var line: Int
    /// The 1-based column of the problem in `Character`s, or 0 when it has no position.
    public var column: Int
    /// Where the section was opened, for unclosed and mismatched sections.
    public var openedAt: Position?
    /// A suggestion for fixing the problem, such as a template name with a similar spelling.
    public var hint: String?

    /// Creates an error.
    /// - Parameters:
    ///   - reason: What went wrong.
    ///   - template: The name of the template the problem is in.
    ///   - line: The 1-based line, or 0 when there is no position.
    ///   - column: The 1-based column in `Character`s, or 0 when there is no position.
    ///   - openedAt: Where the section was opened, for unclosed and mismatched sections.
    ///   - hint: A suggestion for fixing the problem.
    public init(
        _ reason: Reason,
        template: String,
        line: Int,
        column: Int,
        openedAt: Position? = nil,
        hint: String? = nil
    ) {
        self.reason = reason
        self.template = template
        self.line = line
        self.column = column
        self.openedAt = openedAt
        self.hint = hint
    }

    /// The problem in words, without the position: `unclosed section 'items' (opened at 3:1)`.
    public var message: String {
        let opened = openedAt.map { " (opened at \($0.line):\($0.column))" } ?? ""
        switch reason {
        case .unclosedTag(let expected):
            return "unclosed tag: expected '\(expected)'"
        case .emptyTagName:
            return "empty tag name"
        case .invalidTagName(let name) where name.contains(where: \.isNewline):
            // Most likely a tag whose closing delimiter is missing, which took in the text up
            // to the next tag's: its first line is what the reader wrote.
            return "invalid tag name '\(name.prefix { !$0.isNewline })…': the tag runs onto the "
                + "next line; is its closing delimiter missing?"
        case .invalidTagName(let name):
            return "invalid tag name '\(name)': names hold no whitespace or empty dotted parts"
        case .invalidDelimiters(let content):
            return "invalid delimiters '\(content)': expected two delimiters such as {{=<% %>=}}"
        case .unclosedSection(let name):
            return "unclosed section '\(name)'\(opened)"
        case .mismatchedClosingTag(let expected, let found):
            return "closing tag '\(found)' does not match open section '\(expected)'\(opened)"
        case .unexpectedClosingTag(let name):
            return "closing tag '\(name)' has no open section"
        case .unknownPartial(let name):
            return "unknown partial '\(name)'"
        case .unknownParent(let name):
            return "unknown parent template '\(name)'"
        case .recursionTooDeep(let chain):
            return "partials nest deeper than \(Renderer.maximumDepth) levels: "
                + chain.joined(separator: " > ")
        case .nestingTooDeep:
            return "sections nest deeper than \(Parser.maximumNesting) levels"
        case .unknownTemplate(let name):
            return "unknown template '\(name)'"
        case .outputTooLarge(let limit):
            return "the rendered output grew past \(limit) bytes"
        }
    }

    /// The error as `template:line:column: message`, the form editors and terminals link.
    public var description: String {
        line > 0 ? "\(template):\(line):\(column): \(message)" : "\(template): \(message)"
    }
}
