import Mustache

/// One part of a templated page's data: the variables it sets
/// (docs/reference/template-variables.md), and which lookups of a theme's templates show them.
/// Each kind of page adds the parts it has with what they read (`PageWalk.add`); a theme
/// narrows them down to the parts its templates look up, so that a page is rendered again only
/// when something it shows changed.
enum PageInput: Int, Sendable, Hashable, CaseIterable {
    /// `site`, `root`, `home`, `page`, `strings` and `assets`: the config, where the page is,
    /// its title and description, and the URLs of the theme's assets its templates look up
    /// (`AssetURLs`); on the index, `searchIndexURL`, and on a folder page, `redirect`.
    case site
    /// `fruit`: the page's fruit, its summary and details.
    case fruit
    /// `previous` and `next`: the summaries of the fruits either side in catalog order.
    case neighbours
    /// `category`: the page's category, and on a category page its fruits' summaries.
    case category
    /// `count` and `isSingle` of `category` on a fruit page: they shape `category`.
    case categorySize
    /// `fruits`: on the index, the summaries of the fruits of its page.
    case fruits
    /// `pager`: the page's number, how many pages its listing has, and links to them.
    case pager
    /// `categories`: every category's name, slug and address.
    case categories
    /// `count`, `isSingle` and `countText` of each of `categories`: they shape `categories`.
    case categorySizes
    /// `facets`: each facet's key and label, and its values with their names, addresses and,
    /// on a listing's first page, counts.
    case facets
    /// `facet` on a facet value's page: the facet, the value and the page's fruits; on a
    /// facet's page (`<facet>/`), the facet and every value of it with its size.
    case facetValue
    /// `fruitCount` and `categoryCount`, whether each is 1, and the two as words
    /// (`fruitCountText`, `categoryCountText`, `totalsText`).
    case totals
    /// `structuredData`: the page's schema.org JSON-LD, its breadcrumbs and what it lists.
    case structuredData
    /// `feeds`: the feeds of the site, and on a category page of its category.
    case feeds
    /// `languages`, `hasLanguages` and `alternates`: the page in each of the site's
    /// languages, for the language switcher and the `hreflang` links.
    case languages

    /// Whether templates that look up what `usage` says can show this input: the names
    /// that reach it, looked up anywhere (a name can resolve in any context on the stack).
    /// A dynamic partial could look up anything.
    func isShown(by usage: MustacheUsage) -> Bool {
        if usage.hasDynamicInclusions { return true }
        let sizes: Swift.Set<String> = ["count", "isSingle", "countText"]
        return usage.lookups.contains { lookup in
            switch self {
            case .site: true
            case .fruit: lookup.name.first == "fruit"
            case .neighbours: lookup.name.first == "previous" || lookup.name.first == "next"
            case .category: lookup.name.first == "category"
            case .categorySize: lookup.name.contains(where: sizes.contains)
            case .fruits: lookup.name.first == "fruits"
            case .feeds: lookup.name.first == "feeds"
            case .languages:
                ["languages", "alternates", "hasLanguages"].contains(lookup.name.first)
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
                [
                    "fruitCount", "categoryCount", "isSingleFruit", "isSingleCategory",
                    "fruitCountText", "categoryCountText", "totalsText",
                ].contains(lookup.name.first)
            }
        }
    }

    /// Inputs as bits, one for each case: what a kind's templates show, tested per part.
    struct Set: Sendable, Equatable {
        private var bits: UInt32 = 0

        static let all = Set(PageInput.allCases)

        init(_ inputs: some Sequence<PageInput>) {
            for input in inputs { bits |= 1 << input.rawValue }
        }

        func contains(_ input: PageInput) -> Bool { bits & (1 << input.rawValue) != 0 }
    }
}
