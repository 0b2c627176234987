import FruitsiteCore

/// The `fruitsite` command line: dispatches to a command and turns failures into exit codes.
public struct CLI: Sendable {
    /// Exit statuses, the same for every command.
    public enum ExitCode: Int32, Sendable {
        case success = 0
        /// The input has errors (content, templates, config) or the output could not be written.
        case failure = 1
        /// The command line itself is wrong.
        case usage = 2
    }

    public static let version = Generator.version

    /// The most errors printed for one build; the rest are counted.
    static let diagnosticLimit = 50

    public var terminal: Terminal
    /// The process ends right after the command: a build then leaves its pages and catalog
    /// for the operating system to reclaim at once, instead of freeing them piece by piece
    /// (a tenth of a rebuild's time).
    public var endsProcess = false

    /// Creates the command line.
    /// - Parameter terminal: Where output goes.
    public init(terminal: Terminal = .process) {
        self.terminal = terminal
    }

    /// Runs one invocation.
    /// - Parameter arguments: The arguments after the program name.
    /// - Returns: The exit status.
    public func run(_ arguments: [String]) -> ExitCode {
        guard let name = arguments.first else {
            terminal.standardError(HelpText.main)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "-h", "--help", "help":
            if let topic = rest.first, let text = HelpText.command(topic) {
                terminal.standardOutput(text)
            } else {
                terminal.standardOutput(HelpText.main)
            }
            return .success
        case "--version":
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
            var message = "error: unknown command '\(name)'"
            if let guess = Suggestion.closest(to: name, in: HelpText.commands, maximumDistance: 2) {
                message += "; did you mean '\(guess)'?"
            }
            terminal.printError(message)
            terminal.printError("see 'fruitsite --help'")
            return .usage
        }
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

    /// Prints diagnostics to standard error, at most `diagnosticLimit` errors, then a count.
    static func report(
        _ diagnostics: [Diagnostic], on terminal: Terminal, outcome: String = "nothing was written"
    ) {
        let errors = diagnostics.filter(\.isError)
        var printedErrors = 0
        for diagnostic in diagnostics {
            if diagnostic.isError {
                printedErrors += 1
                if printedErrors > diagnosticLimit { continue }
            }
            terminal.printError(diagnostic.description)
        }
        if errors.count > diagnosticLimit {
            terminal.printError("… and \(errors.count - diagnosticLimit) more errors")
        }
        if !errors.isEmpty {
            terminal.printError(
                "\(errors.count) error\(errors.count == 1 ? "" : "s"); \(outcome)")
        }
    }
}
