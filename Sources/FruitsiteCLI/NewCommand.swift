import Foundation
import FruitsiteCore

/// `fruitsite new NAME --category NAME` and `fruitsite init DIR`: start an entry or a site.
struct NewCommand {
    enum Kind { case entry, site }
    var kind: Kind
    var entry = NewEntry(name: "", category: "")
    /// `--language CODE`: the language the entry is written in; nil for the default one.
    var language: String?
    /// Where an entry goes: the content folder, tidied as a build tidies it.
    var options = BuildOptions()
    var folder = ""
    var wantsHelp: Bool

    /// - Parameter now: The moment whose local day an entry is dated with by default.
    init(_ arguments: [String], kind: Kind, now: Date = Date()) throws(UsageError) {
        self.kind = kind
        let spec: ArgumentScanner.Spec =
            switch kind {
            case .entry:
                .init(
                    valueOptions: [
                        "--category", "--emoji", "--vitamins", "--date", "--language",
                        "--translates", "--content", "--config", "--output", "--cache-dir",
                    ], flags: ["--no-date"], emptyValues: ["--emoji", "--vitamins"])
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
            language = scanner.values["--language"]
            let translates = scanner.values["--translates"]
            guard translates == nil || language != nil else {
                throw UsageError(
                    message: "--translates needs --language CODE, the translation's language")
            }
            entry = NewEntry(
                name: positional, category: category, emoji: scanner.values["--emoji"],
                vitamins: scanner.values["--vitamins"],
                date: try Self.date(
                    scanner.values["--date"], none: scanner.has("--no-date"),
                    today: Self.day(of: now, in: .current)),
                translates: translates)
            options.contentDirectory = scanner.values["--content"] ?? options.contentDirectory
            options.configPath = scanner.values["--config"]
            // Where `build` keeps the model of the site it wrote, read when it is up to date.
            options.outputDirectory = scanner.values["--output"] ?? options.outputDirectory
            options.cacheDirectory = scanner.values["--cache-dir"] ?? CLI.cacheDirectory
        case .site:
            folder = positional
        }
    }

    /// - Throws: `UsageError` for a language the site does not have, or a translation into
    ///   the default language.
    func run(on terminal: Terminal) throws(UsageError) -> CLI.ExitCode {
        if wantsHelp {
            terminal.standardOutput(HelpText.command(kind == .entry ? "new" : "init") ?? "")
            return .success
        }
        guard kind == .site else { return try writeEntry(on: terminal) }
        do throws(BuildFailure) {
            let written = try SiteScaffold.create(at: folder)
            terminal.print("Created a site in \(folder) (\(written.count) files). Try it:")
            terminal.print(Self.tryIt(folder))
            return .success
        } catch {
            CLI.report(error.diagnostics, on: terminal, outcome: "nothing was written")
            return .failure
        }
    }

    /// Writes the entry in its language, checked against that language's entries, and
    /// prints its path and the warnings a build would give it.
    /// - Throws: `UsageError` as `run(on:)`.
    private func writeEntry(on terminal: Terminal) throws(UsageError) -> CLI.ExitCode {
        let site = SiteBuilder(options: options)
        // A config in error would fail the build, and its facets or languages may be the
        // ones left out.
        let (config, problems) = site.loadConfig()
        if problems.containsErrors {
            CLI.report(problems, on: terminal, outcome: "nothing was written")
            return .failure
        }
        guard let part = config.part(inLanguage: language) else {
            throw Self.unknownLanguage(language ?? "", in: config, path: options.configPath)
        }
        if let translates = entry.translates,
            part.language.lowercased() == config.siteLanguages[0].code.lowercased()
        {
            throw UsageError(
                message: "'\(part.language)' is the default language, whose entries translate "
                    + "none; give the language of the translation of '\(translates)' with "
                    + "--language")
        }
        do throws(BuildFailure) {
            // Every entry of the language, drafts too: the new one must build beside them all.
            let (path, warnings) = try entry.write(
                into: options.contentDirectory, config: part,
                entries: site.loadEntries(config: part).entries)
            terminal.print(path)
            CLI.report(warnings, on: terminal)
            return .success
        } catch {
            CLI.report(error.diagnostics, on: terminal, outcome: "nothing was written")
            return .failure
        }
    }

    /// The error for `--language CODE` where the site has no such language: the site's
    /// languages, or, for a site in one, where to list its languages.
    static func unknownLanguage(_ code: String, in config: SiteConfig, path: String?)
        -> UsageError
    {
        let codes = config.siteLanguages.map(\.code)
        guard config.isMultilingual else {
            return UsageError(
                message: "'\(code)' is not the site's language, '\(codes[0])', its only one; "
                    + "list its languages under 'languages' in \(path ?? "fruitsite.yml") to "
                    + "write translations")
        }
        return UsageError(
            message: "'\(code)' is not one of the site's languages: "
                + codes.joined(separator: ", "))
    }

    /// The entry's date: `--date`'s, read as a build reads `date:`; none with `--no-date`;
    /// else today's, as `hugo new` dates a post, so that the fruit is in the feeds.
    static func date(_ text: String?, none: Bool, today: EntryDate) throws(UsageError)
        -> EntryDate?
    {
        if none {
            guard text == nil else {
                throw UsageError(message: "--date and --no-date cannot be given together")
            }
            return nil
        }
        guard let text else { return today }
        guard let date = EntryDate(yaml: text) else {
            throw UsageError(message: "--date must be \(EntryDate.expectedForm)")
        }
        return date
    }

    /// The day `now` falls on in `timeZone`, as a date alone: the day a person there would
    /// write, which UTC's is not for hours of every day.
    static func day(of now: Date, in timeZone: TimeZone) -> EntryDate {
        let local =
            Int64(now.timeIntervalSince1970.rounded(.down))
            + Int64(timeZone.secondsFromGMT(for: now))
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        return EntryDate(seconds: days * 86_400)
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
