import Foundation
import FruitsiteCore

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
    /// The error that stopped writes to standard output, if one did: `CLI.run` turns it into
    /// the command's exit status once the command is done.
    public var outputError: @Sendable () -> SystemError?

    /// Creates a terminal from closures.
    public init(
        standardOutput: @escaping @Sendable (String) -> Void,
        standardError: @escaping @Sendable (String) -> Void,
        isInteractive: Bool,
        outputError: @escaping @Sendable () -> SystemError? = { nil }
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.isInteractive = isInteractive
        self.outputError = outputError
    }

    /// The process's own standard output and error.
    public static var process: Terminal {
        let output = StandardStream(descriptor: STDOUT_FILENO)
        // An error writing to standard error has nowhere to be told: its text is dropped.
        let error = StandardStream(descriptor: STDERR_FILENO)
        return Terminal(
            standardOutput: output.write, standardError: error.write,
            isInteractive: isatty(STDERR_FILENO) == 1, outputError: { output.error })
    }

    /// Prints one line to standard output.
    func print(_ line: String) { standardOutput(line + "\n") }

    /// Prints one line to standard error.
    func printError(_ line: String) { standardError(line + "\n") }
}

/// One of the process's standard streams, written with `write(2)`: a failed write is an
/// error to report, not a crash (Foundation's `FileHandle.write` traps on one), and after the
/// first, what is left to write is dropped, so a command writing into a closed pipe or a
/// full disk goes on to its end and its status says what became of its output.
final class StandardStream: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var firstError: SystemError?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The error that stopped the writes, if one did.
    var error: SystemError? { lock.withLock { firstError } }

    /// Writes all of `text`, unless a write failed before.
    func write(_ text: String) {
        lock.withLock {
            guard firstError == nil else { return }
            var text = text
            text.withUTF8 { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = systemWrite(
                        descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    guard written > 0 else {
                        if written < 0 && errno == EINTR { continue }
                        firstError = SystemError(code: written < 0 ? errno : EIO)
                        return
                    }
                    offset += written
                }
            }
        }
    }

    #if canImport(Glibc)
        private let systemWrite = Glibc.write
    #else
        private let systemWrite = Darwin.write
    #endif
}
