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
        let same = samePages(as: page)
        // What the part shows: the pages' addresses, each marked when it is a fallback.
        let read = same.map { "\($0.language) \($0.address) \($0.isFallback)" }
            .joined(separator: "\n")
        walk.add(.languages, read) { _ in
            languagesValue(of: page, samePages: same)
        }
    }

    /// The pages of the same thing as `page` in every language that has one, `page` itself
    /// included.
    private func samePages(as page: Page) -> [Translations.Alternate] {
        switch page {
        case .fruit(let position):
            translations.alternates(ofFruit: String(model[position: position].slug))
        case _ where Translations.isCommon(page):
            translations.alternates(ofCommon: page.address(in: model))
        default: []
        }
    }

    private func languagesValue(of page: Page, samePages same: [Translations.Alternate])
        -> MustacheObject
    {
        let languages = translations.languages
        let current = languages.firstIndex { $0.prefix == config.scope.prefix } ?? 0
        let siteRoot = siteRoot(of: page)
        let switcher: [MustacheValue] = languages.indices.map { index in
            let language = languages[index]
            let alternate = same.first { $0.language == index }
            let address = alternate?.address ?? language.prefix
            return [
                "code": .string(language.code),
                "name": .string(translations.names[index]),
                "direction": .string(SiteConfig.direction(of: language.code)),
                "url": .string(Self.url(siteRoot + address)),
                "isCurrent": .bool(index == current),
                "isFallback": .bool(alternate?.isFallback ?? false),
                "hasPage": .bool(alternate != nil),
            ]
        }
        // Absolute, as search engines want them; none on a page that is not to be indexed:
        // the 404 page, a fallback, or a folder page, whose canonical address is the page it
        // leads to.
        let isIndexed =
            page != .notFound && page.target == nil
            && same.first(where: { $0.language == current })?.isFallback == false
        guard !translations.baseURL.isEmpty, isIndexed else {
            return ["languages": .array(switcher), "hasLanguages": true, "alternates": []]
        }
        let indexed = same.filter { !$0.isFallback }
        var alternates: [MustacheValue] = indexed.map { alternate in
            [
                "hreflang": .string(languages[alternate.language].code),
                "url": .string(translations.baseURL + alternate.address),
            ]
        }
        if let first = indexed.first {
            alternates.append([
                "hreflang": "x-default", "url": .string(translations.baseURL + first.address),
            ])
        }
        return [
            "languages": .array(switcher), "hasLanguages": true, "alternates": .array(alternates),
        ]
    }

    /// The page's way up to the site root, which holds every language's folder: its root,
    /// which leads to its language's folder, and one step up for each folder of the
    /// language's prefix.
    func siteRoot(of page: Page) -> String {
        let root = root(of: page)
        let prefix = config.scope.prefix
        if root.hasPrefix("/") { return String(root.dropLast(prefix.count)) }
        return root + String(repeating: "../", count: prefix.count { $0 == "/" })
    }

    /// `address` as a link: `./` for the page at the root of a relative path.
    private static func url(_ address: String) -> String { address.isEmpty ? "./" : address }
}
