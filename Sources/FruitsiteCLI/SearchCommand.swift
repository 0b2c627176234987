import FruitsiteCore

/// `fruitsite search`: the site's search filter, run over the content from the command line.
struct SearchCommand {
    var options = BuildOptions()
    var text: String
    var category: String?
    /// `--language CODE`: the language whose catalog is searched; nil for the default one.
    var language: String?
    /// `--facet KEY=VALUE`, each to match.
    var facets: [(key: String, value: String)] = []
    var printsJSON: Bool
    var wantsHelp: Bool

    init(_ arguments: [String]) throws(UsageError) {
        let scanner = try ArgumentScanner(
            arguments,
            spec: .init(
                valueOptions: [
                    "--content", "--category", "--facet", "--config", "--output", "--cache-dir",
                    "--language",
                ],
                flags: ["--json", "--drafts"], emptyValues: ["--category", "--facet"]))
        wantsHelp = scanner.has("--help")
        guard scanner.positionals.count <= 1 else {
            throw UsageError(
                message:
                    "expected one search text, got \(scanner.positionals.count); quote text with spaces"
            )
        }
        // No text is the empty search box: every fruit, as the filters keep them.
        let text = scanner.positionals.first ?? ""
        // Line breaks dropped, as the search box drops them from its value (HTML's value
        // sanitization), also when a shared address's `q` has them.
        self.text = String(
            String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }))
        category = scanner.values["--category"]
        language = scanner.values["--language"]
        for facet in scanner.allValues["--facet"] ?? [] {
            // The first `=` as a code point, as the scanner splits `--option=value`.
            let scalars = facet.unicodeScalars
            guard let equals = scalars.firstIndex(of: "="), equals != scalars.startIndex else {
                throw UsageError(message: "expected --facet KEY=VALUE, such as --facet vitamins=C")
            }
            facets.append(
                (String(scalars[..<equals]), String(scalars[scalars.index(after: equals)...])))
        }
        printsJSON = scanner.has("--json")
        options.contentDirectory = scanner.values["--content"] ?? options.contentDirectory
        options.configPath = scanner.values["--config"]
        // Where `build` keeps the model of the site it wrote, read when it is up to date.
        options.outputDirectory = scanner.values["--output"] ?? options.outputDirectory
        options.cacheDirectory = scanner.values["--cache-dir"] ?? CLI.cacheDirectory
        options.includeDrafts = scanner.has("--drafts")
    }

    /// - Throws: `UsageError` for a language, category, facet or facet value the site does
    ///   not have: a name typed on the command line, with the nearest the site has.
    func run(on terminal: Terminal) throws(UsageError) -> CLI.ExitCode {
        if wantsHelp {
            terminal.standardOutput(HelpText.command("search") ?? "")
            return .success
        }
        let builder = SiteBuilder(options: options)
        let (site, problems) = builder.loadConfig()
        // Each language's catalog is its own, as each language's page searches its own.
        let part = site.part(inLanguage: language)
        // A language listed in error is left out of the config: its errors are reported
        // below, with the default language's content's, as build reports them.
        if part == nil, !problems.containsErrors {
            let codes = site.siteLanguages.map(\.code)
            throw UsageError(
                message: "'\(language ?? "")' is not one of the site's languages; "
                    + (Suggestion.closest(to: language ?? "", in: codes).map {
                        "did you mean '\($0)'?"
                    }
                        ?? "the site's languages: \(codes.joined(separator: ", "))"))
        }
        let config = part ?? site.part(inLanguage: nil) ?? site
        let (catalog, diagnostics) = builder.loadCatalog(config: config)
        guard let catalog, !problems.containsErrors else {
            CLI.report((problems + diagnostics).sortedByLocation(), on: terminal)
            return .failure
        }
        // Else a typo would look like a category or value with no match.
        if let category, !category.isEmpty {
            try Self.check(
                category, in: catalog.categoryNames, "no category is named", listing: "categories"
            )
        }
        for (key, value) in facets {
            guard config.facets.contains(key) else {
                let hint =
                    Suggestion.closest(to: key, in: config.facets).map { "did you mean '\($0)'?" }
                    ?? (config.facets.isEmpty
                        ? "the site has no facets ('facets: []' in the config)"
                        : "the site's facets: \(config.facets.joined(separator: ", "))")
                throw UsageError(message: "'\(key)' is not one of the site's facets; \(hint)")
            }
            if !value.isEmpty {
                let values = Set(catalog.fruits.flatMap { $0.values(ofFacet: key) }).sorted()
                try Self.check(value, in: values, "no fruit has the \(key)", listing: "values")
            }
        }
        let matches = catalog.filter(searchText: text, category: category, facets: facets)
        if printsJSON {
            let entries = matches.map { SearchIndexBuilder.entry($0, pictures: config.images) }
            terminal.print(
                entries.isEmpty ? "[]" : "[\n" + entries.joined(separator: ",\n") + "\n]")
        } else {
            for fruit in matches { terminal.print(fruit.name) }
        }
        return .success
    }

    /// Throws for a category or facet value that `names` does not hold exactly, naming the
    /// nearest that it does, or else all of them.
    private static func check(
        _ name: String, in names: [String], _ message: String, listing: String
    ) throws(UsageError) {
        guard !names.contains(where: { $0.utf8.elementsEqual(Fold.normalizeNFC(name).utf8) })
        else { return }
        let hint =
            Suggestion.closest(to: name, in: names).map {
                "did you mean '\($0)'? (the name must match exactly)"
            }
            ?? "\(listing): \(names.joined(separator: ", "))"
        throw UsageError(message: "\(message) '\(name)'; \(hint)")
    }
}
