import Foundation

/// The Markdown file `fruitsite new` writes: front matter from a few fields, then a line of
/// body, named after the name's slug and, in a language other than the site's default, the
/// language's code.
public struct NewEntry: Sendable {
    public var name: String
    public var category: String
    public var emoji: String?
    public var vitamins: String?
    /// When the fruit was added (`date:`), which puts it in the feeds.
    public var date: EntryDate?
    /// The slug of the default language's entry that this translation translates
    /// (`apple`), written as `translationKey:` when the entry's own slug differs; nil for an
    /// entry that translates none, or its own slug's.
    public var translates: String?
    public var body: String

    public init(
        name: String, category: String, emoji: String? = nil, vitamins: String? = nil,
        date: EntryDate? = nil, translates: String? = nil, body: String? = nil
    ) {
        self.name = name
        self.category = category
        self.emoji = emoji
        self.vitamins = vitamins
        self.date = date
        self.translates = translates
        self.body = body ?? "Write about \(Self.escapedMarkdown(name)) here.\n"
    }

    /// `text` as Markdown that shows it as it is: every ASCII punctuation character, which
    /// CommonMark lets a backslash escape, is escaped, so no link (`[x](fruit:y)`), emphasis,
    /// code span, HTML or entity can start in it. (The name is one line, in the middle of
    /// the body's: no block, such as `#` or `---`, can start there either.)
    static func escapedMarkdown(_ text: String) -> String {
        let punctuation = ##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"##.unicodeScalars
        var escaped = ""
        for scalar in text.unicodeScalars {
            if punctuation.contains(scalar) { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(scalar)
        }
        return escaped
    }

    /// The file's name without `.md` and the language's code: `Blood Orange` →
    /// `blood-orange`, `Açaí` → `acai`.
    public var slug: String { Slug.make(from: name) }

    /// The key the entry's translations share: the slug of the entry it translates, or its
    /// own.
    var translationKey: String { translates ?? slug }

    /// The file's name in the language of `config`, one language's part of the site's
    /// (`SiteConfig.part(inLanguage:)`): `<slug>.md` in the default language, and
    /// `<slug>.<code>.md` in another (`pomme.fr.md`).
    public func fileName(in config: SiteConfig) -> String {
        slug + (Self.code(in: config).map { "." + $0 } ?? "") + ".md"
    }

    /// The code that the file names of `config`'s language end in, as the config spells it:
    /// nil for the default language's, which end in none.
    static func code(in config: SiteConfig) -> String? {
        config.scope.isPartial && !config.scope.isDefault ? config.language : nil
    }

    /// The file's text. Values are YAML double-quoted strings, so any name is kept as typed;
    /// the date, made of digits and separators only, is plain, as a YAML date is written.
    public var text: String {
        var lines = ["---", "name: \(Self.quoted(name))"]
        if let emoji, !emoji.isEmpty { lines.append("emoji: \(Self.quoted(emoji))") }
        lines.append("category: \(Self.quoted(category))")
        if let vitamins, !vitamins.isEmpty { lines.append("vitamins: \(Self.quoted(vitamins))") }
        if let date { lines.append("date: \(date.yamlText)") }
        if let translates, translates != slug {
            lines.append("translationKey: \(Self.quoted(translates))")
        }
        lines += ["---", body]
        return lines.joined(separator: "\n")
    }

    /// Writes `<contentDirectory>/<fileName(in: config)>` and returns its path, with the
    /// warning a build would give it.
    /// - Parameters:
    ///   - config: The config of the entry's language (`SiteConfig.part(inLanguage:)`), whose
    ///     facets are read from the entry as a build reads them.
    ///   - entries: That language's entries (`SiteBuilder.loadEntries(config:)`), drafts
    ///     included, when they load: a category or facet value they spell otherwise with the
    ///     same URL slug (`tropical` beside `Tropical`) would fail the build, so it is refused
    ///     too; and a translation names in them the entry it translates.
    /// - Throws: `BuildFailure` for values a build would refuse, a translation it would
    ///   refuse (`checkTranslation`), or when an entry of the language with the same slug
    ///   exists anywhere in the content folder: nothing is ever overwritten.
    public func write(
        into contentDirectory: String, config: SiteConfig, entries: [LoadedEntry]?
    ) throws(BuildFailure) -> (path: String, warnings: [Diagnostic]) {
        try write(
            into: contentDirectory, config: config, entries: entries,
            writer: NewFiles.systemWriter)
    }

    /// `write(into:config:entries:)` with the writer of the file's bytes given, so tests can
    /// fail it.
    func write(
        into contentDirectory: String, config: SiteConfig, entries: [LoadedEntry]?,
        writer: NewFiles.Writer
    ) throws(BuildFailure) -> (path: String, warnings: [Diagnostic]) {
        let fileName = fileName(in: config)
        let path = contentDirectory + "/" + fileName
        let location = SourceLocation(path: path)
        guard translates == nil || Self.code(in: config) != nil else {
            throw BuildFailure([
                .error(
                    at: location, "an entry of the default language translates none",
                    hint: "a translation is written in another of the site's languages")
            ])
        }
        // The parser a build reads it with says whether it would build: a blank or two-line
        // name, a category too long for a folder. Its errors are the values', not a file's.
        let parser = FruitParser(facets: config.facets, languages: config.scope.codes)
        let parsed = parser.parse(SourceFile(path: path, bytes: Array(text.utf8)))
        let errors = parsed.diagnostics.filter(\.isError)
        if !errors.isEmpty {
            throw BuildFailure(errors.map { .error(at: location, $0.message, hint: $0.hint) })
        }
        // The entries as the build lists them (hidden files and folders skipped). A content
        // folder it cannot list is an error as for the build: a folder that is not there is
        // a typo or the wrong working folder, not one to make.
        let scanner = ContentScanner(
            contentDirectory: contentDirectory, fileSystem: .local, parser: FruitParser(), now: 0)
        let listing = scanner.list()
        let folderErrors = listing.diagnostics.filter {
            $0.isError && $0.location.path == contentDirectory
        }
        if !folderErrors.isEmpty { throw BuildFailure(folderErrors) }
        let length = fileName.utf8.count
        guard length <= Slug.maximumLength else {
            throw BuildFailure([
                .error(
                    at: SourceLocation(path: contentDirectory),
                    "the name '\(name.prefix(40))…' makes a file name of \(length) bytes, more "
                        + "than the \(Slug.maximumLength) a file system allows",
                    hint: "shorten it")
            ])
        }
        // Two of its own values of one facet with one URL slug (`K, k`), as the build
        // refuses them.
        if let fruit = parsed.fruit {
            let collisions = fruit.facets.flatMap { facet in
                Slug.collisions(in: facet.values, slug: Slug.make(from:)).map { value, first in
                    Diagnostic.error(
                        at: location,
                        "\(facet.key) '\(value)' and '\(first)' both have the URL slug "
                            + "'\(Slug.make(from: value))'",
                        hint: "spell the value once")
                }
            }
            if !collisions.isEmpty { throw BuildFailure(collisions) }
        }
        if let fruit = parsed.fruit, let entries {
            // Not the default language's entry that a language shows in place of this
            // translation until it is written.
            let neighbours = entries.filter {
                config.scope.owns($0.path) || $0.translationKey != translationKey
            }
            let clashes = Self.clashes(of: fruit, with: neighbours.map(\.fruit)).map { clash in
                Diagnostic.error(
                    at: location,
                    "\(clash.what) '\(clash.value)' is spelled '\(clash.existing)' by "
                        + "\(clash.fruit): both have the URL slug '\(Slug.make(from: clash.value))'",
                    hint: "spell it '\(clash.existing)', as the other entries do")
            }
            if !clashes.isEmpty { throw BuildFailure(clashes) }
        }
        let warnings = try checkTranslation(
            at: location, in: config, paths: listing.paths, entries: entries)
        let scope = config.scope
        let existing = listing.paths.first { other in
            scope.isPartial
                ? SourceFile.slug(of: other) == slug
                    && Self.language(of: other, in: scope) == scope.code
                : other.hasSuffix("/" + fileName)
        }
        if let existing {
            throw BuildFailure([
                .error(
                    at: location,
                    "an entry named '\(slug)' exists already"
                        + (scope.isPartial ? " in '\(config.language)'" : "") + ": \(existing)",
                    hint: "choose another name, or edit that file")
            ])
        }
        do throws(PathError) {
            // Written whole and then moved in, never over an entry made meanwhile: a file
            // left empty or half written would fail the next build and take the slug.
            try NewFiles.create(
                [(fileName, Array(text.utf8))], in: contentDirectory, writer: writer)
        } catch {
            throw BuildFailure([.error(at: location, "cannot write the file: \(error)")])
        }
        return (path, warnings)
    }

    /// The fruit's category and facet values that `entries` spell otherwise with the same
    /// URL slug, each with that spelling and the entry that has it (the first by slug).
    private static func clashes(of fruit: Fruit, with entries: [Fruit]) -> [(
        what: String, value: String, existing: String, fruit: String
    )] {
        // Each spelling once, with its first entry: a catalog has few spellings, and making
        // a slug for every entry's took a while at 100,000.
        var owners: [String: [String: String]] = [:]
        for entry in entries {
            for (what, values) in [("category", [entry.category])]
                + entry.facets.map({ ($0.key, $0.values) })
            {
                for value in values where owners[what]?[value].map({ entry.slug < $0 }) ?? true {
                    owners[what, default: [:]][value] = entry.slug
                }
            }
        }
        var clashes: [(what: String, value: String, existing: String, fruit: String)] = []
        for (what, values) in [("category", [fruit.category])]
            + fruit.facets.map({ ($0.key, $0.values) })
        {
            for value in values {
                let slug = Slug.make(from: value)
                let spellings = (owners[what] ?? [:]).filter {
                    $0.key != value && Slug.make(from: $0.key) == slug
                }
                if let existing = spellings.keys.min() {
                    clashes.append((what, value, existing, spellings[existing]!))
                }
            }
        }
        return clashes
    }

    private static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                quoted += String(format: "\\x%02X", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
