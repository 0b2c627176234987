import Foundation
import Mustache

/// The parts of a page that name it in the site's other languages.
extension PageData {
    /// `languages`, the page in each of the site's languages for the language switcher, and
    /// `alternates`, the `hreflang` links search engines read; both empty in a site of one
    /// language.
    ///
    /// A language whose folder has no page for the same thing (a category's, whose names
    /// differ by language) is named by its home page, and has no alternate. A page shown in
    /// place of a missing translation is in the switcher, marked, but no alternate: it is not
    /// to be indexed; nor is a folder page that leads to another, which has no alternates.
    func addLanguages(_ page: Page, into walk: inout some PageWalk) {
        guard translations.isMultilingual else {
            walk.add(.languages) { ["languages": [], "hasLanguages": false, "alternates": []] }
            return
        }
        walk.add(.languages, presence(of: page)) { presence in
            languagesValue(of: page, presence)
        }
    }

    /// The languages that have a page of the same thing as `page`, `page` itself included:
    /// none for a page whose other versions are not the same page (a listing's later pages).
    private func presence(of page: Page) -> Translations.Presence {
        switch page {
        case .fruit(let position): fruitPresence[position.rawValue]
        case .index(page: 2...), .category(_, page: 2...), .facet(_, _, page: 2...), .pagesFolder:
            Translations.Presence()
        default:
            translations.presence(
                of: page.address(in: model), in: translations.index(of: config.scope))
        }
    }

    private func languagesValue(of page: Page, _ presence: Translations.Presence)
        -> MustacheObject
    {
        let languages = translations.languages
        let current = translations.index(of: config.scope)
        let (siteRoot, address) = (siteRoot(of: page), page.address(in: model))
        let switcher: [MustacheValue] = languages.indices.map { index in
            let language = languages[index]
            // The page's own language has it, whether or not other languages do; but the
            // 404 page, which a server shows at any address, leads to each language's home.
            let hasPage = presence.has(index) || (index == current && page != .notFound)
            // Made in one string: each `+` allocated one, on every page.
            let url = String(
                joining: siteRoot, language.prefix,
                hasPage ? presence.address(in: index, address) : "")
            // `./` for the page at the root of a relative path.
            return .object(
                MustacheObject(
                    uniqueKeys: Self.switcherKeys,
                    values: [
                        .string(language.code), .string(translations.names[index]),
                        .string(translations.directions[index]),
                        .string(url.isEmpty ? "./" : url), .bool(index == current),
                        .bool(presence.isFallback(index)), .bool(hasPage),
                    ]))
        }
        // None on a page that is not to be indexed: the 404 page, a fallback, or a folder
        // page, whose canonical address is the page it leads to.
        let isIndexed =
            page != .notFound && page.target == nil && presence.has(current)
            && !presence.isFallback(current)
        guard isIndexed else {
            return MustacheObject(
                uniqueKeys: Self.partKeys, values: [.array(switcher), .bool(true), .array([])])
        }
        var alternates: [MustacheValue] = []
        alternates.reserveCapacity(languages.count + 1)
        // The `x-default` one's URL is the first one's, made once.
        var firstURL: MustacheValue?
        translations.forEachAlternate(presence) { language, isXDefault, other in
            let url =
                isXDefault
                ? firstURL!
                : .string(String(joining: translations.folderURLs[language], other ?? address))
            firstURL = firstURL ?? url
            let hreflang = isXDefault ? "x-default" : languages[language].code
            alternates.append(
                .object(
                    MustacheObject(
                        uniqueKeys: Self.alternateKeys, values: [.string(hreflang), url])
                ))
        }
        return MustacheObject(
            uniqueKeys: Self.partKeys,
            values: [.array(switcher), .bool(true), .array(alternates)])
    }

    /// The page's way up to the site root, which holds every language's folder: its root,
    /// which leads to its language's folder, and one step up for each folder of the
    /// language's prefix.
    func siteRoot(of page: Page) -> String {
        let root = root(of: page)
        let prefix = config.scope.prefix
        if root.hasPrefix("/") { return String(root.dropLast(prefix.count)) }
        if page.isAtSiteRoot(of: config.scope) { return "" }
        return root + String(repeating: "../", count: prefix.count { $0 == "/" })
    }

    /// The keys of each language of `languages`, in the order `languagesValue` gives them.
    private static let switcherKeys = [
        "code", "name", "direction", "url", "isCurrent", "isFallback", "hasPage",
    ]

    /// The keys of the part, in the order `languagesValue` gives them.
    private static let partKeys = ["languages", "hasLanguages", "alternates"]

    /// The keys of each of the page's alternates.
    private static let alternateKeys = ["hreflang", "url"]
}
