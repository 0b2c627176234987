import Mustache

/// What every page is made from: the model, the config and the theme, with what many pages
/// read made once. Each kind of page is declared once (`PageKind`), and `walk` goes over that
/// declaration to make a page's input hash, its template data or bytes, and what is made
/// ready before it is rendered: the three cannot disagree.
///
/// The hash is made from hashes the model already holds (each entry's source and summary
/// hashes), so hashing every page of a large site costs little more than a pass over the
/// catalog; the data is made only for the pages rendered.
struct PageData: Sendable {
    let model: SiteModel
    let config: SiteConfig
    let theme: TemplateLoader.Theme
    let pagination: Pagination
    let feeds: Feeds
    /// The search index's file the index page's search loads: `search-index.json` named by
    /// its bytes (set once it is made), or the sharded index's manifest.
    var searchIndexPath: String
    /// The `assets` variable, from every depth of the site's folders.
    let assetURLs: AssetURLs
    /// The settings `site` shows, which feeds and JSON-LD name too.
    let site: SiteSettings
    /// `model.positions`, which passes over every listed fruit go by.
    let positions: SiteModel.Positions
    /// Each catalog position's entry's source and summary hashes, gathered once in id order:
    /// every read of fruits hashes some of them (`FruitReads`).
    let hashes: [(source: UInt64, summary: UInt64)]
    /// The index in `model.categories` of each catalog position's category, from the
    /// categories' members: hashing a fruit page's inputs decodes no fruit.
    let categoryOfPosition: [Int32]
    /// The categories, and each facet's values, with their names' and sizes' hashes.
    let categories: GroupList
    let facets: [GroupList]
    /// What the sitemap lists, and its hash.
    let sitemapListing: SitemapListing
    /// Every category's summary from two folders down (`nestedRoot`), without and with its
    /// size, made once: every fruit page lists every category.
    private(set) var nestedCategories: (plain: [MustacheValue], sized: [MustacheValue]) = ([], [])
    /// Each facet's label, made once: every fruit page labels its facets.
    private(set) var facetLabels: [String: String] = [:]
    /// The summaries of the fruits the pages about to be rendered show
    /// (`prepare(for:within:)`).
    private(set) var summaries = SummaryCache()
    /// What the sitemap lists, when the pages about to be rendered include it: each of its
    /// files cuts its part from this list.
    private(set) var sitemap: [SitemapBuilder.Location] = []

    /// Reads an entry's details, by its id, for the pages that show them (a fruit's, a feed).
    typealias Details = (EntryID) throws(BuildFailure) -> FruitDetails

    /// Which languages have each page, for its switcher and alternates.
    let translations: Translations
    /// The languages that list the fruit at each catalog position, in a site of several
    /// (`Translations.fruitPresence`).
    let fruitPresence: [Translations.Presence]

    /// Where fruit and category pages sit: `fruits/<slug>/`, two folders down.
    static let nestedRoot = "../../"

    init(
        model: SiteModel, config: SiteConfig, theme: TemplateLoader.Theme,
        translations: Translations? = nil
    ) {
        self.model = model
        self.config = config
        self.theme = theme
        let translations = translations ?? Translations([(model, config, theme)])
        self.translations = translations
        fruitPresence =
            translations.isMultilingual
            ? translations.fruitPresence[translations.index(of: config.scope)] : []
        assert(fruitPresence.isEmpty || fruitPresence.count == model.order.count)
        assetURLs = AssetURLs(theme: theme)
        pagination = Pagination(pageSize: config.pageSize)
        site = SiteSettings(config)
        let positions = model.positions
        self.positions = positions
        hashes = model.byPosition(filling: (0, 0), positions: positions) {
            ($0.sourceHash, $0.summaryHash)
        }
        categories = GroupList(model.categories)
        facets = zip(model.facets, model.settings.facets).map { GroupList($0, facet: $1) }
        sitemapListing = SitemapListing(
            model: model, positions: positions, theme: theme, pagination: pagination,
            translations: translations, fruitPresence: fruitPresence)
        var categoryOfPosition = [Int32](repeating: -1, count: model.order.count)
        for (index, category) in model.categories.enumerated() {
            for position in category.positions {
                categoryOfPosition[position.rawValue] = Int32(index)
            }
        }
        self.categoryOfPosition = categoryOfPosition
        feeds = Feeds(
            model: model, config: config, positions: positions,
            categoryOfPosition: categoryOfPosition)
        searchIndexPath =
            config.shardsSearch(fruitCount: model.order.count)
            ? SearchShards.manifestPath : Page.searchIndex.path(in: model)
        nestedCategories = (
            categoriesSummaries(root: Self.nestedRoot, isSized: false),
            categoriesSummaries(root: Self.nestedRoot, isSized: true)
        )
        facetLabels = Dictionary(
            model.settings.facets.map { ($0, theme.strings.label(ofFacet: $0)) }
        ) { first, _ in first }
    }

    /// A facet's label, as `ThemeStrings.label(ofFacet:)` makes it.
    func label(ofFacet key: String) -> String {
        facetLabels[key] ?? theme.strings.label(ofFacet: key)
    }

    /// The hash of everything `page` shows: the templates and the fruitsite that render it,
    /// where it is, and what each of its parts reads.
    func inputHash(of page: Page) -> UInt64 {
        var hashing = InputHashing(shown: theme.shown(on: page.kind))
        hashing.hasher.combine(theme.version(of: page.kind))
        hashing.hasher.combine(root(of: page))
        walk(page, details: Self.readsNoDetails, into: &hashing)
        return hashing.hasher.value
    }

    /// The data `page`'s template receives.
    /// - Throws: `BuildFailure` when the details of a fruit it shows cannot be read.
    func data(of page: Page, details: Details) throws(BuildFailure) -> MustacheValue {
        var data = TemplateData(shown: theme.shown(on: page.kind))
        walk(page, details: details, into: &data)
        if let failure = data.failure { throw failure }
        return .object(data.object)
    }

    /// The bytes of a file fruitsite writes itself (a feed, the sitemap, a search index's).
    /// - Throws: `BuildFailure` when the details of a fruit it shows cannot be read.
    func bytes(of page: Page, details: Details) throws(BuildFailure) -> [UInt8] {
        var bytes = FileBytes()
        walk(page, details: details, into: &bytes)
        return try bytes.bytes.get()
    }

    /// The bytes of a file that shows no fruit's details, which nothing else can fail: a
    /// search index's.
    func bytes(of page: Page) -> [UInt8] {
        do {
            return try bytes(of: page, details: Self.readsNoDetails)
        } catch {
            preconditionFailure("\(page) reads no details, and failed: \(error)")
        }
    }

    /// For the pages that show no fruit's details, and for hashing, which reads none.
    private static func readsNoDetails(_ id: EntryID) throws(BuildFailure) -> FruitDetails {
        preconditionFailure("the page reads no details")
    }

    /// Makes ready, on every core, what the longest run of `pages` from its start within
    /// `limit` shows: the fruits' summaries its pages' parts mark, and the sitemap's list when
    /// it holds a part of it. What the last call made is dropped.
    /// - Returns: How many pages the run holds: at least one, a page over the limit on its
    ///   own (a listing of every fruit) being a run of its own.
    mutating func prepare(
        for pages: some Sequence<Page>, within limit: PageRenderer.BatchLimit
    ) -> Int {
        var marking = Marking(shown: .all, marks: PageMarks(fruitCount: model.order.count))
        var (taken, fruits) = (0, 0)
        for page in pages {
            marking.shown = theme.shown(on: page.kind)
            walk(page, details: Self.readsNoDetails, into: &marking)
            let shown = max(marking.marks.pageCount, 1)
            if taken > 0, taken == limit.pages || fruits + shown > limit.fruits { break }
            marking.marks.take()
            (taken, fruits) = (taken + 1, fruits + shown)
        }
        summaries.prepare(marking.marks, self)
        sitemap = marking.marks.listsSitemap ? sitemapListing.locations(of: self) : []
        return taken
    }

    // MARK: - The walk

    /// Hands each part of `page`, as its kind declares it, to `walk`.
    /// - Parameter details: How the parts that show a fruit's details read them.
    func walk(_ page: Page, details: Details, into walk: inout some PageWalk) {
        switch page {
        case .index(let number): IndexPage(number: number).walk(self, into: &walk)
        case .notFound: NotFoundPage().walk(self, into: &walk)
        case .fruit(let position):
            FruitPage(position: position).walk(self, details: details, into: &walk)
        case .category(let index, let number):
            CategoryPage(index: index, number: number).walk(self, into: &walk)
        case .facet(let facet, let value, let number):
            FacetPage(facet: facet, value: value, number: number).walk(self, into: &walk)
        case .categories: CategoriesPage().walk(self, into: &walk)
        case .facetValues(let facet): FacetValuesPage(facet: facet).walk(self, into: &walk)
        case .fruitsFolder, .pagesFolder, .siteRoot: FolderPage(page: page).walk(self, into: &walk)
        case .feed(let category, let format):
            FeedFile(category: category, format: format).walk(self, details: details, into: &walk)
        case .sitemap: SitemapFile(part: 0).walk(self, into: &walk)
        case .sitemapPart(let part): SitemapFile(part: part).walk(self, into: &walk)
        case .robots: RobotsFile().walk(self, into: &walk)
        case .searchIndex: SearchIndexFile().walk(self, into: &walk)
        case .searchShards: SearchShardsFiles().walk(self, into: &walk)
        case .searchRecords(let positions):
            SearchShardsFiles.Records(positions: positions).walk(self, into: &walk)
        }
    }

    /// How the page links to the site root.
    func root(of page: Page) -> String {
        switch page {
        case .fruit, .category(_, page: 1), .facet(_, _, page: 1), .index(page: 2...):
            Self.nestedRoot
        case .category, .facet: Self.nestedRoot + Self.nestedRoot
        case .categories, .facetValues, .fruitsFolder: "../"
        case .pagesFolder(let listing): "../" + root(of: listing.page(1))
        // A server shows 404.html at whatever address was missing, where relative links
        // would lead astray: with a base URL this page links from its path (`/fruits/`).
        // Without one, links are relative to the site root, right for `404.html` itself and
        // for missing pages at the top level, under any subpath.
        // At the site root, outside its language's folder, it goes down into that folder.
        case .notFound where !config.baseURL.isEmpty: config.basePath
        case .notFound, .siteRoot: page.isAtSiteRoot(of: config.scope) ? config.scope.prefix : ""
        default: ""
        }
    }
}
