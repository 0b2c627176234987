import Foundation

/// One problem found in the user's input, printed like a compiler's message.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad the problem is.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    public var severity: Severity
    public var location: SourceLocation
    public var message: String
    /// An optional suggestion, printed on its own `hint:` line.
    public var hint: String?

    /// Creates a diagnostic.
    /// - Parameters:
    ///   - severity: Error or warning.
    ///   - location: Where the problem is.
    ///   - message: What is wrong, in one sentence without a trailing period.
    ///   - hint: How to fix it, when we can tell.
    public init(
        _ severity: Severity, at location: SourceLocation, _ message: String, hint: String? = nil
    ) {
        self.severity = severity
        self.location = location
        self.message = message
        self.hint = hint
    }

    /// Creates an error diagnostic.
    public static func error(
        at location: SourceLocation, _ message: String, hint: String? = nil
    ) -> Diagnostic {
        Diagnostic(.error, at: location, message, hint: hint)
    }

    /// Creates a warning diagnostic.
    public static func warning(
        at location: SourceLocation, _ message: String, hint: String? = nil
    ) -> Diagnostic {
        Diagnostic(.warning, at: location, message, hint: hint)
    }

    public var isError: Bool { severity == .error }

    /// `path:line:col: error: message`, then `hint: …` when there is one.
    public var description: String {
        var text = "\(location): \(severity.rawValue): \(message)"
        if let hint { text += "\n  hint: \(hint)" }
        return text
    }

    /// The description with the line it points at and a caret under the column, as
    /// compilers print them, when `source` gives the file's text:
    ///
    ///     Content/bad.md:3:7: error: invalid YAML: …
    ///         3 | name: [
    ///           |       ^
    public func described(source: (String) -> String?) -> String {
        var text = "\(location): \(severity.rawValue): \(message)"
        if let line = location.line, line > 0, let file = source(location.path) {
            let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
            if line <= lines.count {
                let shown = lines[line - 1].replacingTabs
                let number = String(line)
                let gutter = String(repeating: " ", count: number.count)
                text += "\n    \(number) | \(shown)"
                if let column = location.column, column > 0 {
                    // Columns count scalars; keep the tabs before the caret so it lines up.
                    let before = lines[line - 1].unicodeScalars.prefix(column - 1).map {
                        $0 == "\t" ? "    " : " "
                    }.joined()
                    text += "\n    \(gutter) | \(before)^"
                }
            }
        }
        if let hint { text += "\n  hint: \(hint)" }
        return text
    }
}

/// A build step failed; every diagnostic it collected is attached, errors and warnings alike.
public struct BuildFailure: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    /// Creates a failure from the diagnostics collected so far.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains(where: \.isError) }

    /// Sorted by file, line and column, so output is stable whatever order threads finished in.
    public func sortedByLocation() -> [Diagnostic] {
        sorted { ($0.location, $0.message) < ($1.location, $1.message) }
    }
}

extension Substring {
    /// Tabs as four spaces, so a caret under a column lines up in any terminal.
    fileprivate var replacingTabs: String {
        String(self).replacingOccurrences(of: "\t", with: "    ")
    }
}
