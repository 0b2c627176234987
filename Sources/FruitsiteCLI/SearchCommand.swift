import FruitsiteCore

/// `fruitsite search`: the site's search filter, run over the content from the command line.
struct SearchCommand {
    var options = BuildOptions()
    var text: String
    var category: String?
    var printsJSON: Bool
    var wantsHelp: Bool

    init(_ arguments: [String]) throws(UsageError) {
        let scanner = try ArgumentScanner(
            arguments,
            spec: .init(
                valueOptions: ["--content", "--category", "--config"],
                flags: ["--json", "--drafts"]))
        wantsHelp = scanner.has("--help")
        guard scanner.positionals.count <= 1 else {
            throw UsageError(
                message:
                    "expected one search text, got \(scanner.positionals.count); quote text with spaces"
            )
        }
        guard let text = scanner.positionals.first ?? (wantsHelp ? "" : nil) else {
            throw UsageError(message: "missing the search text (use \"\" to list every fruit)")
        }
        self.text = text
        category = scanner.values["--category"]
        printsJSON = scanner.has("--json")
        options.contentDirectory = scanner.values["--content"] ?? options.contentDirectory
        options.configPath = scanner.values["--config"]
        options.includeDrafts = scanner.has("--drafts")
    }

    func run(on terminal: Terminal) -> CLI.ExitCode {
        if wantsHelp {
            terminal.standardOutput(HelpText.command("search") ?? "")
            return .success
        }
        let builder = SiteBuilder(options: options)
        let config: SiteConfig
        do {
            config = try builder.loadConfig()
        } catch {
            CLI.report(error.diagnostics, on: terminal)
            return .failure
        }
        let (catalog, diagnostics) = builder.loadCatalog(config: config)
        guard let catalog else {
            CLI.report(diagnostics, on: terminal)
            return .failure
        }
        let names = catalog.categories.map(\.name)
        if let category, !category.isEmpty,
            !names.contains(where: { $0.utf8.elementsEqual(Fold.normalizeNFC(category).utf8) })
        {
            // Else a typo would look like a category with no match.
            let near =
                names.first { $0.lowercased() == category.lowercased() }
                ?? Suggestion.closest(to: category, in: names)
            let hint =
                near.map { "did you mean '\($0)'? (the name must match exactly)" }
                ?? "categories: \(names.joined(separator: ", "))"
            let problem = Diagnostic.error(
                at: SourceLocation(path: options.contentDirectory),
                "no category is named '\(category)'", hint: hint)
            terminal.printError(problem.description)
            return .failure
        }
        let matches = catalog.filter(searchText: text, category: category)
        if printsJSON {
            let entries = matches.map(SearchIndexBuilder.entry)
            terminal.print(
                entries.isEmpty ? "[]" : "[\n" + entries.joined(separator: ",\n") + "\n]")
        } else {
            for fruit in matches { terminal.print(fruit.name) }
        }
        return .success
    }
}
