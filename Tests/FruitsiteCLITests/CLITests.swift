import Foundation
@testable import FruitsiteCLI
import TestSupport
import Testing

/// Runs the command line in-process and captures what it prints.
final class Capture: @unchecked Sendable {
    private let lock = NSLock()
    private var out = ""
    private var err = ""

    var standardOutput: String { lock.withLock { out } }
    var standardError: String { lock.withLock { err } }

    var terminal: Terminal {
        Terminal(
            standardOutput: { text in self.lock.withLock { self.out += text } },
            standardError: { text in self.lock.withLock { self.err += text } },
            isInteractive: false)
    }

    static func run(_ arguments: [String]) -> (CLI.ExitCode, Capture) {
        let capture = Capture()
        let code = CLI(terminal: capture.terminal).run(arguments)
        return (code, capture)
    }
}

@Suite struct CLITests {
    // MARK: - Help, snapshotted

    @Test(arguments: [
        ["--help"], ["build", "--help"], ["check", "--help"], ["serve", "--help"],
        ["search", "--help"], ["new", "--help"], ["init", "--help"],
        ["help", "search"],
    ])
    func helpMatchesItsSnapshot(_ arguments: [String]) throws {
        let (code, capture) = Capture.run(arguments)
        #expect(code == .success)
        #expect(capture.standardError.isEmpty)
        let name =
            "help-" + arguments.joined(separator: "-").replacingOccurrences(of: "--", with: "")
            + ".txt"
        let path = repositoryRoot + "/Tests/FruitsiteCLITests/Snapshots/" + name
        if ProcessInfo.processInfo.environment["FRUITSITE_RECORD"] == "1" {
            try Data(capture.standardOutput.utf8).write(to: URL(fileURLWithPath: path))
            Issue.record("recorded \(name)")
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(capture.standardOutput == expected)
    }

    // MARK: - Usage errors exit 2 on stderr

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["biuld"], "did you mean 'build'?"),
        (["build", "--ouput", "x"], "did you mean '--output'?"),
        (["build", "--output"], "option '--output' needs a value"),
        (["search", "a", "b"], "expected one search text, got 2"),
        (["check", "--output", "x"], "unknown option '--output'"),
        // An option is no value: not a folder named `--quiet`.
        (["build", "--output", "--quiet"], "written --output=VALUE"),
        (["build", "--output", ""], "option '--output' needs a value, not an empty one"),
        (["serve", "--host", ""], "option '--host' needs a value, not an empty one"),
        (["serve", "--base-path", "/a%2Fb/"], "--base-path must be a URL path"),
        (["serve", "--allow-host", "a b"], "--allow-host must be a host name"),
        (["new", "Fig", "--category", "", "--content", "x"], "not an empty one"),
        (["help", "nope"], "unknown command 'nope'"),
        (["help", "build", "serve"], "help takes one command at most"),
        (["--version", "x"], "--version takes no argument"),
        ([], "USAGE: fruitsite <command>"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) {
        let (code, capture) = Capture.run(arguments)
        #expect(code == .usage)
        #expect(capture.standardOutput.isEmpty)
        #expect(capture.standardError.contains(message), "\(capture.standardError)")
    }

    // MARK: - serve

    /// A base path is spelt as a URL path, escapes and all (as `baseURL` writes one), and
    /// refused as a request target would be.
    @Test func aBasePathIsAURLPath() throws {
        #expect(try ServeCommand.basePath("fruits") == "/fruits/")
        #expect(try ServeCommand.basePath("/a//b") == "/a/b/")
        #expect(try ServeCommand.basePath("/") == "/")
        #expect(try ServeCommand.basePath("/fr%C3%BCchte/") == "/früchte/")
        #expect(try ServeCommand.basePath("/fruits+veg/") == "/fruits+veg/")
        for bad in [
            "/a/../b/", "/%2e%2e/", "/x?y", "/x#y", "/%zz/", "/a%00b/", "/a%0Ab/", "/a\\b/",
            "/a%2Fb/", "/a%2fb/", "/a%5Cb/",
        ] {
            #expect(throws: UsageError.self, "\(bad)") { try ServeCommand.basePath(bad) }
        }
    }

    // MARK: - search

    @Test func searchPrintsNamesInCatalogOrder() {
        let (code, capture) = Capture.run([
            "search", "--content", repositoryRoot + "/Content", "--config", Sample.configPath,
            "berr",
        ])
        #expect(code == .success)
        let names = capture.standardOutput.split(separator: "\n")
        #expect(names.contains("Blueberry") && names.contains("Strawberry"))
        #expect(names == names.sorted { $0.lowercased() < $1.lowercased() })
    }

    /// The search box cannot hold a line break, and drops one from a shared address's `q`:
    /// so does `search`.
    @Test func searchDropsLineBreaksAsTheSearchBoxDoes() {
        let search = { (text: String) in
            Capture.run([
                "search", "--content", repositoryRoot + "/Content", "--config", Sample.configPath,
                text,
            ]).1.standardOutput
        }
        let berries = search("berr")
        #expect(berries.contains("Strawberry"))
        for text in ["be\nrr", "b\r\nerr", "\rberr\n"] {
            #expect(search(text) == berries, "\(text.debugDescription)")
        }
    }

    /// No text is the empty search box, which shows every fruit the other filters keep, in
    /// the same order and format as any search.
    @Test func searchWithoutTextListsWhatAnEmptySearchBoxShows() {
        let sample = [
            "search", "--content", repositoryRoot + "/Content", "--config", Sample.configPath,
        ]
        for filters in [[], ["--category", "Citrus"], ["--facet", "vitamins=K"], ["--json"]] {
            let (code, capture) = Capture.run(sample + filters)
            #expect(code == .success, "\(filters): \(capture.standardError)")
            #expect(capture.standardError.isEmpty)
            let (_, empty) = Capture.run(sample + filters + [""])
            #expect(capture.standardOutput == empty.standardOutput, "\(filters)")
        }
        let everything = Capture.run(sample).1.standardOutput
        #expect(everything.split(separator: "\n").count > 40)
    }

    @Test func searchTextMayStartWithADashAfterDoubleDash() {
        let (code, capture) = Capture.run([
            "search", "--content", repositoryRoot + "/Content", "--config", Sample.configPath,
            "--", "-x",
        ])
        #expect(code == .success)
        #expect(capture.standardOutput.isEmpty)
    }

    @Test func searchFiltersByCategoryAndPrintsJSON() throws {
        let (code, capture) = Capture.run([
            "search", "--content", repositoryRoot + "/Content", "--config", Sample.configPath,
            "--category", "Citrus", "--json", "",
        ])
        #expect(code == .success)
        let entries = try JSONSerialization.jsonObject(with: Data(capture.standardOutput.utf8))
        let list = try #require(entries as? [[String: Any]])
        #expect(list.count >= 4)
        #expect(
            list.allSatisfy {
                $0["category"] as? String == "Citrus"
                    && ($0["url"] as? String)?.hasPrefix("fruits/") == true
            })
    }

    @Test func searchNamesTheFacetsOrSaysThereAreNone() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let search = [
            "search", "--content", repositoryRoot + "/Content", "--config",
            folder.path + "/fruitsite.yml", "--facet", "colour=red", "",
        ]
        try folder.write("fruitsite.yml", try Sample.config(after: "facets: [vitamins]\n"))
        let (code, capture) = Capture.run(search)
        #expect(code == .usage)
        #expect(
            capture.standardError.hasPrefix(
                "error: 'colour' is not one of the site's facets; the site's facets: vitamins\n"),
            "\(capture.standardError)")
        // The sample's config names no facets: they are the defaults.
        let (_, defaults) = Capture.run(
            search.map { $0.hasSuffix(".yml") ? Sample.configPath : $0 })
        #expect(
            defaults.standardError.hasPrefix(
                "error: 'colour' is not one of the site's facets; the site's facets: vitamins\n"),
            "\(defaults.standardError)")
        try folder.write("fruitsite.yml", try Sample.config(after: "facets: []\n"))
        let (noneCode, none) = Capture.run(search)
        #expect(noneCode == .usage)
        #expect(
            none.standardError.hasPrefix(
                "error: 'colour' is not one of the site's facets; "
                    + "the site has no facets ('facets: []' in the config)\n"),
            "\(none.standardError)")
    }

    /// A facet no fruit has is an error of the site: `search` refuses it as `build` does,
    /// rather than answering from a catalog the site could not be built from.
    @Test func searchRefusesAFacetNoFruitHasAsBuildDoes() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("fruitsite.yml", try Sample.config(after: "facets: [vitamins, colour]\n"))
        let (code, capture) = Capture.run([
            "search", "--content", repositoryRoot + "/Content", "--config",
            folder.path + "/fruitsite.yml", "apple",
        ])
        #expect(code == .failure)
        #expect(capture.standardOutput.isEmpty)
        #expect(
            capture.standardError.hasPrefix(
                folder.path + "/fruitsite.yml:1:20: error: no fruit has a value of the facet "
                    + "'colour'"),
            "\(capture.standardError)")
    }

    /// A value may start with a combining mark or a modifier, which with the `=` before it
    /// makes one character: the split is at the code point.
    @Test func searchSplitsAValueAtItsEqualsSign() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write(
            "Content/a.md",
            "---\nname: Apple\ncategory: \"\u{301}Core\"\nvitamins: \"\u{301}x\"\n---\n")
        try folder.write("Content/b.md", "---\nname: Banana\ncategory: Other\n---\n")
        for filter in [["--category=\u{301}Core"], ["--facet", "vitamins=\u{301}x"]] {
            let (code, capture) = Capture.run(
                ["search", "--content", folder.path + "/Content"] + filter + [""])
            #expect(code == .success, "\(filter): \(capture.standardError)")
            #expect(capture.standardOutput == "Apple\n", "\(filter)")
        }
    }

    // MARK: - build and check

    /// `fruitsite build` of a new folder whose content is one file, `a.md` holding `entry`.
    private func buildOne(_ entry: String, in folder: String) throws -> (CLI.ExitCode, Capture) {
        try FileManager.default.createDirectory(
            atPath: folder + "/Content", withIntermediateDirectories: true)
        try Data(entry.utf8).write(to: URL(fileURLWithPath: folder + "/Content/a.md"))
        return Capture.run([
            "build", "--content", folder + "/Content", "--templates", repositoryRoot + "/Templates",
            "--output", folder + "/Output", "--cache-dir", folder + "/.cache",
        ])
    }

    @Test func buildReportsErrorsOnStderrAndExitsOne() throws {
        let folder = NSTemporaryDirectory() + "fruitsite-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (code, capture) = try buildOne("---\nname: A\n---\n", in: folder)
        #expect(code == .failure)
        #expect(capture.standardOutput.isEmpty)
        #expect(
            capture.standardError.contains(
                "\(folder)/Content/a.md:1:1: error: missing required key 'category'"))
        #expect(capture.standardError.contains("1 error; nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/Output"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/.cache"))
        // `check` never writes: its count of errors says nothing of writing.
        let (checkCode, check) = Capture.run([
            "check", "--content", folder + "/Content", "--templates", repositoryRoot + "/Templates",
        ])
        #expect(checkCode == .failure)
        #expect(check.standardError.hasSuffix("1 error\n"), "\(check.standardError)")
    }

    /// A site of one fruit says so in the singular.
    @Test func buildCountsInTheSingular() throws {
        let folder = NSTemporaryDirectory() + "fruitsite-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (code, capture) = try buildOne("---\nname: Fig\ncategory: Figs\n---\n", in: folder)
        #expect(code == .success)
        #expect(capture.standardOutput.contains(" pages (1 fruit, 1 category) into "))
    }

    @Test func buildPrintsOneSummaryLineAndNoProgressOffATerminal() throws {
        // The output's lock and spare copy sit beside it, so all of it goes in one folder.
        let root = NSTemporaryDirectory() + "fruitsite-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/Output"
        // Without the warning that the sample, which has no base URL, has no sitemap.
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        try Data(try Sample.config(after: "sitemap: false\n").utf8).write(
            to: URL(fileURLWithPath: root + "/fruitsite.yml"))
        let (code, capture) = Capture.run([
            "build", "--content", repositoryRoot + "/Content", "--templates",
            repositoryRoot + "/Templates", "--config", root + "/fruitsite.yml",
            "--output", folder, "--cache-dir", folder + "-cache",
        ])
        #expect(code == .success)
        #expect(capture.standardError.isEmpty)
        let lines = capture.standardOutput.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(
            lines.first?.hasPrefix("Built ") == true && lines.first?.contains(" pages (") == true)
        // The time it took, with two decimals.
        #expect(
            lines.first?.contains(#/ in \d+\.\d\d s(, |$)/#) == true, "\(lines.first ?? "")")

        let (quietCode, quiet) = Capture.run([
            "build", "--content", repositoryRoot + "/Content", "--templates",
            repositoryRoot + "/Templates", "--config", root + "/fruitsite.yml",
            "--output", folder, "--cache-dir", folder + "-cache", "--quiet",
        ])
        #expect(quietCode == .success)
        #expect(quiet.standardOutput.isEmpty && quiet.standardError.isEmpty)
        let cached = try FileManager.default.contentsOfDirectory(atPath: folder + "-cache")
        #expect(cached.contains { $0.hasSuffix(".model") })
    }

    /// A folder that is no site yet: the error about the theme says how to start one, and
    /// still names the folder it looked for.
    @Test func aFolderWithoutASiteSuggestsInit() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let paths = [
            "--content", folder.path + "/Content", "--templates", folder.path + "/Templates",
        ]
        for arguments in [
            ["build"] + paths + [
                "--output", folder.path + "/Output", "--cache-dir", folder.path + "/.cache",
            ],
            ["check"] + paths,
        ] {
            let (code, capture) = Capture.run(arguments)
            #expect(code == .failure)
            #expect(
                capture.standardError.contains(
                    "\(folder.path)/Templates: error: the templates folder does not exist\n"
                        + "  hint: pass --templates DIR, or run 'fruitsite init DIR' to start a "
                        + "site\n"),
                "\(capture.standardError)")
        }
    }

    @Test func checkQuietPrintsNothingOnSuccess() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // Without the warning that the sample, which has no base URL, has no sitemap.
        try folder.write("fruitsite.yml", try Sample.config(after: "sitemap: false\n"))
        let arguments = [
            "check", "--content", repositoryRoot + "/Content", "--templates",
            repositoryRoot + "/Templates", "--config", folder.path + "/fruitsite.yml",
        ]
        let (code, loud) = Capture.run(arguments)
        #expect(code == .success)
        #expect(loud.standardOutput.hasPrefix("No errors: "))
        let (quietCode, quiet) = Capture.run(arguments + ["--quiet"])
        #expect(quietCode == .success)
        #expect(quiet.standardOutput.isEmpty && quiet.standardError.isEmpty)
    }

    @Test func saysAContentPathThatIsAFileIsNoFolder() throws {
        let file = NSTemporaryDirectory() + "fruitsite-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data().write(to: URL(fileURLWithPath: file))
        let (code, capture) = Capture.run([
            "check", "--content", file, "--templates", repositoryRoot + "/Templates",
        ])
        #expect(code == .failure)
        #expect(capture.standardError.contains("\(file): error: the content path is not a folder"))
        let (templatesCode, templates) = Capture.run([
            "check", "--content", repositoryRoot + "/Content", "--templates", file,
        ])
        #expect(templatesCode == .failure)
        #expect(
            templates.standardError.contains("\(file): error: the templates path is not a folder"))
    }

    @Test func timesHaveTwoDecimals() {
        let cases: [(Double, String)] = [
            (0, "0.00"), (0.004, "0.00"), (0.07, "0.07"), (0.1, "0.10"), (1.5, "1.50"),
            (9.996, "10.00"), (123.456, "123.46"),
        ]
        for (seconds, text) in cases {
            #expect(BuildCommand.twoDecimals(seconds) == text, "\(seconds)")
        }
    }

    /// `--verbose` says why a build starts from scratch, and what a build did: the sample's
    /// two languages, each built from its own model, each say it.
    @Test func verboseSaysWhyABuildIsClean() throws {
        // The output's lock and spare copy sit beside it, so all of it goes in one folder.
        let root = NSTemporaryDirectory() + "fruitsite-verbose-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/Output"
        let arguments = [
            "build", "--content", repositoryRoot + "/Content", "--templates",
            repositoryRoot + "/Templates", "--config", Sample.configPath, "--output", folder,
            "--cache-dir", folder + "-cache", "--verbose",
        ]
        let languages = ["en", "fr"]
        let (code, first) = Capture.run(arguments)
        #expect(code == .success)
        for language in languages {
            #expect(
                first.standardError.contains(
                    "note: \(language): building clean: there is no saved model for this output "
                        + "folder"), "\(first.standardError)")
        }
        let (_, second) = Capture.run(arguments)
        #expect(!second.standardError.contains("building clean"))
        #expect(
            second.standardError.contains(
                "note: parsed 0 content files, rendered or copied 0 files"))
        let (_, clean) = Capture.run(arguments + ["--clean"])
        for language in languages {
            #expect(
                clean.standardError.contains("note: \(language): building clean: --clean was given")
            )
        }

        // A model that is there but cannot be read is not called missing.
        let models = try FileManager.default.contentsOfDirectory(atPath: folder + "-cache")
            .filter { $0.hasSuffix(".model") }
        #expect(models.count == languages.count)
        for model in models {
            try FileManager.default.removeItem(atPath: folder + "-cache/" + model)
            try FileManager.default.createDirectory(
                atPath: folder + "-cache/" + model, withIntermediateDirectories: false)
        }
        let (_, unreadable) = Capture.run(arguments)
        for language in languages {
            #expect(
                unreadable.standardError.contains(
                    "note: \(language): building clean: the saved model cannot be read: "),
                "\(unreadable.standardError)")
        }
    }

    @Test func checkWritesNothing() throws {
        let (code, capture) = Capture.run([
            "check", "--content", repositoryRoot + "/Content", "--templates",
            repositoryRoot + "/Templates", "--config", Sample.configPath,
        ])
        #expect(code == .success, "\(capture.standardError)")
        #expect(capture.standardOutput.hasPrefix("No errors: "))
    }
}

@Suite struct SearchCategoryTests {
    /// A category the site lacks is a wrong command line, told as one, with the nearest.
    @Test func anUnknownCategoryIsAUsageErrorWithAHint() {
        let sample = [
            "search", "--content", repositoryRoot + "/Content", "--config", Sample.configPath,
        ]
        var (code, capture) = Capture.run(sample + ["--category", "citrus"])
        #expect(code == .usage)
        #expect(capture.standardOutput.isEmpty)
        #expect(
            capture.standardError.hasPrefix(
                "error: no category is named 'citrus'; did you mean 'Citrus'? "
                    + "(the name must match exactly)\nusage: fruitsite search "),
            "\(capture.standardError)")
        #expect(capture.standardError.hasSuffix("see 'fruitsite search --help'\n"))
        (code, capture) = Capture.run(sample + ["--category", "Plums"])
        #expect(code == .usage)
        #expect(
            capture.standardError.hasPrefix(
                "error: no category is named 'Plums'; categories: Ancient Fruits, Berries"))
        // A facet's value, likewise.
        (code, capture) = Capture.run(sample + ["--facet", "vitamins=c"])
        #expect(code == .usage)
        #expect(
            capture.standardError.hasPrefix(
                "error: no fruit has the vitamins 'c'; did you mean 'C'?"),
            "\(capture.standardError)")
    }
}
