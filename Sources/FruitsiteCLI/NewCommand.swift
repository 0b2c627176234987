import FruitsiteCore

/// `fruitsite new NAME --category NAME` and `fruitsite init DIR`: start an entry or a site.
struct NewCommand {
    enum Kind { case entry, site }
    var kind: Kind
    var entry = NewEntry(name: "", category: "")
    /// Where an entry goes: the content folder, tidied as a build tidies it.
    var options = BuildOptions()
    var folder = ""
    var wantsHelp: Bool

    init(_ arguments: [String], kind: Kind) throws(UsageError) {
        self.kind = kind
        let spec: ArgumentScanner.Spec =
            switch kind {
            case .entry:
                .init(
                    valueOptions: [
                        "--category", "--emoji", "--vitamins", "--content", "--output",
                        "--cache-dir",
                    ], emptyValues: ["--emoji", "--vitamins"])
            case .site: .init()
            }
        let scanner = try ArgumentScanner(arguments, spec: spec)
        wantsHelp = scanner.has("--help")
        if wantsHelp { return }
        let what = kind == .entry ? "the fruit's name" : "the folder's name"
        guard scanner.positionals.count == 1, let positional = scanner.positionals.first else {
            throw UsageError(
                message: scanner.positionals.isEmpty
                    ? "missing \(what)"
                    : "expected one argument, \(what), got \(scanner.positionals.count); "
                        + "quote names with spaces")
        }
        // An empty folder name would mean the current folder's parent, `/`, once joined.
        guard !positional.allSatisfy(\.isWhitespace) else {
            throw UsageError(message: "\(what) is empty")
        }
        switch kind {
        case .entry:
            guard let category = scanner.values["--category"] else {
                throw UsageError(message: "missing --category NAME")
            }
            entry = NewEntry(
                name: positional, category: category, emoji: scanner.values["--emoji"],
                vitamins: scanner.values["--vitamins"])
            options.contentDirectory = scanner.values["--content"] ?? options.contentDirectory
            // Where `build` keeps the model of the site it wrote, read when it is up to date.
            options.outputDirectory = scanner.values["--output"] ?? options.outputDirectory
            options.cacheDirectory = scanner.values["--cache-dir"] ?? CLI.cacheDirectory
        case .site:
            folder = positional
        }
    }

    func run(on terminal: Terminal) -> CLI.ExitCode {
        if wantsHelp {
            terminal.standardOutput(HelpText.command(kind == .entry ? "new" : "init") ?? "")
            return .success
        }
        do throws(BuildFailure) {
            switch kind {
            case .entry:
                // Every entry, drafts too: the new one must build beside them all.
                let site = SiteBuilder(options: options)
                let config = site.loadConfig().config
                terminal.print(
                    try entry.write(
                        into: options.contentDirectory, facets: config.facets,
                        entries: site.loadEntries(config: config).fruits))
            case .site:
                let written = try SiteScaffold.create(at: folder)
                terminal.print("Created a site in \(folder) (\(written.count) files). Try it:")
                terminal.print(Self.tryIt(folder))
            }
            return .success
        } catch {
            CLI.report(error.diagnostics, on: terminal, outcome: "nothing was written")
            return .failure
        }
    }

    /// The command that starts serving a site made in `folder`, to be pasted into a shell.
    static func tryIt(_ folder: String) -> String {
        // `cd -x` would read an option.
        "  cd \(shellQuoted(folder.hasPrefix("-") ? "./" + folder : folder)) && fruitsite serve"
    }

    /// `text` as a POSIX shell word: as it is when it holds only characters no shell reads
    /// specially, else in single quotes, so that the hint can be pasted.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            $0.isASCII
                && ($0.properties.isAlphabetic || "0123456789-_./+,:@%".unicodeScalars.contains($0))
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
