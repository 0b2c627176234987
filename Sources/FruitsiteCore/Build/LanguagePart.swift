extension SiteConfig {
    /// The configs of the site's parts, the default language first: a site in several
    /// languages is built as one site per language, each from its own model, written below
    /// its folder (`scope.prefix`) and committed together. Each has the language's title,
    /// description and tag, the base URL of its folder, and its scope. A site in one language
    /// is one part, at the root.
    var parts: [SiteConfig] {
        guard isMultilingual else { return [self] }
        let languages = siteLanguages
        let codes = languages.map { $0.code.lowercased() }
        return languages.enumerated().map { index, language in
            var part = config(of: language)
            if !part.baseURL.isEmpty { part.baseURL += language.prefix }
            part.scope = LanguageScope(language, isDefault: index == 0, codes: codes)
            return part
        }
    }
}

extension LanguageScope {
    /// The path in the output folder of the file at `path` in this language's site: below
    /// its folder, but for a file at the site root, whose path starts with `/`
    /// (`Page.isAtSiteRoot(of:)`).
    func placed(_ path: String) -> String {
        path.hasPrefix("/") ? String(path.dropFirst()) : prefix + path
    }

    /// `files`, of this language's site, at their paths in the output folder.
    func placed(_ files: [RenderedPage]) -> [RenderedPage] {
        guard !prefix.isEmpty else { return files }
        return files.map { RenderedPage(path: placed($0.path), bytes: $0.bytes) }
    }
}

extension SiteConfig {
    /// The config of the site's part in the language `code` (`parts`), compared without
    /// case; the default language's for nil. Nil when the site has no such language.
    public func part(inLanguage code: String?) -> SiteConfig? {
        guard let code else { return parts[0] }
        return parts.first { $0.language.lowercased() == code.lowercased() }
    }
}
