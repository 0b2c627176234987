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
    /// For each language, the translation keys of the fruits it lists, each with the fruit's
    /// slug and whether the page shows the default language's entry in place of a missing
    /// translation.
    private let fruits: [[Substring: (slug: Substring, isFallback: Bool)]]
    /// For each language, the key of each fruit whose slug is not its key.
    private let renamed: [[Substring: Substring]]
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
        guard parts.count > 1 else {
            (fruits, renamed, common, listings, sitemapParts) = ([], [], [], [], [])
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
        listings = Self.listingCounterparts(of: parts.map(\.model))
        sitemapParts = pages.map { pages in
            pages.count { if case .sitemapPart = $0 { true } else { false } }
        }
        (fruits, renamed) = Self.fruits(of: parts.map(\.model))
    }

    /// `fruits` and `renamed` of each of `models`.
    private static func fruits(of models: [SiteModel]) -> (
        [[Substring: (slug: Substring, isFallback: Bool)]], [[Substring: Substring]]
    ) {
        var fruits: [[Substring: (slug: Substring, isFallback: Bool)]] = []
        var renamed: [[Substring: Substring]] = []
        for model in models {
            var keys: [Substring: (slug: Substring, isFallback: Bool)] = [:]
            keys.reserveCapacity(model.order.count)
            var slugs: [Substring: Substring] = [:]
            let scope = model.settings.scope
            for id in model.order {
                let entry = model[id]
                let (key, slug) = (entry.translationKey, entry.slug)
                keys[key] = (slug, scope.isFallback(entry.path))
                if key != slug { slugs[slug] = key }
            }
            fruits.append(keys)
            renamed.append(slugs)
        }
        return (fruits, renamed)
    }

    /// The default language's folder: empty, at the root, unless every language has one.
    var defaultPrefix: String { languages.first?.prefix ?? "" }

    /// Whether the site has several languages, and so its pages name each other.
    var isMultilingual: Bool { !fruits.isEmpty }

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

    /// The languages that list the fruit whose slug in `language` is `slug`, with its
    /// address in each where its slugs differ.
    func presence(ofFruit slug: Substring, in language: Int) -> Presence {
        let key = renamed[language][slug] ?? slug
        var presence = Presence()
        var slugs: [Substring?] = Array(repeating: nil, count: fruits.count)
        for index in fruits.indices {
            guard let fruit = fruits[index][key] else { continue }
            presence.has |= 1 << index
            if fruit.isFallback { presence.fallbacks |= 1 << index }
            slugs[index] = fruit.slug
        }
        if slugs.contains(where: { $0 != nil && $0 != slug }) {
            presence.addresses = slugs.map { $0.map { "fruits/\($0)/" } ?? "" }
        }
        return presence
    }

    /// The `hreflang` alternates of a page at `address` below each language's folder that the
    /// languages of `presence` have: each that shows its own entry there, then `x-default`, the
    /// first of those. Absolute, as search engines want them; none without a base URL.
    func alternates(of address: String, _ presence: Presence) -> [(hreflang: String, url: String)] {
        guard !baseURL.isEmpty else { return [] }
        let indexed = languages.indices.filter { presence.has($0) && !presence.isFallback($0) }
        var alternates = indexed.map {
            (languages[$0].code, baseURL + languages[$0].prefix + presence.address(in: $0, address))
        }
        if let first = alternates.first { alternates.append(("x-default", first.1)) }
        return alternates
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
