import Foundation
import FruitsiteCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `fruitsite` command line: dispatches to a command and turns failures into exit codes.
public struct CLI: Sendable {
    /// Where `build` keeps the site model, and `search` reads it, unless `--cache-dir` says.
    static let cacheDirectory = ".fruitsite-cache"

    /// Exit statuses, the same for every command.
    public enum ExitCode: Int32, Sendable {
        case success = 0
        /// The input has errors (content, templates, config) or the output could not be written.
        case failure = 1
        /// The command line itself is wrong.
        case usage = 2
        /// Standard output is a pipe whose reader has gone (`fruitsite search a | head -1`):
        /// the status a shell gives a process that SIGPIPE ended, 128 + 13, as git gives too,
        /// so it is the same whether or not the process ignores SIGPIPE.
        case outputClosed = 141
    }

    public static let version = Generator.version

    /// The most errors printed for one build; the rest are counted.
    static let diagnosticLimit = 50

    public var terminal: Terminal
    /// The process ends right after the command: a build then leaves its site model for the
    /// operating system to reclaim at once, instead of freeing it entry by entry (a twentieth
    /// of a one-edit rebuild's time at 100,000 fruits).
    public var endsProcess = false

    /// Creates the command line.
    /// - Parameter terminal: Where output goes.
    public init(terminal: Terminal = .process) {
        self.terminal = terminal
    }

    /// Runs one invocation.
    /// - Parameter arguments: The arguments after the program name.
    /// - Returns: The exit status: the command's, unless its output could not be written.
    public func run(_ arguments: [String]) -> ExitCode {
        let code = runCommand(arguments)
        // After the command, not at the failed write: what it does (an entry written, a site
        // built) is done or not as it would be, and only then does its status say more.
        guard let error = terminal.outputError() else { return code }
        // A reader that stopped reading wants no more, and no message, as from grep.
        if error.code == EPIPE { return .outputClosed }
        terminal.printError("error: could not write to standard output: \(error)")
        return .failure
    }

    private func runCommand(_ arguments: [String]) -> ExitCode {
        guard let name = arguments.first else {
            terminal.standardError(HelpText.main)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "-h", "--help", "help":
            guard rest.count <= 1 else { return usage("help takes one command at most") }
            guard let topic = rest.first else {
                terminal.standardOutput(HelpText.main)
                return .success
            }
            guard let text = topic == "help" ? HelpText.main : HelpText.command(topic) else {
                return unknown(topic)
            }
            terminal.standardOutput(text)
            return .success
        case "--version":
            guard rest.isEmpty else { return usage("--version takes no argument") }
            terminal.print("fruitsite \(Self.version)")
            return .success
        case "build", "check", "search", "serve", "new", "init":
            do {
                return try run(command: name, rest)
            } catch {
                terminal.printError("error: \(error.message)")
                terminal.printError("usage: \(HelpText.usage(name))")
                terminal.printError("see 'fruitsite \(name) --help'")
                return .usage
            }
        default:
            return unknown(name)
        }
    }

    private func unknown(_ command: String) -> ExitCode {
        var message = "unknown command '\(command)'"
        if let guess = Suggestion.closest(to: command, in: HelpText.commands, maximumDistance: 2) {
            message += "; did you mean '\(guess)'?"
        }
        return usage(message)
    }

    private func usage(_ message: String) -> ExitCode {
        terminal.printError("error: \(message)")
        terminal.printError("see 'fruitsite --help'")
        return .usage
    }

    private func run(command: String, _ arguments: [String]) throws(UsageError) -> ExitCode {
        switch command {
        case "build":
            try BuildCommand(arguments, check: false, endsProcess: endsProcess).run(on: terminal)
        case "check":
            try BuildCommand(arguments, check: true, endsProcess: endsProcess).run(on: terminal)
        case "serve": try ServeCommand(arguments).run(on: terminal)
        case "new": try NewCommand(arguments, kind: .entry).run(on: terminal)
        case "init": try NewCommand(arguments, kind: .site).run(on: terminal)
        default: try SearchCommand(arguments).run(on: terminal)
        }
    }

    /// Prints diagnostics to standard error (see `describe`).
    static func report(_ diagnostics: [Diagnostic], on terminal: Terminal, outcome: String? = nil) {
        for text in describe(diagnostics, outcome: outcome) { terminal.printError(text) }
    }

    /// Each diagnostic with the line it points at, at most `diagnosticLimit` errors, then a
    /// count of the errors and what became of the build, if it would build: what the terminal
    /// prints, and what `serve` shows in the page.
    static func describe(_ diagnostics: [Diagnostic], outcome: String?) -> [String] {
        let errors = diagnostics.filter(\.isError)
        var printedErrors = 0
        var texts: [String] = []
        var sources: [String: String?] = [:]
        let source = { (path: String) -> String? in
            if let known = sources[path] { return known }
            let text = Self.readSmallFile(path)
            sources[path] = text
            return text
        }
        for diagnostic in diagnostics {
            if diagnostic.isError {
                printedErrors += 1
                if printedErrors > diagnosticLimit { continue }
            }
            texts.append(diagnostic.described(source: source))
        }
        if errors.count > diagnosticLimit {
            texts.append("… and \(errors.count - diagnosticLimit) more errors")
        }
        if !errors.isEmpty {
            let count = "\(errors.count) error\(errors.count == 1 ? "" : "s")"
            texts.append(outcome.map { count + "; " + $0 } ?? count)
        }
        return texts
    }

    /// A source file's text, for the line a diagnostic shows; nil for a file that is not
    /// a regular file of at most 4 MB, or not UTF-8.
    private static func readSmallFile(_ path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? Int, size <= 4 << 20
        else { return nil }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }
}
