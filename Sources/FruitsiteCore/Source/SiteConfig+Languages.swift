/// The site's languages: `languages:` read, and the config of each language's pages.
extension SiteConfig {
    /// Every language of the site, the default first, each with the folder of its pages: the
    /// ones `languages:` lists, or the one `language`, `title` and `description` declare.
    /// The default language's pages are at the root, unless `defaultLanguageInSubfolder`;
    /// the others' in a folder named by their code (`fr/`).
    public var siteLanguages: [SiteLanguage] {
        guard !languages.isEmpty else {
            return [SiteLanguage(code: language, title: title, description: description)]
        }
        return languages.enumerated().map { index, language in
            var language = language
            let isAtRoot = index == 0 && !defaultLanguageInSubfolder
            language.prefix = isAtRoot ? "" : language.code.lowercased() + "/"
            return language
        }
    }

    /// Whether the site has pages in more than one language.
    public var isMultilingual: Bool { languages.count > 1 }

    /// The config the pages of `language` are built with: its title, description and tag.
    func config(of language: SiteLanguage) -> SiteConfig {
        var config = self
        (config.title, config.description) = (language.title, language.description)
        config.language = language.code
        return config
    }

    /// Reads the `languages` list: each a map with a `code` that names a language fruitsite
    /// knows, once, and optionally `title`, `description` and `fallback`.
    mutating func readLanguages(
        _ node: YAMLNode, into diagnostics: inout [Diagnostic],
        at location: (YAMLNode) -> SourceLocation
    ) {
        let hint = "for example 'languages: [{code: en}, {code: fr, title: Fruits}]'"
        guard case .sequence(let items) = node.kind, !items.isEmpty else {
            diagnostics.append(
                .error(
                    at: location(node), "'languages' must be a list of languages", hint: hint))
            return
        }
        var read: [SiteLanguage] = []
        var codes: [String: Int] = [:]
        for item in items {
            guard case .mapping(let pairs) = item.kind else {
                diagnostics.append(
                    .error(
                        at: location(item),
                        "each language must be a map with a 'code', not \(item.kindDescription)",
                        hint: hint))
                continue
            }
            var language = SiteLanguage(code: "", title: title, description: description)
            var hasCode = false
            for (key, value) in pairs {
                let name = key.scalarText ?? ""
                guard let text = value.scalarText, !value.isNull,
                    Self.languageKeys.contains(name)
                else {
                    diagnostics.append(
                        Self.languageKeys.contains(name)
                            ? .error(
                                at: location(value),
                                "'languages.\(name)' must be a string, not \(value.kindDescription)"
                            )
                            : .error(
                                at: location(key), "unknown key 'languages.\(name)'",
                                hint: "a language's keys are "
                                    + Self.languageKeys.joined(separator: ", ")))
                    continue
                }
                switch name {
                case "code":
                    if let problem = Self.languageCodeProblem(text) {
                        diagnostics.append(
                            .error(
                                at: location(value), "'\(text)' \(problem)",
                                hint: "a language tag such as 'en', 'fr' or 'pt-BR'"))
                        continue
                    }
                    if let line = codes[text.lowercased()] {
                        diagnostics.append(
                            .error(
                                at: location(value), "language '\(text)' is listed twice",
                                hint: "it is listed at line \(line) already"))
                        continue
                    }
                    let hasFolder = !read.isEmpty || defaultLanguageInSubfolder
                    if hasFolder, facets.contains(text.lowercased()) {
                        diagnostics.append(
                            .error(
                                at: location(value),
                                "language '\(text)' and the facet '\(text.lowercased())' "
                                    + "would write their pages in one folder",
                                hint: "a language has its pages in a folder named by its code, "
                                    + "the first one too with 'defaultLanguageInSubfolder'; "
                                    + "rename the facet"))
                        continue
                    }
                    codes[text.lowercased()] = value.line
                    (language.code, hasCode) = (text, true)
                case "title": language.title = text
                case "description": language.description = text
                default:
                    guard let fallback = SiteLanguage.Fallback(rawValue: text) else {
                        diagnostics.append(
                            .error(
                                at: location(value),
                                "'languages.fallback' must be 'none' or 'default'",
                                hint: "'default' shows the default language's entry where a "
                                    + "translation is missing; 'none' leaves the page out"))
                        continue
                    }
                    language.fallback = fallback
                }
            }
            if !hasCode {
                if !pairs.contains(where: { $0.key.scalarText == "code" }) {
                    diagnostics.append(
                        .error(at: location(item), "a language needs a 'code'", hint: hint))
                }
                continue
            }
            read.append(language)
        }
        if let first = read.first, first.fallback != .none {
            diagnostics.append(
                .error(
                    at: location(items[0]),
                    "the default language '\(first.code)' cannot have a fallback",
                    hint: "a fallback names what another language shows where it lacks an entry"))
            read[0].fallback = .none
        }
        if read.count > Self.maximumLanguageCount {
            diagnostics.append(
                .error(
                    at: location(node),
                    "'languages' lists \(read.count) languages, more than the limit of "
                        + "\(Self.maximumLanguageCount)"))
            read.removeLast(read.count - Self.maximumLanguageCount)
        }
        languages = read
        if let first = read.first { language = first.code }
    }

    /// The most languages a site may have: which of them have a page is a bit of a word
    /// (`Translations.Presence`).
    static let maximumLanguageCount = 64

    /// The keys a language of `languages:` may have.
    static let languageKeys = ["code", "title", "description", "fallback"]

    /// What is wrong with `code` as a language of the site, or nil: it must be a tag whose
    /// language ICU knows, for its collation, plural rules and numbers to be that language's.
    static func languageCodeProblem(_ code: String) -> String? {
        guard LanguageTag.isWellFormed(code) else { return "is not a language tag" }
        guard isKnownLanguage(code) else { return "is not a language fruitsite knows" }
        return nil
    }
}
