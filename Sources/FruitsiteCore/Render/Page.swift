/// One file of the site, named by what it is about.
enum Page: Sendable, Hashable {
    /// A page of the index, numbered from 1 (see `Pagination`).
    case index(page: Int)
    case notFound
    /// The page of the fruit at a catalog position.
    case fruit(position: CatalogPosition)
    /// A page of the category at an index of `SiteModel.categories`, numbered from 1.
    case category(Int, page: Int)
    /// A page of a facet's value: the facet at an index of `SiteModel.facets`, the value at an
    /// index of its list, numbered from 1.
    case facet(Int, value: Int, page: Int)
    /// `search-index.json`, the single search index (written named by its bytes).
    case searchIndex
    /// The sharded search index's manifest, `search/index.json`, and the files it names.
    case searchShards
    /// A records file of the sharded search index: the records of the fruits at the catalog
    /// positions.
    case searchRecords(Range<CatalogPosition>)
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
    /// The site root's `index.html` when the default language has a folder of its own
    /// (`defaultLanguageInSubfolder`): it leads to that folder, and names every language's.
    case siteRoot

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

    /// The page a folder page leads to, one folder up (the site root's, down in the default
    /// language's folder); nil for every other page.
    var target: Page? {
        switch self {
        case .fruitsFolder, .siteRoot: .index(page: 1)
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
        case .searchShards: .searchShards
        case .searchRecords: .searchRecords
        case .sitemap, .sitemapPart: .sitemap
        case .robots: .robots
        case .feed: .feed
        case .categories: .categories
        case .facetValues: .facetValues
        case .fruitsFolder, .pagesFolder, .siteRoot: .redirect
        }
    }

    /// The page's address below the site root, as links and `page.path` give it.
    func address(in model: SiteModel) -> String {
        switch self {
        case .index(let number): Pagination.address(of: number)
        case .notFound: "404.html"
        case .fruit(let position): Self.fruitAddress(model[position: position].slug)
        case .category(let index, let number):
            "categories/\(model.categories[index].slug)/" + Pagination.address(of: number)
        case .facet(let facet, let value, let number):
            "\(model.settings.facets[facet])/\(model.facets[facet][value].slug)/"
                + Pagination.address(of: number)
        case .searchIndex: "search-index.json"
        case .searchShards: SearchShards.manifestPath
        case .searchRecords(let positions): SearchShards().recordsPath(of: positions)
        case .sitemap: "sitemap.xml"
        case .sitemapPart(let part): SitemapBuilder.path(ofPart: part)
        case .robots: "robots.txt"
        case .feed(let category, let format):
            FeedFile.folder(of: category, model) + format.fileName
        case .categories: "categories/"
        case .facetValues(let facet): "\(model.settings.facets[facet])/"
        case .fruitsFolder: "fruits/"
        case .pagesFolder(let listing): listing.page(1).address(in: model) + Pagination.folder
        case .siteRoot: ""
        }
    }

    /// `fruits/<slug>/`, made in one allocation: interpolation grew the string part by part,
    /// some 2,800 instructions for an address every fruit page asks for once per language.
    private static func fruitAddress(_ slug: Substring) -> String {
        var slug = slug
        return slug.withUTF8 { slug in
            String(unsafeUninitializedCapacity: slug.count + 8) { buffer in
                var end = buffer.initialize(fromContentsOf: "fruits/".utf8)
                end = buffer[end...].initialize(fromContentsOf: slug)
                buffer[end] = UInt8(ascii: "/")
                return end + 1
            }
        }
    }

    /// The page's number in its listing: 1 for pages that are not part of one.
    var number: Int {
        switch self {
        case .index(let number), .category(_, let number), .facet(_, _, let number): number
        default: 1
        }
    }

    /// The path in the site of the model's language: the address, or its `index.html`; with
    /// a leading `/` for a file at the site root, outside the language's folder
    /// (`isAtSiteRoot(of:)`), where `LanguageScope.placed(_:)` puts it.
    func path(in model: SiteModel) -> String {
        let address = address(in: model)
        let path = address.isEmpty || address.hasSuffix("/") ? address + "index.html" : address
        return isAtSiteRoot(of: model.settings.scope) ? "/" + path : path
    }

    /// Whether the page is written at the site root though its language's pages are in a
    /// folder: the root's own files, which the default language writes (the root page, the
    /// 404 page that servers show, `robots.txt` and the sitemap's index).
    func isAtSiteRoot(of scope: LanguageScope) -> Bool {
        switch self {
        case .siteRoot, .notFound, .robots, .sitemap: scope.isDefault && !scope.prefix.isEmpty
        default: false
        }
    }
}
