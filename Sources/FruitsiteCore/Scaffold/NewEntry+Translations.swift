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
    /// - Returns: The warning for a translation that names no entry of the default language:
    ///   a page of its language alone.
    /// - Throws: `BuildFailure` when the entry names no entry of the default language to
    ///   translate, translates one that its language translates already, or is named like an
    ///   untranslated one that its language shows in its place.
    func checkTranslation(
        at location: SourceLocation, in config: SiteConfig, paths: [String],
        entries: [LoadedEntry]?
    ) throws(BuildFailure) -> [Diagnostic] {
        let scope = config.scope
        guard scope.isPartial, let defaultCode = scope.codes.first,
            let code = Self.code(in: config)
        else { return [] }
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
        }
        // The language's own translations, each with the entry it names.
        let named = Dictionary(
            (entries ?? []).map { ($0.path, $0.translationKey) }, uniquingKeysWith: { a, _ in a })
        // The language's translation of the entry `key`, if it has one.
        let translation = { (key: String) in
            paths.first { path in
                Self.language(of: path, in: scope) == scope.code
                    && (named[path] ?? String(SourceFile.slug(of: path))) == key
            }
        }
        if let other = translation(translationKey) {
            throw BuildFailure([
                .error(
                    at: location,
                    "'\(translationKey)' has a '\(code)' translation already: \(other)",
                    hint: "edit that file: an entry has one translation into each language")
            ])
        }
        // Named like another entry of the default language, which the language shows in
        // place of its missing translation: both would have this slug.
        if slug != translationKey, scope.takesFallbacks, defaults.contains(slug),
            translation(slug) == nil
        {
            throw BuildFailure([
                .error(
                    at: location,
                    "the default language's '\(slug)' has no '\(code)' translation, and is "
                        + "shown in its place at this slug",
                    hint: "translate it first ('--translates \(slug)'), or give this "
                        + "translation another name")
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

    /// The code, lowercased, of the language whose entry the file at `path` is: the one its
    /// name ends in (`fr` of `apple.fr.md`), else the default language's.
    static func language(of path: String, in scope: LanguageScope) -> String {
        SourceFile.language(of: path)?.lowercased() ?? scope.codes.first ?? ""
    }
}
