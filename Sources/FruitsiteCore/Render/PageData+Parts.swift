import Mustache

/// The parts most kinds of page have alike.
extension PageData {
    /// `site`, `root`, `home`, `assets` and `page`, and on a folder page `redirect`;
    /// `description` is the page's own (`page.description`), empty for none.
    func addSite(
        _ page: Page, title: PageTitle, description: String = "", into walk: inout some PageWalk
    ) {
        walk.add(.site, siteRead, assets(of: page.kind), title, description, isFallback(page)) {
            site, assets, title, description, isFallback in
            let site = settings(of: site)
            let (root, path) = (root(of: page), page.address(in: model))
            // An error page has no canonical address of its own; a folder page's is the one
            // of the page it leads to; a page shown in place of a missing translation, the
            // original's.
            let target = page.target.map { $0.address(in: model) }
            let canonical =
                page == .notFound || site.baseURL.isEmpty
                ? ""
                : isFallback
                    ? translations.baseURL + translations.defaultPrefix + path
                    : site.baseURL + (target ?? path)
            let title =
                switch title {
                case .text(let text): text
                case .fruit(let fruit):
                    BidiIsolation.isolated(listed(at: fruit.position).name)
                }
            var common: MustacheObject = [
                "site": site.value,
                "root": .string(root),
                "home": .string(root.isEmpty ? "./" : root),
                "assets": urls(of: assets).value(root: root),
                "strings": theme.strings.value,
                "page": [
                    "title": .string(
                        page.number == 1
                            ? title
                            : theme.strings.text(
                                "pageTitle",
                                ["title": title, "page": theme.strings.number(page.number)])),
                    "description": Self.optional(description),
                    "path": .string(path),
                    "canonicalURL": Self.optional(canonical),
                    "isFallback": .bool(isFallback),
                    "fallbackLanguage": isFallback ? fallbackLanguage : .null,
                ],
            ]
            // The page it leads to is one folder up, or for the site root's, down in the
            // default language's folder.
            if target != nil {
                common["redirect"] = [
                    "url": .string(page == .siteRoot ? root : "../"),
                    "text": .string(theme.strings.text("goTo", ["title": title])),
                ]
            }
            return common
        }
        addLanguages(page, into: &walk)
    }

    /// The language of an entry shown in place of a missing translation, the default one:
    /// `code` and `direction`, for the `lang` and `dir` of what the page shows of it.
    private var fallbackLanguage: MustacheValue {
        [
            "code": .string(translations.languages.first?.code ?? ""),
            "direction": .string(translations.directions.first ?? "ltr"),
        ]
    }

    /// Whether `page` shows the default language's entry in place of a missing translation.
    func isFallback(_ page: Page) -> Bool {
        guard case .fruit(let position) = page, model.settings.scope.takesFallbacks else {
            return false
        }
        return model.settings.scope.isFallback(model[position: position].path)
    }

    /// `categories`, the one at index `current` marked; sized on a listing's first page when
    /// shown, as sizes change with every fruit added.
    func addCategories(
        _ page: Page, current: Int = GroupList.noGroup, into walk: inout some PageWalk
    ) {
        let isSized = walk.shows(.categorySizes) && page.number == 1
        walk.add(.categories, groups(.categories, isSized: isSized), current) {
            categories, current in
            ["categories": categoriesValue(categories, root: root(of: page), current: current)]
        }
    }

    /// `fruitCount` and `categoryCount`, on a listing's first page: they change with every
    /// fruit added.
    func addTotals(_ page: Page, into walk: inout some PageWalk) {
        guard page.number == 1 else { return }
        walk.add(.totals, model.order.count, model.categories.count) { fruits, categories in
            let strings = theme.strings
            let fruitsText = strings.text("fruits", count: fruits)
            let categoriesText = strings.text("categoryCount", count: categories)
            return [
                "fruitCount": .int(fruits),
                "categoryCount": .int(categories),
                // For the singular: "1 fruit in 1 category".
                "isSingleFruit": .bool(fruits == 1),
                "isSingleCategory": .bool(categories == 1),
                // The same in the site's language, its plural forms and numbers.
                "fruitCountText": .string(fruitsText),
                "categoryCountText": .string(categoriesText),
                "totalsText": .string(
                    strings.text(
                        "fruitsInCategories", ["fruits": fruitsText, "categories": categoriesText]
                    )),
            ]
        }
    }

    /// `pager`, for a page of a listing of `count` fruits whose first page's heading is
    /// `heading`.
    func addPager(_ page: Page, count: Int, heading: String, into walk: inout some PageWalk) {
        walk.add(.pager, page.number, pagination.pageCount(of: count), heading) {
            number, pages, heading in
            ["pager": Self.pager(number, of: pages, heading: heading, strings: theme.strings)]
        }
    }

    /// `feeds`: the feeds of the site, after those of `category` when it has any; none
    /// without feeds.
    func addFeeds(_ page: Page, category: Int? = nil, into walk: inout some PageWalk) {
        let group = category.flatMap { index in
            feeds.categories[index].isEmpty ? nil : self.group(.categories, index, isSized: false)
        }
        walk.add(.feeds, siteRead, FeedLinks(hasFeeds: !feeds.site.isEmpty, category: group)) {
            site, links in
            guard links.hasFeeds else { return ["feeds": .array([])] }
            let site = settings(of: site)
            let listings: [FruitGroup?] = links.category.map { [self.group(of: $0), nil] } ?? [nil]
            return [
                "feeds": .array(
                    listings.flatMap { listing in
                        let title = FeedFile.feed(
                            site: site, category: listing, strings: theme.strings
                        ).title
                        return Feed.Format.allCases.map { format -> MustacheValue in
                            [
                                "title": .string(
                                    format == .atom
                                        ? title : theme.strings.text("jsonFeed", ["title": title])),
                                "url": .string(
                                    root(of: page) + FeedFile.folder(of: listing)
                                        + format.fileName),
                                "type": .string(format.mediaType),
                            ]
                        }
                    })
            ]
        }
    }
}
