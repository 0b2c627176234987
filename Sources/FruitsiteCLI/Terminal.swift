import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes: results to standard output, diagnostics and progress to standard
/// error. Closures, so tests can capture both.
public struct Terminal: Sendable {
    public var standardOutput: @Sendable (String) -> Void
    public var standardError: @Sendable (String) -> Void
    /// Whether standard error is a terminal: progress is shown only then.
    public var isInteractive: Bool

    /// Creates a terminal from closures.
    public init(
        standardOutput: @escaping @Sendable (String) -> Void,
        standardError: @escaping @Sendable (String) -> Void,
        isInteractive: Bool
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.isInteractive = isInteractive
    }

    /// The process's own standard output and error.
    public static var process: Terminal {
        Terminal(
            standardOutput: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            standardError: { text in FileHandle.standardError.write(Data(text.utf8)) },
            isInteractive: isatty(STDERR_FILENO) == 1)
    }

    /// Prints one line to standard output.
    func print(_ line: String) { standardOutput(line + "\n") }

    /// Prints one line to standard error.
    func printError(_ line: String) { standardError(line + "\n") }
}
