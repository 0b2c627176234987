import Foundation

/// Which of the site's languages list each entry, and how: what every page's language
/// switcher and `hreflang` alternates name. Made once the content of every language is
/// applied, before any page is planned, and shared by the languages' pages.
///
/// An entry's translations share its key (`SiteModel.Entry.translationKey`): the slug of
/// their files' names (`apple.md`, `apple.fr.md`), so that the pages are at the same address
/// in each language's folder, or the default entry's slug a translation named otherwise names
/// (`pomme.fr.md`, at `fr/fruits/pomme/`).
final class Translations: Sendable {
    /// The site's languages, the default first; one for a site in one language.
    let languages: [SiteLanguage]
    /// Each language's name in that language (`icuDisplayName(of:)`).
    let names: [String]
    /// The direction each language is written in (`SiteConfig.direction(of:)`).
    let directions: [String]
    /// The site's base URL, at whose root the default language's pages are.
    let baseURL: String
    /// For each language, the languages that list the fruit at each catalog position, with
    /// its address in each where its slugs differ: made once for each translation key, and
    /// shared by the fruit's pages, their alternates and the sitemaps' entries.
    let fruitPresence: [[Presence]]
    /// The URL of each language's folder: the base URL and the language's prefix.
    let folderURLs: [String]
    /// For each language, the addresses of the pages it has of those each language may have
    /// alike (`isCommon(_:)`): a language none of whose fruits has a value of a facet has no
    /// page of the facet's values, nor one without fruits a page of its categories.
    private let common: [Set<String>]
    /// For each language, its listings that are the same page in other languages, with their
    /// address in each (`listingCounterparts(of:)`).
    private let listings: [[String: [String]]]
    /// How many files each language's sitemap is cut into (`Page.sitemapPart`), each named
    /// by the sitemap index at the root; none without a sitemap.
    let sitemapParts: [Int]

    /// The translations of the parts' models, with their configs and themes, the default
    /// language first.
    init(_ parts: [(model: SiteModel, config: SiteConfig, theme: TemplateLoader.Theme)]) {
        languages = parts.count > 1 ? parts[0].config.siteLanguages : []
        names = languages.map { icuDisplayName(of: $0.code) ?? $0.code }
        directions = languages.map { SiteConfig.direction(of: $0.code) }
        baseURL =
            parts.first.map { config in
                let base = config.config.baseURL
                return String(base.dropLast(config.config.scope.prefix.count))
            } ?? ""
        folderURLs = languages.map { [baseURL] in baseURL + $0.prefix }
        guard parts.count > 1 else {
            (fruitPresence, common, listings, sitemapParts) = ([], [], [], [])
            return
        }
        let pages = parts.map { model, config, theme in
            model.pages(
                in: Pagination(pageSize: config.pageSize), hasSitemap: config.hasSitemap,
                writes: theme.writes)
        }
        common = zip(parts, pages).map { part, pages in
            Set(pages.lazy.filter(Self.isCommon).map { $0.address(in: part.model) })
        }
        let keys = Keys(parts.map(\.model))
        listings = Self.listingCounterparts(of: parts.map(\.model), keys: keys)
        sitemapParts = pages.map { pages in
            pages.count { if case .sitemapPart = $0 { true } else { false } }
        }
        fruitPresence = keys.byPosition.map { $0.map { keys.presence[$0] } }
    }

    /// The default language's folder: empty, at the root, unless every language has one.
    var defaultPrefix: String { languages.first?.prefix ?? "" }

    /// Whether the site has several languages, and so its pages name each other.
    var isMultilingual: Bool { !fruitPresence.isEmpty }

    /// Which languages have a page of the same thing, at the same address below their
    /// folders, and which of those show the default language's entry in place of a missing
    /// translation: a bit for each language, by its index in `languages`. What a page's
    /// `languages` part reads.
    struct Presence: PageRead, Sendable, Equatable {
        var has: UInt64 = 0
        var fallbacks: UInt64 = 0
        /// The page's address below each language's folder where they differ, as a
        /// category's do; nil where it is the same in every language.
        var addresses: [String]?

        func has(_ language: Int) -> Bool { has & 1 << language != 0 }
        func isFallback(_ language: Int) -> Bool { fallbacks & 1 << language != 0 }

        /// The page's address below the folder of `language`, one that has it, given its
        /// `address` in the language at hand.
        func address(in language: Int, _ address: String) -> String {
            addresses?[language] ?? address
        }

        func combine(into hasher: inout StableHasher) {
            hasher.combine(has)
            hasher.combine(fallbacks)
            for address in addresses ?? [] { hasher.combine(address) }
        }
    }

    /// The `hreflang` alternates of a page that the languages of `presence` have: each that
    /// shows its own entry there, then `x-default`, the first of those. Absolute, as search
    /// engines want them (`folderURLs`); none without a base URL. Each is given to `body` as
    /// the language's index in `languages`, whether it is the `x-default` one, and the page's
    /// address below its folder where it differs from the page at hand's
    /// (`Presence.addresses`).
    func forEachAlternate(
        _ presence: Presence,
        _ body: (_ language: Int, _ isXDefault: Bool, _ address: String?) -> Void
    ) {
        guard !baseURL.isEmpty else { return }
        var first: Int?
        for index in languages.indices where presence.has(index) && !presence.isFallback(index) {
            first = first ?? index
            body(index, false, presence.addresses?[index])
        }
        if let first { body(first, true, presence.addresses?[first]) }
    }

    /// Whether `page` is one each language's site may have at the same address below its
    /// folder: the index's first page, the categories', a facet's values', and the folder that
    /// leads to the index. (Not the 404 page: a server shows it at any address, and its
    /// switcher leads to each language's home page.)
    static func isCommon(_ page: Page) -> Bool {
        switch page {
        case .index(page: 1), .categories, .facetValues, .fruitsFolder: true
        default: false
        }
    }

    /// The languages that have the same page as the one at `address` below the folder of
    /// `language`, a page other than a fruit's: one the languages have alike (`isCommon(_:)`),
    /// such as the index, or a listing with counterparts (`listingCounterparts(of:)`).
    func presence(of address: String, in language: Int) -> Presence {
        var presence = Presence()
        guard isMultilingual else { return presence }
        if let addresses = listings[language][address] {
            for index in addresses.indices where !addresses[index].isEmpty {
                presence.has |= 1 << index
            }
            presence.addresses = addresses
            return presence
        }
        for index in common.indices where common[index].contains(address) {
            presence.has |= 1 << index
        }
        return presence
    }

    /// The index in `languages` of the language of `scope`.
    func index(of scope: LanguageScope) -> Int {
        languages.firstIndex { $0.prefix == scope.prefix } ?? 0
    }
}
