/// The kinds of page. Each is declared once, in a type of its own (`FruitPage`, `SitemapFile`
/// …): the template that renders it, and each part of its data with what that part reads, from
/// which both the page's input hash and its data or bytes are made (`PageData.walk`).
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
    case searchShards = "search-shards"
    case searchRecords = "search-records"

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
        case .searchShards: 12
        case .searchRecords: 13
        }
    }

    /// The template that renders the page, as its declaration names it; nil for files
    /// fruitsite writes itself. A theme without the template of an optional kind writes no
    /// page of it (`Theme.writes(_:)`).
    var template: String? {
        switch self {
        case .index: IndexPage.template
        case .notFound: NotFoundPage.template
        case .fruit: FruitPage.template
        case .category: CategoryPage.template
        case .facet: FacetPage.template
        case .categories: CategoriesPage.template
        case .facetValues: FacetValuesPage.template
        case .redirect: FolderPage.template
        case .searchIndex, .searchShards, .searchRecords, .sitemap, .robots, .feed: nil
        }
    }
}
