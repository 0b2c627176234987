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
