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
    /// The site's base URL, at whose root the default language's pages are.
    let baseURL: String
    /// For each language, the slugs of the fruits it lists, each with whether the page shows
    /// the default language's entry in place of a missing translation.
    private let fruits: [[String: Bool]]
    /// For each language, the addresses of the pages it has of those each language may have
    /// alike (`isCommon(_:)`): a language none of whose fruits has a value of a facet has no
    /// page of the facet's values, nor one without fruits a page of its categories.
    private let common: [Set<String>]

    /// The translations of the parts' models, with their configs, the default language first.
    init(_ parts: [(model: SiteModel, config: SiteConfig)]) {
        languages = parts.count > 1 ? parts[0].config.siteLanguages : []
        names = languages.map { icuDisplayName(of: $0.code) ?? $0.code }
        baseURL =
            parts.first.map { config in
                let base = config.config.baseURL
                return String(base.dropLast(config.config.scope.prefix.count))
            } ?? ""
        guard parts.count > 1 else {
            (fruits, common) = ([], [])
            return
        }
        common = parts.map { model, config in
            let pages = model.pages(in: Pagination(pageSize: config.pageSize), hasSitemap: false)
            return Set(pages.lazy.filter(Self.isCommon).map { $0.address(in: model) })
        }
        fruits = parts.map { model, _ in
            var slugs: [String: Bool] = [:]
            slugs.reserveCapacity(model.order.count)
            let scope = model.settings.scope
            for id in model.order {
                let entry = model[id]
                slugs[String(entry.slug)] = scope.isFallback(entry.path)
            }
            return slugs
        }
    }

    /// The default language's folder: empty, at the root, unless every language has one.
    var defaultPrefix: String { languages.first?.prefix ?? "" }

    /// Whether the site has several languages, and so its pages name each other.
    var isMultilingual: Bool { !fruits.isEmpty }

    /// One language's page of the same thing.
    struct Alternate: Sendable, Equatable {
        /// The language's index in `languages`.
        var language: Int
        /// The page's address below the site root, such as `fr/fruits/apple/`.
        var address: String
        /// Whether the page shows the default language's entry in place of a translation.
        var isFallback = false
    }

    /// The pages of the fruit `slug` in every language that lists it.
    func alternates(ofFruit slug: String) -> [Alternate] {
        fruits.indices.compactMap { index in
            fruits[index][slug].map { isFallback in
                Alternate(
                    language: index, address: languages[index].prefix + "fruits/\(slug)/",
                    isFallback: isFallback)
            }
        }
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

    /// The pages at `address` (below each language's folder) in every language that has
    /// one: the pages languages have alike (`isCommon(_:)`), such as the index.
    func alternates(ofCommon address: String) -> [Alternate] {
        languages.indices.filter { common[$0].contains(address) }.map {
            Alternate(language: $0, address: languages[$0].prefix + address)
        }
    }

    /// The home page of every language.
    var homes: [Alternate] { alternates(ofCommon: "") }
}
