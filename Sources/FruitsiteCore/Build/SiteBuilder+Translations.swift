extension SiteBuilder {
    /// Checks how the translations of a site in several languages name their entries, once
    /// every part's content is applied, and notes how much of the site each language
    /// translates.
    /// - Returns: The errors: a `translationKey` that names no entry of the default language,
    ///   and two translations of one entry into a language.
    func checkTranslations(of parts: inout [Updated]) -> [Diagnostic] {
        Self.noteCoverage(of: &parts)
        let defaults = parts[0].model
        let listed = Set(defaults.order.map { defaults[$0].slug })
        let all = Set(defaults.ids.map { defaults[$0].slug })
        var errors: [Diagnostic] = []
        for index in parts.indices.dropFirst() {
            let model = parts[index].model
            let scope = model.settings.scope
            let config = parts[index].config
            var translations: [Substring: EntryID] = [:]
            for id in model.order where scope.owns(model[id].path) {
                let entry = model[id]
                let key = entry.translationKey
                if let other = translations.updateValue(id, forKey: key) {
                    // Reported at the one that names the entry: the other is named after it.
                    let (named, other) =
                        entry.namedKey != nil ? (entry, model[other]) : (model[other], entry)
                    errors.append(
                        .error(
                            at: translationKeyLocation(of: named.path, in: config),
                            "'\(key)' has two '\(config.language)' translations: this and \(other.path)",
                            hint: "an entry has one translation into each language"))
                }
                if entry.namedKey != nil, !all.contains(key) {
                    errors.append(
                        .error(
                            at: translationKeyLocation(of: entry.path, in: config),
                            "'translationKey' names '\(key)', which the default language has no entry for",
                            hint: "name the slug of the entry this translates, such as "
                                + "'apple' for 'apple.md'"))
                } else if !listed.contains(key) {
                    parts[index].plan.warnings.append(
                        .warning(
                            at: SourceLocation(path: entry.path),
                            "the default language lists no '\(key)' for this to translate",
                            hint: "a translation is named after its entry ('\(key).md' and "
                                + "'\(key).\(scope.code).md'), or names it in 'translationKey'"))
                }
            }
        }
        return errors
    }

    /// Where the translation at `path` writes its `translationKey`, from the file read
    /// again: only an error needs it. The file alone when it cannot be read.
    private func translationKeyLocation(of path: String, in config: SiteConfig) -> SourceLocation {
        let scanner = scanner(config)
        guard let file = try? scanner.read(path) else { return SourceLocation(path: path) }
        return scanner.parser.parse(file).translationKey?.location ?? SourceLocation(path: path)
    }

    /// Adds to each language's notes how much of the site it translates: its own entries of
    /// the default language's, those it shows from the default language in their place, and
    /// the theme's messages its string table lacks.
    private static func noteCoverage(of parts: inout [Updated]) {
        let entries = parts[0].model.order.count
        for index in parts.indices {
            let (model, strings) = (parts[index].model, parts[index].theme.strings)
            let scope = model.settings.scope
            let fallbacks =
                scope.takesFallbacks ? model.order.count { scope.isFallback(model[$0].path) } : 0
            let own = model.order.count - fallbacks
            var note = "\(own) entries"
            if index > 0 {
                note = "\(own) of \(entries) entries translated"
                if scope.takesFallbacks { note += ", \(fallbacks) shown from the default language" }
            }
            parts[index].plan.notes.append(
                note + "; \(strings.missingCount) of \(strings.messageCount) theme messages missing"
            )
        }
    }
}
