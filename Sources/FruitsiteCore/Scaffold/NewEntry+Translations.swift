/// How a new entry names the entry it translates, checked as a build checks it
/// (`SiteBuilder.checkTranslations`), before anything is written.
extension NewEntry {
    /// Refuses a translation that a build would refuse, and gives the warning it would give.
    /// - Parameters:
    ///   - location: The new entry's file.
    ///   - config: The config of the entry's language (`SiteConfig.part(inLanguage:)`).
    ///   - paths: Every entry file of the content folder, as a build lists them.
    ///   - entries: The language's entries, when they load: which entry each of its
    ///     translations names. Else a translation is taken to name its file's slug.
    ///   - reader: Reads an entry file, for the `translationKey` of a translation named like
    ///     a new entry of the default language; nil when it cannot.
    /// - Returns: The warning for a translation that names no entry of the default language:
    ///   a page of its language alone.
    /// - Throws: `BuildFailure` when the entry names no entry of the default language to
    ///   translate, is named like another one, or translates one that its language translates
    ///   already; or, in the default language, when a translation is named like it and names
    ///   another entry.
    func checkTranslation(
        at location: SourceLocation, in config: SiteConfig, paths: [String],
        entries: [LoadedEntry]?, reader: (String) -> SourceFile?
    ) throws(BuildFailure) -> [Diagnostic] {
        let scope = config.scope
        guard scope.isPartial, let defaultCode = scope.codes.first else { return [] }
        guard let code = Self.code(in: config) else {
            try checkTranslationsNamed(like: location, in: config, paths: paths, reader: reader)
            return []
        }
        // Every entry of the default language, drafts and entries in error too: by its file.
        let defaults = Set(
            paths.filter { Self.language(of: $0, in: scope) == defaultCode }
                .map { String(SourceFile.slug(of: $0)) })
        if let translates {
            guard defaults.contains(translates) else {
                throw BuildFailure([
                    .error(
                        at: location,
                        "the default language has no entry '\(translates)' to translate",
                        hint: Suggestion.closest(to: translates, in: defaults.sorted()).map {
                            "did you mean '--translates \($0)'?"
                        }
                            ?? "name the slug of one of its entries, its file's name without "
                            + "'.md' ('apple' for apple.md); 'fruitsite search --json' lists "
                            + "every entry's page, fruits/<slug>/")
                ])
            }
            if slug != translates, defaults.contains(slug) {
                throw BuildFailure([
                    .error(
                        at: location,
                        "this translates '\(translates)' but is named like the default "
                            + "language's '\(slug)'",
                        hint: "a translation named like an entry translates that one: give "
                            + "this translation another name, or write '--translates \(slug)'")
                ])
            }
        }
        // The language's own translations, each with the entry it names.
        let named = Dictionary(
            (entries ?? []).map { ($0.path, $0.translationKey) }, uniquingKeysWith: { a, _ in a })
        let other = paths.first { path in
            Self.language(of: path, in: scope) == scope.code
                && (named[path] ?? String(SourceFile.slug(of: path))) == translationKey
        }
        if let other {
            throw BuildFailure([
                .error(
                    at: location,
                    "'\(translationKey)' has a '\(code)' translation already: \(other)",
                    hint: "edit that file: an entry has one translation into each language")
            ])
        }
        guard defaults.contains(translationKey) else {
            return [
                .warning(
                    at: location,
                    "the default language has no '\(translationKey)' for this to translate: it "
                        + "is a page of '\(code)' alone",
                    hint: "name the entry it translates with --translates SLUG")
            ]
        }
        return []
    }

    /// Refuses a new entry of the default language when a translation is named like it but
    /// names another entry in `translationKey`, which the build would refuse. Those few files
    /// are read again: the other languages' entries are not loaded.
    private func checkTranslationsNamed(
        like location: SourceLocation, in config: SiteConfig, paths: [String],
        reader: (String) -> SourceFile?
    ) throws(BuildFailure) {
        let scope = config.scope
        let parser = FruitParser(facets: config.facets, languages: scope.codes)
        for path in paths where SourceFile.slug(of: path) == slug {
            let language = Self.language(of: path, in: scope)
            guard language != scope.code, scope.codes.contains(language),
                let file = reader(path),
                let named = parser.parse(file).translationKey?.slug, named != slug
            else { continue }
            throw BuildFailure([
                .error(
                    at: location,
                    "\(path) is named like this entry but translates '\(named)', which the "
                        + "build would refuse",
                    hint: "choose another name, or rename that translation")
            ])
        }
    }

    /// The code, lowercased, of the language whose entry the file at `path` is: the one its
    /// name ends in (`fr` of `apple.fr.md`), else the default language's.
    static func language(of path: String, in scope: LanguageScope) -> String {
        SourceFile.language(of: path)?.lowercased() ?? scope.codes.first ?? ""
    }
}
