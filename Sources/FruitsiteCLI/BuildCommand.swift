import Foundation
import FruitsiteCore

/// `fruitsite build` and `fruitsite check`.
struct BuildCommand {
    var options = BuildOptions()
    var isCheck: Bool
    var isQuiet: Bool
    var isVerbose: Bool
    /// `check --strict`: warnings fail the check as errors do.
    var isStrict = false
    var wantsHelp: Bool
    /// See `CLI.endsProcess`.
    var endsProcess = false

    init(_ arguments: [String], check: Bool, endsProcess: Bool = false) throws(UsageError) {
        self.endsProcess = endsProcess
        var spec = ArgumentScanner.Spec(
            valueOptions: ["--content", "--templates", "--config"], flags: ["--drafts", "--quiet"])
        if check { spec.flags.append("--strict") }
        if !check {
            spec.valueOptions += ["--output", "--cache-dir"]
            spec.flags += ["--force", "--clean", "--verbose", "--wait"]
        }
        let scanner = try ArgumentScanner(arguments, spec: spec)
        if let extra = scanner.positionals.first {
            throw UsageError(message: "unexpected argument '\(extra)'")
        }
        options.contentDirectory = scanner.values["--content"] ?? options.contentDirectory
        options.templatesDirectory = scanner.values["--templates"] ?? options.templatesDirectory
        options.outputDirectory = scanner.values["--output"] ?? options.outputDirectory
        options.configPath = scanner.values["--config"]
        options.includeDrafts = scanner.has("--drafts")
        options.force = scanner.has("--force")
        options.clean = scanner.has("--clean")
        options.waitsForLock = scanner.has("--wait")
        if !check { options.cacheDirectory = scanner.values["--cache-dir"] ?? CLI.cacheDirectory }
        isCheck = check
        isQuiet = scanner.has("--quiet")
        isVerbose = scanner.has("--verbose")
        isStrict = scanner.has("--strict")
        wantsHelp = scanner.has("--help")
    }

    func run(on terminal: Terminal) -> CLI.ExitCode {
        if wantsHelp {
            terminal.standardOutput(HelpText.command(isCheck ? "check" : "build") ?? "")
            return .success
        }
        let start = Date()
        var builder = SiteBuilder(options: options)
        let progress = ProgressLine(terminal: terminal, start: start)
        if terminal.isInteractive && !isQuiet {
            builder.onProgress = { stage, done, total in
                progress.update(stage, done: done, total: total)
            }
        }
        let result = Result { () throws(BuildFailure) in
            isCheck ? try builder.check() : try builder.build()
        }
        progress.finish()
        if endsProcess, case .success(let rendering) = result {
            _ = Unmanaged.passRetained(Retained(rendering))
        }
        switch result {
        case .success(let rendering) where isStrict && !rendering.warnings.isEmpty:
            let errors = rendering.warnings.map { warning in
                var error = warning
                error.severity = .error
                return error
            }
            CLI.report(errors, on: terminal, outcome: "--strict makes warnings errors")
            return .failure
        case .success(let rendering):
            CLI.report(rendering.warnings, on: terminal)
            if isVerbose {
                for note in rendering.notes { terminal.printError("note: \(note)") }
                terminal.printError(
                    "note: parsed \(Self.count(rendering.parsed, "content file")), "
                        + "rendered or copied \(Self.count(rendering.rendered, "file"))")
            }
            let seconds = Self.twoDecimals(Date().timeIntervalSince(start))
            let htmlPages = rendering.htmlPageCount
            let fruits = rendering.fruitCount
            let categories = rendering.categoryCount
            let summary =
                "\(Self.count(htmlPages, "page")) (\(Self.count(fruits, "fruit")), "
                + "\(Self.count(categories, "category", plural: "categories")))"
            if isQuiet {
            } else if isCheck {
                terminal.print("No errors: \(summary) would be written, checked in \(seconds) s")
            } else {
                let written =
                    rendering.written.map { changes in
                        changes.isInPlace
                            ? " (a mount point: its contents were replaced)"
                            : changes.isWholeFolder
                                ? ""
                                : ", \(Self.count(changes.written, "file")) changed, "
                                    + "\(changes.removed) removed"
                    } ?? ""
                terminal.print(
                    "Built \(summary) into \(options.outputDirectory)/ in \(seconds) s\(written)")
            }
            return .success
        case .failure(let failure):
            CLI.report(
                failure.diagnostics, on: terminal, outcome: isCheck ? nil : "nothing was written")
            return .failure
        }
    }

    /// "1 file", "3 files"; "1 category", "3 categories" with the plural given.
    static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }

    /// A non-negative number with two decimals, as `%.2f` writes it: `String(format:)` casts
    /// its arguments through the runtime, about 800,000 instructions, 1% of a small rebuild.
    static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// Holds a value that is never released: see `CLI.endsProcess`.
private final class Retained<Value>: Sendable where Value: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
