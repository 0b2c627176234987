/// One file of the site, named by what it is about.
enum Page: Sendable, Hashable {
    /// A page of the index, numbered from 1 (see `Pagination`).
    case index(page: Int)
    case notFound
    /// The page of the fruit at a catalog position.
    case fruit(position: Int)
    /// A page of the category at an index of `SiteModel.categories`, numbered from 1.
    case category(Int, page: Int)
    /// A page of a facet's value: the facet at an index of `SiteModel.facets`, the value at an
    /// index of its list, numbered from 1.
    case facet(Int, value: Int, page: Int)
    case searchIndex
    /// `sitemap.xml`: the sitemap, or the index of its parts when it has more than one.
    case sitemap
    /// A part of a sitemap too long for one file, numbered from 1.
    case sitemapPart(Int)
    case robots
    /// The feed of the category at an index of `SiteModel.categories`, or of the site (nil).
    case feed(category: Int?, Feed.Format)
    /// `categories/`: every category, with its size.
    case categories
    /// `<facet>/`: the values of the facet at an index of `SiteModel.facets`, with their sizes.
    case facetValues(Int)
    /// `fruits/`, whose list is the index's: it leads there (`target`).
    case fruitsFolder
    /// A listing's `page/`, the folder of its later pages: it leads to its first page.
    case pagesFolder(Listing)

    /// A listing of fruits cut into pages (see `Pagination`).
    enum Listing: Sendable, Hashable {
        case index
        /// The category at an index of `SiteModel.categories`.
        case category(Int)
        /// The facet at an index of `SiteModel.facets`, the value at an index of its list.
        case facet(Int, value: Int)

        /// The listing's page `number`, from 1.
        func page(_ number: Int) -> Page {
            switch self {
            case .index: .index(page: number)
            case .category(let index): .category(index, page: number)
            case .facet(let facet, let value): .facet(facet, value: value, page: number)
            }
        }
    }

    /// The page a folder page leads to, one folder up; nil for every other page.
    var target: Page? {
        switch self {
        case .fruitsFolder: .index(page: 1)
        case .pagesFolder(let listing): listing.page(1)
        default: nil
        }
    }

    var kind: PageKind {
        switch self {
        case .index: .index
        case .notFound: .notFound
        case .fruit: .fruit
        case .category: .category
        case .facet: .facet
        case .searchIndex: .searchIndex
        case .sitemap, .sitemapPart: .sitemap
        case .robots: .robots
        case .feed: .feed
        case .categories: .categories
        case .facetValues: .facetValues
        case .fruitsFolder, .pagesFolder: .redirect
        }
    }

    /// The page's address below the site root, as links and `page.path` give it.
    func address(in model: SiteModel) -> String {
        switch self {
        case .index(let number): Pagination.address(of: number)
        case .notFound: "404.html"
        case .fruit(let position): "fruits/\(model[position: position].slug)/"
        case .category(let index, let number):
            "categories/\(model.categories[index].slug)/" + Pagination.address(of: number)
        case .facet(let facet, let value, let number):
            "\(model.settings.facets[facet])/\(model.facets[facet][value].slug)/"
                + Pagination.address(of: number)
        case .searchIndex: "search-index.json"
        case .sitemap: "sitemap.xml"
        case .sitemapPart(let part): SitemapBuilder.path(ofPart: part)
        case .robots: "robots.txt"
        case .feed(let category, let format):
            PageData.folder(of: category, model) + format.fileName
        case .categories: "categories/"
        case .facetValues(let facet): "\(model.settings.facets[facet])/"
        case .fruitsFolder: "fruits/"
        case .pagesFolder(let listing): listing.page(1).address(in: model) + Pagination.folder
        }
    }

    /// The page's number in its listing: 1 for pages that are not part of one.
    var number: Int {
        switch self {
        case .index(let number), .category(_, let number), .facet(_, _, let number): number
        default: 1
        }
    }

    /// The path inside the output folder: the address, or its `index.html`.
    func path(in model: SiteModel) -> String {
        let address = address(in: model)
        return address.isEmpty || address.hasSuffix("/") ? address + "index.html" : address
    }
}

/// The kinds of page, each with the template that renders it and what it can show.
enum PageKind: String, Sendable, CaseIterable {
    case index
    case notFound = "404"
    case fruit
    case category
    case searchIndex = "search-index"
    case sitemap
    case robots
    case feed
    case facet
    case categories
    case facetValues = "facet-values"
    /// A folder page that leads to another page (`Page.target`).
    case redirect

    /// The kind's position in `allCases`: the order the cases are declared in.
    var index: Int {
        switch self {
        case .index: 0
        case .notFound: 1
        case .fruit: 2
        case .category: 3
        case .searchIndex: 4
        case .sitemap: 5
        case .robots: 6
        case .feed: 7
        case .facet: 8
        case .categories: 9
        case .facetValues: 10
        case .redirect: 11
        }
    }

    /// The template that renders the page; nil for files fruitsite writes itself. A theme
    /// without the template of an optional kind writes no page of it (`Theme.writes(_:)`).
    var template: String? {
        switch self {
        case .index, .notFound, .fruit, .category, .facet, .categories, .facetValues, .redirect:
            rawValue
        case .searchIndex, .sitemap, .robots, .feed: nil
        }
    }

    /// Everything a page of this kind can show. A theme narrows it down to what its
    /// templates look up (`PageInput.isShown(by:)`).
    var inputs: [PageInput] {
        switch self {
        case .index:
            [
                .site, .fruits, .pager, .categories, .categorySizes, .facets, .totals,
                .structuredData, .feeds,
            ]
        case .notFound: [.site, .categories, .categorySizes, .totals, .feeds]
        case .fruit:
            [
                .site, .fruit, .neighbours, .category, .categorySize, .categories, .categorySizes,
                .totals, .structuredData, .feeds,
            ]
        case .category:
            [
                .site, .category, .pager, .categories, .categorySizes, .totals, .structuredData,
                .feeds,
            ]
        case .facet:
            [
                .site, .facetValue, .pager, .categories, .categorySizes, .totals,
                .structuredData, .feeds,
            ]
        case .searchIndex: [.fruits, .categories]
        case .sitemap: [.site, .slugs, .categories]
        case .robots: [.site]
        case .feed: [.site, .feedFruits]
        case .categories:
            [.site, .categories, .categorySizes, .totals, .structuredData, .feeds]
        case .facetValues:
            [.site, .facetValue, .categories, .categorySizes, .totals, .structuredData, .feeds]
        case .redirect: [.site, .categories, .categorySizes, .totals, .feeds]
        }
    }
}
