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
            // Split as scalars: as characters, `\r\n` is one, and a CRLF file one line.
            let lines = file.unicodeScalars.split(
                separator: "\n", omittingEmptySubsequences: false)
            if line <= lines.count {
                var scalars = Array(lines[line - 1])
                if scalars.last == "\r" { scalars.removeLast() }
                // A long line is shown around the column, as far as fits a terminal's width.
                let column = location.column.flatMap { $0 > 0 ? min($0, scalars.count + 1) : nil }
                let start = max(
                    0,
                    min(
                        (column ?? 1) - 1 - Self.excerptWidth / 2,
                        scalars.count - Self.excerptWidth))
                let end = min(scalars.count, start + Self.excerptWidth)
                let shown = scalars[start..<end].map(Self.printable).joined()
                let number = String(line)
                let gutter = String(repeating: " ", count: number.count)
                let (opening, closing) = (start > 0 ? "…" : "", end < scalars.count ? "…" : "")
                text += "\n    \(number) | \(opening)\(shown)\(closing)"
                if let column {
                    // As wide as what it stands under, so the caret lines up.
                    let before = scalars[start..<(column - 1)].map {
                        String(repeating: " ", count: Self.printable($0).count)
                    }.joined()
                    text += "\n    \(gutter) | \(opening.isEmpty ? "" : " ")\(before)^"
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

    /// Whether every error is a file that changed while the build read it: reading it again,
    /// once the change that raced the build has settled, mends them.
    public var isOnlyFilesChangedMeanwhile: Bool {
        let errors = diagnostics.filter(\.isError)
        return !errors.isEmpty
            && errors.allSatisfy { $0.message == ContentScanner.changedMeanwhile }
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

extension Diagnostic {
    /// How many characters of a line an excerpt shows at most.
    static let excerptWidth = 120

    /// A character of a shown line as a terminal can print it: a tab as four spaces, and a
    /// control character (which could move the cursor or change colours) as its symbol,
    /// such as ␛ for escape.
    fileprivate static func printable(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x09: "    "
        case 0x00..<0x20: String(Unicode.Scalar(0x2400 + scalar.value)!)
        case 0x7F: "\u{2421}"
        case 0x80..<0xA0: "\u{FFFD}"
        default: String(scalar)
        }
    }
}
