import Mustache

/// One thing a page can show. `PageKind.inputs` declares which each kind of page can show;
/// `PageData` makes both a page's template data and the hash of its inputs from that one
/// declaration, so a page is rendered again exactly when something it shows changed.
enum PageInput: Sendable, Hashable, CaseIterable {
    /// `site`, `root`, `home`, `page` and `assets`: the config, where the page is, and the
    /// URLs of the theme's assets its templates look up (`AssetURLs`).
    case site
    /// `fruit`: the page's fruit, its summary and details.
    case fruit
    /// `previous` and `next`: the summaries of the fruits either side in catalog order.
    case neighbours
    /// `category`: the page's category, and on a category page its fruits' summaries.
    case category
    /// `count` and `isSingle` of `category` on a fruit page.
    case categorySize
    /// `fruits`: every fruit's summary, in catalog order; on the index, those of its page.
    case fruits
    /// Every fruit's slug and date, in any order, each facet's values, and how many pages each
    /// listing has: all the sitemap shows besides the categories' names.
    case slugs
    /// `pager`: the page's number, how many pages its listing has, and links to them.
    case pager
    /// `categories`: every category's name, slug and address.
    case categories
    /// `count` and `isSingle` of each of `categories`.
    case categorySizes
    /// `facets`: each facet's key and label, and its values with their names, addresses and,
    /// on a listing's first page, counts.
    case facets
    /// `facet` on a facet value's page: the facet, the value and the page's fruits; on a
    /// facet's page (`<facet>/`), the facet and every value of it with its size.
    case facetValue
    /// `fruitCount` and `categoryCount`, and whether each is 1.
    case totals
    /// `structuredData`: the page's schema.org JSON-LD, its breadcrumbs and the fruits it
    /// lists.
    case structuredData
    /// `feeds`: the feeds of the site, and on a category page of its category.
    case feeds
    /// The fruits a feed lists, their summaries and details.
    case feedFruits

    /// Whether templates that look up what `usage` says can show this input: the names
    /// that reach it, looked up anywhere (a name can resolve in any context on the stack).
    /// A dynamic partial could look up anything.
    func isShown(by usage: MustacheUsage) -> Bool {
        if usage.hasDynamicInclusions { return true }
        let sizes: Set<String> = ["count", "isSingle"]
        return usage.lookups.contains { lookup in
            switch self {
            case .site: true
            case .fruit: lookup.name.first == "fruit"
            case .neighbours: lookup.name.first == "previous" || lookup.name.first == "next"
            case .category: lookup.name.first == "category"
            case .categorySize: lookup.name.contains(where: sizes.contains)
            case .fruits: lookup.name.first == "fruits"
            // No template variable: the sitemap and the feeds are written, not templated.
            case .slugs, .feedFruits: false
            case .feeds: lookup.name.first == "feeds"
            case .pager: lookup.name.first == "pager"
            case .structuredData: lookup.name.first == "structuredData"
            case .categories: lookup.name.first == "categories"
            case .facets: lookup.name.first == "facets"
            case .facetValue: lookup.name.first == "facet"
            case .categorySizes:
                // A category of the list is on the context stack only inside a section that
                // iterates `categories`.
                lookup.name.contains(where: sizes.contains)
                    && lookup.sections.contains { $0.last == "categories" }
            case .totals:
                ["fruitCount", "categoryCount", "isSingleFruit", "isSingleCategory"].contains(
                    lookup.name.first)
            }
        }
    }
}
