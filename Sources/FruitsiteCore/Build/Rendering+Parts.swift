extension SiteBuilder.Rendering {
    /// What a build of a site in several languages reports: the parts' counts added up, each
    /// warning once, and the notes, each named by its part's language.
    /// - Parameter languages: The parts' language codes; empty for a site in one language.
    init(combining parts: [Self], languages: [String]) {
        self = parts[0]
        guard parts.count > 1 else { return }
        notes = parts[0].notes.map { "\(languages[0]): \($0)" }
        for (part, language) in zip(parts, languages).dropFirst() {
            htmlPageCount += part.htmlPageCount
            fruitCount += part.fruitCount
            categoryCount += part.categoryCount
            parsed += part.parsed
            rendered += part.rendered
            warnings += part.warnings.filter { !warnings.contains($0) }
            notes += part.notes.map { "\(language): \($0)" }
            models += part.models
        }
    }
}
