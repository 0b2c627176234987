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
            fruits = []
            return
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

    /// The pages at `address` (below each language's folder) in every language: the pages
    /// each language has alike, such as the index.
    func alternates(ofCommon address: String) -> [Alternate] {
        languages.indices.map { Alternate(language: $0, address: languages[$0].prefix + address) }
    }

    /// The home page of every language.
    var homes: [Alternate] { alternates(ofCommon: "") }
}
