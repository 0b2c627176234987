import Foundation
@testable import FruitsiteCLI
import TestSupport
import Testing

/// Each command's page in `docs/reference/` gives its usage line as `--help` prints it, and a
/// row for every option `--help` lists; `fruitsite --help`'s own options are in `cli.md`.
@Suite struct HelpReferenceTests {
    static func page(_ name: String) -> String {
        repositoryRoot + "/docs/reference/\(name).md"
    }

    @Test(arguments: HelpText.commands.filter { $0 != "help" })
    func everyOptionOfTheHelpHasARow(_ command: String) throws {
        let (code, capture) = Capture.run([command, "--help"])
        #expect(code == .success)
        let path = Self.page(command)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(HelpText.usage(command)), "\(path) lacks the usage line")
        let missing = try Self.missingOptions(of: capture.standardOutput, in: path)
        #expect(missing.isEmpty, "\(path) has no row for \(missing)")
    }

    @Test func everyOptionOfTheMainHelpHasARow() throws {
        let (_, capture) = Capture.run(["--help"])
        let missing = try Self.missingOptions(of: capture.standardOutput, in: Self.page("cli"))
        #expect(missing.isEmpty, "docs/reference/cli.md has no row for \(missing)")
    }

    /// The options `help` lists (`-h`, `--help`, `--content` …, `--`) that no row of the page
    /// names first in a code span of its first cell (`--content DIR`, `-h`).
    /// - Throws: The error of reading the page.
    static func missingOptions(of help: String, in path: String) throws -> [String] {
        let rows = try MarkdownTables(path: path).rows
        let documented = Set(
            rows.flatMap(\.names).compactMap {
                $0.split(whereSeparator: { $0 == " " || $0 == "=" }).first
            }
            .map(String.init))
        return options(in: help).filter { !documented.contains($0) }
    }

    /// The options of the help's OPTIONS list: the names at the start of each line indented
    /// by two spaces (`  -h, --help   Show help`); a description's next lines are indented more.
    static func options(in help: String) -> [String] {
        guard let list = help.range(of: "\nOPTIONS:\n") else { return [] }
        var names: [String] = []
        for line in help[list.upperBound...].split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            if line.isEmpty { break }
            guard let start = line.wholeMatch(of: /\ {2}(-[^ ].*?)(?:  +.*)?/)?.1 else { continue }
            for name in start.split(separator: ",") {
                guard let option = name.split(separator: " ").first, option.hasPrefix("-")
                else { break }
                names.append(String(option))
            }
        }
        return names
    }
}
