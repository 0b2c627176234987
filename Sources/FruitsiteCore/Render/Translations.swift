import Foundation

/// Which of the site's languages list each entry, and how: what every page's language
/// switcher and `hreflang` alternates name. Made once the content of every language is
/// applied, before any page is planned, and shared by the languages' pages.
///
/// An entry's translations share its key, the slug of their files' names (`apple.md`,
/// `apple.fr.md`), so a translation's page is at the same address in its language's folder.
final class Translations: Sendable {
    /// The site's languages, the default first; one for a site in one language.
    let languages: [SiteLanguage]
    /// Each language's name in that language (`icuDisplayName(of:)`).
    let names: [String]
    /// The direction each language is written in (`SiteConfig.direction(of:)`).
    let directions: [String]
    /// The site's base URL, at whose root the default language's pages are.
    let baseURL: String
    /// For each language, the slugs of the fruits it lists, each with whether the page shows
    /// the default language's entry in place of a missing translation.
    private let fruits: [[Substring: Bool]]
    /// For each language, the addresses of the pages it has of those each language may have
    /// alike (`isCommon(_:)`): a language none of whose fruits has a value of a facet has no
    /// page of the facet's values, nor one without fruits a page of its categories.
    private let common: [Set<String>]
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
            (fruits, common, sitemapParts) = ([], [], [])
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
        sitemapParts = pages.map { pages in
            pages.count { if case .sitemapPart = $0 { true } else { false } }
        }
        fruits = parts.map { model, _, _ in
            var slugs: [Substring: Bool] = [:]
            slugs.reserveCapacity(model.order.count)
            let scope = model.settings.scope
            for id in model.order {
                let path = model[id].path
                slugs[SourceFile.slug(of: path)] = scope.isFallback(path)
            }
            return slugs
        }
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

        func has(_ language: Int) -> Bool { has & 1 << language != 0 }
        func isFallback(_ language: Int) -> Bool { fallbacks & 1 << language != 0 }

        func combine(into hasher: inout StableHasher) {
            hasher.combine(has)
            hasher.combine(fallbacks)
        }
    }

    /// The languages that list the fruit `slug`.
    func presence(ofFruit slug: Substring) -> Presence {
        var presence = Presence()
        for index in fruits.indices {
            guard let isFallback = fruits[index][slug] else { continue }
            presence.has |= 1 << index
            if isFallback { presence.fallbacks |= 1 << index }
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
            (languages[$0].code, baseURL + languages[$0].prefix + address)
        }
        if let first = alternates.first { alternates.append(("x-default", first.1)) }
        return alternates
    }

    /// Whether `page` is one each language's site may have at the same address below its
    /// folder: the index's first page, the categories', a facet's values', the 404 page and
    /// the folder that leads to the index.
    static func isCommon(_ page: Page) -> Bool {
        switch page {
        case .index(page: 1), .categories, .facetValues, .notFound, .fruitsFolder: true
        default: false
        }
    }

    /// The languages that have the page at `address` below their folders, one of those
    /// languages have alike (`isCommon(_:)`), such as the index.
    func presence(ofCommon address: String) -> Presence {
        var presence = Presence()
        for index in common.indices where common[index].contains(address) {
            presence.has |= 1 << index
        }
        return presence
    }
}
