/// One language of the site, as `languages:` declares it (or the config's `language`, `title`
/// and `description`, for a site in one): everything a build of that language's pages needs
/// to know of it.
public struct SiteLanguage: Sendable, Equatable {
    /// The BCP 47 tag: every page's `lang`, the string table, the collation, and the suffix
    /// of its entries' files (`apple.fr.md`).
    public var code: String
    public var title: String
    public var description: String
    /// What a page with no translation in this language becomes.
    public var fallback = Fallback.none
    /// The folder its pages are written in below the site root, ending in `/`; empty for the
    /// root.
    public var prefix = ""

    /// What a language shows for an entry that has no translation into it.
    public enum Fallback: String, Sendable, CaseIterable {
        /// Nothing: the entry has no page in this language.
        case none
        /// The default language's entry, with `noindex` and a canonical link to it.
        case `default`
    }

    public init(code: String, title: String, description: String) {
        (self.code, self.title, self.description) = (code, title, description)
    }
}
