import Mustache

/// Makes each page's template data (README, "Template variables") and the hash of what that
/// data is made from, by one walk over the inputs the page shows: the two cannot disagree.
///
/// The hash is made from hashes the model already holds (each entry's source and summary
/// hashes), so hashing every page of a large site costs little more than a pass over the
/// catalog; the data is built only for the pages rendered.
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

    private let site: MustacheValue
    private let configHash: UInt64
    /// Hashes of what many pages show, made once.
    private let fruitsHash: UInt64
    private let slugsHash: UInt64
    private let categoryNamesHash: UInt64
    private let categorySizesHash: UInt64
    /// Every facet's key and values' names, and their counts.
    private let facetNamesHash: UInt64
    private let facetSizesHash: UInt64
    /// Each category's name hashed, by index: many pages show one, and hashing a name is
    /// most of what hashing such an input costs.
    private let categoryNameHashes: [UInt64]
    /// `model.positions`, which passes over every listed fruit go by.
    let positions: [Int32]
    /// Each catalog position's entry's source and summary hashes, gathered once in id order:
    /// every page's hash reads some of them.
    let hashes: [(source: UInt64, summary: UInt64)]
    /// The index in `model.categories` of each catalog position's category, from the
    /// categories' members: hashing a fruit page's inputs decodes no fruit.
    private let categoryOfPosition: [Int32]
    /// By catalog position, the fruits the pages to render show, decoded once, with their
    /// summaries as seen from two folders down or from the site root (see `prepare(for:)`).
    private var prepared: [Prepared] = []
    /// For each catalog position, the index of its fruit in `prepared`, or -1. An array, not a
    /// dictionary: building a dictionary of thousands took longer than the lookups it served.
    private var preparedIndex: [Int32] = []
    /// The catalog positions `prepared` holds, in its order.
    private var preparedPositions: [Int] = []
    /// What the sitemap lists, when the pages to render include it: every one of its files
    /// cuts its part from this list.
    private(set) var sitemap: [SitemapBuilder.Location] = []

    private struct Prepared: Sendable {
        var listed: ListedFruit
        /// The whole fruit, for its own page.
        var fruit: Fruit?
        /// As seen from two folders down (`nestedRoot`), and from the site root.
        var nested: MustacheValue?
        var atRoot: MustacheValue?
    }

    /// Where fruit and category pages sit: `fruits/<slug>/`, two folders down.
    static let nestedRoot = "../../"

    init(model: SiteModel, config: SiteConfig, theme: TemplateLoader.Theme) {
        self.model = model
        self.config = config
        self.theme = theme
        assetURLs = AssetURLs(theme: theme)
        pagination = Pagination(pageSize: config.pageSize)
        site = [
            "title": .string(config.title),
            "description": .string(config.description),
            "language": .string(config.language),
            "direction": .string(config.direction),
            "baseURL": .string(config.baseURL),
        ]
        var hasher = StableHasher()
        config.hash(into: &hasher)
        configHash = hasher.value
        let positions = model.positions
        self.positions = positions
        hashes = model.byPosition(filling: (0, 0), positions: positions) {
            ($0.sourceHash, $0.summaryHash)
        }
        hasher = StableHasher()
        for hash in hashes { hasher.combine(hash.summary) }
        fruitsHash = hasher.value
        // A fruit's path names its slug (`SourceFile.slug(of:)`). The fruits' hashes are
        // summed, not chained: the sitemap does not follow the catalog's order, so a fruit that
        // moves in it leaves the hash as it was, and every core can add up a share, in id order.
        let slugs = model.entries.indices.concurrentShares { share in
            var sum: UInt64 = 0
            for id in share where positions[id] >= 0 {
                var entry = StableHasher()
                entry.combine(model[id].pathHash)
                entry.combine(model[id].date.map { UInt64(bitPattern: $0.seconds) } ?? .max)
                sum &+= entry.value
            }
            return sum
        }
        .reduce(UInt64(0), &+)
        hasher = StableHasher()
        hasher.combine(slugs)
        hasher.combine(UInt64(model.order.count))
        // The listings' pages: their number moves only when a listing crosses a page size, so
        // a fruit changing category leaves the sitemap as it was.
        for category in model.categories {
            hasher.combine(UInt64(pagination.pageCount(of: category.fruitIndexes.count)))
        }
        for (key, values) in zip(model.settings.facets, model.facets) {
            hasher.combine(key)
            for value in values {
                hasher.combine(value.name)
                hasher.combine(UInt64(pagination.pageCount(of: value.fruitIndexes.count)))
            }
        }
        // And whether the categories' and the facets' own pages are written.
        hasher.combine(UInt64(theme.writes(.categories) ? 1 : 0))
        hasher.combine(UInt64(theme.writes(.facetValues) ? 1 : 0))
        slugsHash = hasher.value
        categoryNameHashes = model.categories.map { category in
            var hasher = StableHasher()
            hasher.combine(category.name)
            return hasher.value
        }
        hasher = StableHasher()
        for name in categoryNameHashes { hasher.combine(name) }
        categoryNamesHash = hasher.value
        hasher = StableHasher()
        for category in model.categories { hasher.combine(UInt64(category.fruitIndexes.count)) }
        categorySizesHash = hasher.value
        hasher = StableHasher()
        var sizes = StableHasher()
        for (key, values) in zip(model.settings.facets, model.facets) {
            hasher.combine(key)
            hasher.combine(UInt64(values.count))
            for value in values {
                hasher.combine(value.name)
                sizes.combine(UInt64(value.fruitIndexes.count))
            }
        }
        facetNamesHash = hasher.value
        facetSizesHash = sizes.value
        var categoryOfPosition = [Int32](repeating: -1, count: model.order.count)
        for (index, category) in model.categories.enumerated() {
            for position in category.fruitIndexes { categoryOfPosition[position] = Int32(index) }
        }
        self.categoryOfPosition = categoryOfPosition
        feeds = Feeds(
            model: model, config: config, positions: positions,
            categoryOfPosition: categoryOfPosition)
        searchIndexPath =
            config.shardsSearch(fruitCount: model.order.count)
            ? SearchShards.manifestPath : Page.searchIndex.path(in: model)
    }

    /// The hash of everything `page` shows.
    func inputHash(of page: Page) -> UInt64 {
        var sink = HashSink()
        visit(page, details: nil, into: &sink)
        return sink.hasher.value
    }

    /// The data `page`'s template receives.
    /// - Parameter details: The fruit's details, for a fruit page.
    func data(of page: Page, details: FruitDetails?) -> MustacheValue {
        var sink = DataSink()
        visit(page, details: details, into: &sink)
        return .object(sink.object)
    }

    /// Decodes once, on every core, the fruits that `pages` show, and builds the summaries of
    /// those shown from two folders down or from the site root: a fruit page shows its
    /// neighbours, which are fruit pages too, and a listing's first page may list every fruit.
    /// Only the fruits shown are decoded, and only those of the pages about to be rendered:
    /// what the last call prepared is dropped. Pages deeper down build the summaries they show
    /// themselves.
    mutating func prepare(for pages: some Sequence<Page>) {
        let count = model.order.count
        // What each position is needed as, one byte each: sets of positions cost more in
        // hashing than the summaries they select, at 100 fruits a listing page.
        let (nested, atRoot, decoded, whole): (UInt8, UInt8, UInt8, UInt8) = (1, 2, 4, 8)
        var marks = [UInt8](repeating: 0, count: count)
        func mark(_ positions: some Sequence<Int>, as use: UInt8) {
            for position in positions { marks[position] |= use }
        }
        let indexListsFruits = theme.reads(of: .index).contains(.fruits)
        var listsSitemap = false
        for page in pages {
            switch page {
            case .sitemap, .sitemapPart:
                listsSitemap = true
            case .fruit(let position):
                mark(max(position - 1, 0)...min(position + 1, count - 1), as: nested)
                marks[position] |= whole
            case .category(_, 1), .facet(_, _, 1):
                mark(listed(on: page), as: nested)
            case .index(let number) where indexListsFruits:
                let shown = pagination.range(of: number, in: count)
                mark(shown, as: number == 1 ? atRoot : nested)
            case .category, .facet:
                // Later pages, deeper down, build their own summaries from the fruits decoded
                // here, which their JSON-LD item list reads too.
                mark(listed(on: page), as: decoded)
            default: break
            }
        }
        let positions = marks.indices.filter { marks[$0] != 0 }
        let (model, categoryOfPosition, uses) = (model, categoryOfPosition, marks)
        prepared = positions.concurrentMap { position in
            let entry = model[position: position]
            let fruit = uses[position] & whole != 0 ? entry.fruit : nil
            let listed = fruit.map(ListedFruit.init) ?? entry.listed
            let slug = model.categories[Int(categoryOfPosition[position])].slug
            return Prepared(
                listed: listed, fruit: fruit,
                nested: uses[position] & nested != 0
                    ? Self.summary(of: listed, categorySlug: slug, root: Self.nestedRoot) : nil,
                atRoot: uses[position] & atRoot != 0
                    ? Self.summary(of: listed, categorySlug: slug, root: "") : nil)
        }
        if preparedIndex.count != count {
            preparedIndex = [Int32](repeating: -1, count: count)
        }
        for position in preparedPositions { preparedIndex[position] = -1 }
        for (index, position) in positions.enumerated() { preparedIndex[position] = Int32(index) }
        preparedPositions = positions
        sitemap = listsSitemap ? sitemapLocations() : []
    }

    private func sitemapLocations() -> [SitemapBuilder.Location] {
        // The listed fruits in path order, which is slug order but where one slug continues
        // another with a character before `.`: the sort then finds its work almost done.
        var isListed = [Bool](repeating: false, count: model.entries.count)
        for id in model.order { isListed[id] = true }
        return SitemapBuilder(config: config).locations(
            // The stored fields read one by one: the entry's `slug`, a computed property,
            // copied the whole entry first, 150 instructions a fruit.
            fruits: model.savingOrder.lazy.filter { isListed[$0] }.map {
                (SourceFile.slug(of: model[$0].path), model[$0].date)
            },
            count: model.order.count, categories: model.categories,
            facets: Array(zip(model.settings.facets, model.facets)),
            listsFolders: (theme.writes(.categories), theme.writes(.facetValues)))
    }

    /// How many fruits' summaries `page` shows: what `prepare(for:)` builds for it, or it
    /// builds itself.
    func shownCount(of page: Page) -> Int {
        if case .fruit = page { return 3 }
        return max(listed(on: page).count, 1)
    }

    /// The catalog positions of the fruits a page of the index or of a category lists, in
    /// catalog order; none for other pages.
    private func listed(on page: Page) -> [Int] {
        switch page {
        case .category(let index, let number):
            let members = model.categories[index].fruitIndexes
            return Array(members[pagination.range(of: number, in: members.count)])
        case .facet(let facet, let value, let number):
            let members = model.facets[facet][value].fruitIndexes
            return Array(members[pagination.range(of: number, in: members.count)])
        case .index(let number): return Array(pagination.range(of: number, in: model.order.count))
        default: return []
        }
    }

    /// The name and slug of the fruit at a catalog position, without a copy of the rest.
    private func nameAndSlug(at position: Int) -> (name: String, slug: String) {
        if let index = prepared(at: position) {
            return (prepared[index].listed.name, prepared[index].listed.slug)
        }
        let listed = model[position: position].listed
        return (listed.name, listed.slug)
    }

    private func listed(at position: Int) -> ListedFruit {
        if let index = prepared(at: position) { return prepared[index].listed }
        return model[position: position].listed
    }

    private func fruit(at position: Int) -> Fruit {
        if let index = prepared(at: position), let fruit = prepared[index].fruit { return fruit }
        return model[position: position].fruit
    }

    /// The slug of the category of the fruit at a catalog position.
    private func categorySlug(at position: Int) -> String {
        model.categories[Int(categoryOfPosition[position])].slug
    }

    /// The index in `prepared` of the fruit at a catalog position, if it was prepared.
    private func prepared(at position: Int) -> Int? {
        guard position < preparedIndex.count, preparedIndex[position] >= 0 else { return nil }
        return Int(preparedIndex[position])
    }

    // MARK: - The walk

    /// Hands each input `page` shows to `sink`: the hash of what it is made from, and how to
    /// make its part of the data.
    private func visit(_ page: Page, details: FruitDetails?, into sink: inout some PageSink) {
        let kind = page.kind
        let reads = theme.reads(of: kind)
        sink.add(theme.version(of: kind)) { [:] }
        // Made inside the closures, which only pages being rendered call: hashing needs none.
        var root: String { self.root(of: page) }
        for input in reads {
            switch input {
            case .site:
                // A fruit page's path and title come from its summary; the index's pages also
                // name the search index (`searchIndexURL`), whose name changes with its bytes.
                var searchIndex: UInt64 = 0
                if case .index = page {
                    searchIndex = StableHasher.hash(Array(searchIndexPath.utf8))
                }
                sink.add(
                    hash(configHash, siteKey(of: page), hash(searchIndex, assetURLs.hash(of: kind)))
                ) {
                    common(of: page, root, page.address(in: model), title(of: page))
                }
            case .fruit:
                guard case .fruit(let position) = page else { continue }
                sink.add(hash(hashes[position].source, hashes[position].summary)) {
                    ["fruit": fruitValue(position, details: details)]
                }
            case .neighbours:
                guard case .fruit(let position) = page else { continue }
                let previous = position > 0 ? position - 1 : nil
                let next = position + 1 < model.order.count ? position + 1 : nil
                sink.add(hash(summaryHash(at: previous), summaryHash(at: next))) {
                    [
                        "previous": previous.map(nestedSummary) ?? .null,
                        "next": next.map(nestedSummary) ?? .null,
                    ]
                }
            case .category:
                switch page {
                case .fruit(let position):
                    let index = Int(categoryOfPosition[position])
                    let category = model.categories[index]
                    let isSized = reads.contains(.categorySize)
                    let size = isSized ? UInt64(category.fruitIndexes.count) : UInt64.max
                    sink.add(hash(categoryNameHashes[index], size)) {
                        ["category": Self.summary(of: category, root: root, isSized: isSized)]
                    }
                case .category(let index, let number):
                    // A later page shows its own fruits and not the category's size, so a
                    // fruit added to the category renders only the pages whose fruits change.
                    let category = model.categories[index]
                    let range = pagination.range(of: number, in: category.fruitIndexes.count)
                    let isSized = number == 1
                    var hasher = StableHasher()
                    hasher.combine(categoryNameHashes[index])
                    hasher.combine(isSized ? UInt64(category.fruitIndexes.count) : UInt64.max)
                    for position in category.fruitIndexes[range] {
                        hasher.combine(hashes[position].summary)
                    }
                    sink.add(hasher.value) {
                        ["category": categoryPageValue(index, range, root: root, isSized: isSized)]
                    }
                default: continue
                }
            case .categorySize, .categorySizes:
                continue  // They shape what `.category` and `.categories` show.
            case .slugs:
                sink.add(slugsHash) { [:] }
            case .fruits:
                guard case .index(let number) = page else {
                    sink.add(fruitsHash) {
                        ["fruits": .array(model.order.indices.map(rootSummary))]
                    }
                    continue
                }
                // The index's page shows its own fruits: its hash covers only theirs.
                let range = pagination.range(of: number, in: model.order.count)
                var hasher = StableHasher()
                for position in range { hasher.combine(hashes[position].summary) }
                sink.add(hasher.value) {
                    ["fruits": .array(range.map { summary(at: $0, root: root) })]
                }
            case .facetValue:
                if case .facetValues(let facet) = page {
                    sink.add(valuesHash(of: facet)) {
                        ["facet": facetValue(facet, root: root, isSized: true)]
                    }
                    continue
                }
                guard case .facet(let facet, let value, let number) = page else { continue }
                let group = model.facets[facet][value]
                let range = pagination.range(of: number, in: group.fruitIndexes.count)
                let isSized = number == 1
                var hasher = StableHasher()
                hasher.combine(model.settings.facets[facet])
                hasher.combine(group.name)
                hasher.combine(isSized ? UInt64(group.fruitIndexes.count) : UInt64.max)
                for position in group.fruitIndexes[range] {
                    hasher.combine(hashes[position].summary)
                }
                sink.add(hasher.value) {
                    ["facet": facetPageValue(facet, value, range, root: root, isSized: isSized)]
                }
            case .facets:
                // Like the categories' sizes, the counts are on a listing's first page only.
                let isSized = page.number == 1
                sink.add(hash(facetNamesHash, isSized ? facetSizesHash : 0)) {
                    ["facets": facetsValue(root: root, isSized: isSized)]
                }
            case .pager:
                let count: Int
                switch page {
                case .index: count = model.order.count
                case .category(let index, _): count = model.categories[index].fruitIndexes.count
                case .facet(let facet, let value, _):
                    count = model.facets[facet][value].fruitIndexes.count
                default: continue
                }
                let pages = pagination.pageCount(of: count)
                sink.add(hash(UInt64(page.number), UInt64(pages))) {
                    ["pager": Self.pager(page.number, of: pages)]
                }
            case .categories:
                // Sizes and totals change with every fruit added: only a listing's first page
                // shows them.
                let isSized = reads.contains(.categorySizes) && page.number == 1
                var current: Int?
                if case .category(let index, _) = page { current = index }
                let hash = hash(
                    categoryNamesHash, isSized ? categorySizesHash : 0,
                    UInt64(bitPattern: Int64(current ?? -1)))
                sink.add(hash) {
                    ["categories": categoriesValue(root: root, isSized: isSized, current: current)]
                }
            case .structuredData:
                // What the data names: the page's fruit, or the fruits the page lists.
                var hasher = StableHasher()
                hasher.combine(UInt64(page.number))
                switch page {
                case .fruit(let position): hasher.combine(hashes[position].summary)
                case .category(let index, _): hasher.combine(categoryNameHashes[index])
                case .facet(let facet, let value, _):
                    hasher.combine(model.settings.facets[facet])
                    hasher.combine(model.facets[facet][value].name)
                case .categories: hasher.combine(categoryNamesHash)
                case .facetValues(let facet): hasher.combine(valuesHash(of: facet, sized: false))
                case .index: break
                default: continue
                }
                let listed = listed(on: page)
                for position in listed { hasher.combine(hashes[position].summary) }
                sink.add(hasher.value) {
                    [
                        "structuredData": Self.optional(
                            structuredData(of: page, listing: listed, root))
                    ]
                }
            case .feeds:
                var category: Int?
                if case .category(let index, _) = page, !feeds.categories[index].isEmpty {
                    category = index
                }
                let hasFeeds = !feeds.site.isEmpty
                var hasher = StableHasher()
                hasher.combine(UInt64(hasFeeds ? 1 : 0))
                hasher.combine(category.map { categoryNameHashes[$0] } ?? 0)
                sink.add(hasher.value) {
                    ["feeds": feedLinks(category: category, root: root, hasFeeds: hasFeeds)]
                }
            case .feedFruits:
                guard case .feed(let category, _) = page else { continue }
                var hasher = StableHasher()
                hasher.combine(category.map { model.categories[$0].name } ?? "")
                for position in feeds.fruits(of: category) {
                    let entry = model[position: position]
                    hasher.combine(entry.path)
                    hasher.combine(entry.sourceHash)
                }
                sink.add(hasher.value) { [:] }
            case .totals:
                guard page.number == 1 else { continue }
                sink.add(hash(UInt64(model.order.count), UInt64(model.categories.count))) {
                    [
                        "fruitCount": .int(model.order.count),
                        "categoryCount": .int(model.categories.count),
                        // For the singular: "1 fruit in 1 category".
                        "isSingleFruit": .bool(model.order.count == 1),
                        "isSingleCategory": .bool(model.categories.count == 1),
                    ]
                }
            }
        }
    }

    // MARK: - Pieces

    /// How the page links to the site root.
    private func root(of page: Page) -> String {
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
        case .notFound: config.baseURL.isEmpty ? "" : config.basePath
        default: ""
        }
    }

    /// A hash of what names the page: its path and title.
    private func siteKey(of page: Page) -> UInt64 {
        switch page {
        case .fruit(let position): return hashes[position].summary
        case .category(let index, let number):
            return hash(categoryNameHashes[index], UInt64(number))
        case .facet(let facet, let value, let number):
            var hasher = StableHasher()
            hasher.combine(model.settings.facets[facet])
            hasher.combine(model.facets[facet][value].name)
            hasher.combine(UInt64(number))
            return hasher.value
        case .index(let number): return UInt64(number)
        case .facetValues(let facet):
            var hasher = StableHasher()
            hasher.combine(model.settings.facets[facet])
            return hasher.value
        // Named after the page it leads to, and placed below it.
        case .fruitsFolder, .pagesFolder: return siteKey(of: page.target!)
        default: return 0
        }
    }

    private func title(of page: Page) -> String {
        let title =
            switch page {
            case .fruit(let position): BidiIsolation.isolated(listed(at: position).name)
            case .category(let index, _): BidiIsolation.isolated(model.categories[index].name)
            case .facet(let facet, let value, _):
                "\(Self.label(of: model.settings.facets[facet])): "
                    + BidiIsolation.isolated(model.facets[facet][value].name)
            case .notFound: "Page not found"
            case .index: config.title
            case .categories: "Categories"
            case .facetValues(let facet): Self.label(of: model.settings.facets[facet])
            // The index as a listing, as the default theme's navigation names it.
            case .fruitsFolder, .pagesFolder(.index): "All fruits"
            case .pagesFolder(let listing): title(of: listing.page(1))
            case .searchIndex, .sitemap, .sitemapPart, .robots, .feed: ""
            }
        return page.number == 1 ? title : "\(title), page \(page.number)"
    }

    /// What every page's data holds.
    private func common(of page: Page, _ root: String, _ path: String, _ title: String)
        -> MustacheObject
    {
        // An error page has no canonical address of its own; a folder page's is the one of
        // the page it leads to.
        let target = page.target.map { $0.address(in: model) }
        let canonical =
            page == .notFound || config.baseURL.isEmpty ? "" : config.baseURL + (target ?? path)
        var common: MustacheObject = [
            "site": site,
            "root": .string(root),
            "home": .string(root.isEmpty ? "./" : root),
            "assets": assetURLs.value(root: root),
            "page": [
                "title": .string(title),
                "path": .string(path),
                "canonicalURL": Self.optional(canonical),
            ],
        ]
        if case .index = page { common["searchIndexURL"] = .string(root + searchIndexPath) }
        // The page it leads to is one folder up.
        if target != nil { common["redirect"] = ["url": "../"] }
        return common
    }

    /// A page's JSON-LD: breadcrumbs on fruit and category pages, and the fruits at `listing`
    /// on a listing page.
    private func structuredData(of page: Page, listing: [Int], _ root: String) -> String {
        // Absolute with a base URL, as search engines want; else relative, like every link.
        let base = config.baseURL.isEmpty ? root : config.baseURL
        func link(_ name: String, _ path: String) -> StructuredData.Link {
            let url = base + path
            return StructuredData.Link(name: name, url: url.isEmpty ? "./" : url)
        }
        var data = StructuredData()
        let home = link(config.title, "")
        // Names isolated as in the page's title: a search engine shows a trail as a line of
        // text.
        switch page {
        case .fruit(let position):
            let fruit = listed(at: position)
            let category = model.categories[Int(categoryOfPosition[position])]
            data.addBreadcrumbs([
                home, link(BidiIsolation.isolated(category.name), "categories/\(category.slug)/"),
                link(BidiIsolation.isolated(fruit.name), "fruits/\(fruit.slug)/"),
            ])
        case .category(let index, _):
            let category = model.categories[index]
            data.addBreadcrumbs([
                home, link(BidiIsolation.isolated(category.name), "categories/\(category.slug)/"),
            ])
        case .facet(let facet, let value, _):
            let path = Page.facet(facet, value: value, page: 1).address(in: model)
            data.addBreadcrumbs([
                home, link(title(of: Page.facet(facet, value: value, page: 1)), path),
            ])
        case .categories, .facetValues:
            let path = page.address(in: model)
            data.addBreadcrumbs([home, link(title(of: page), path)])
            data.addItemList(namesAndSlugs(listedOn: page), base: base + path, first: 1)
        default: break
        }
        if !listing.isEmpty {
            // The listing's place of the page's first fruit: 101 on page 2 of 100 a page.
            let first = pagination.range(of: page.number, in: Int.max).lowerBound + 1
            data.addItemList(
                listing.lazy.map(nameAndSlug).map { (BidiIsolation.isolated($0.name), $0.slug) },
                base: base + "fruits/", first: first)
        }
        return data.text
    }

    /// The `feeds` of a page: its category's, if any, then the site's; empty without feeds.
    private func feedLinks(category: Int?, root: String, hasFeeds: Bool) -> MustacheValue {
        guard hasFeeds else { return .array([]) }
        let listings: [Int?] = category == nil ? [nil] : [category, nil]
        return .array(
            listings.flatMap { listing in
                let title = feed(of: listing).title
                return Feed.Format.allCases.map { format -> MustacheValue in
                    [
                        "title": .string(format == .atom ? title : "\(title) (JSON Feed)"),
                        "url": .string(root + Self.folder(of: listing, model) + format.fileName),
                        "type": .string(format.mediaType),
                    ]
                }
            })
    }

    /// The feed of a category (by index), or of the site, as `Feed` writes it.
    func feed(of category: Int?) -> Feed {
        let name = category.map { BidiIsolation.isolated(model.categories[$0].name) }
        return Feed(
            title: name.map { "\($0) · \(config.title)" } ?? config.title,
            description: name.map { "The fruits most recently added to the \($0) category." }
                ?? config.description,
            language: config.language,
            homeURL: config.baseURL + Self.folder(of: category, model), baseURL: config.baseURL)
    }

    /// Where the listing a feed follows is: a category's folder, or the site root.
    static func folder(of category: Int?, _ model: SiteModel) -> String {
        category.map { "categories/\(model.categories[$0].slug)/" } ?? ""
    }

    private func fruitValue(_ position: Int, details: FruitDetails?) -> MustacheValue {
        guard let details, case .object(var value) = nestedSummary(position) else {
            preconditionFailure("a fruit page needs its entry's details")
        }
        let fruit = fruit(at: position)
        value["body"] = .string(details.bodyHTML)
        value["vitaminList"] = .array(
            fruit.vitamins.map { ["name": .string(BidiIsolation.isolated($0))] })
        value["params"] = .object(details.params)
        value["tagline"] = details.tagline.map(MustacheValue.string) ?? .null
        value["description"] = .string(details.description(of: fruit))
        value["facets"] = .array(
            fruit.facets.map { facet in
                [
                    "key": .string(facet.key),
                    "label": .string(Self.label(of: facet.key)),
                    "values": .array(
                        facet.values.enumerated().map { index, name in
                            [
                                "name": .string(BidiIsolation.isolated(name)),
                                "exactName": .string(name),
                                "url": .string(
                                    "\(Self.nestedRoot)\(facet.key)/\(Slug.make(from: name))/"),
                                "isLast": .bool(index == facet.values.count - 1),
                            ]
                        }),
                ]
            })
        return .object(value)
    }

    /// A facet's name as a label: `vitamins` is `Vitamins`, `country-of-origin` is `Country
    /// of origin`.
    static func label(of key: String) -> String {
        // Not `replacingOccurrences`, which goes through `NSString`: every fruit page labels
        // its facets, and that cost 1.2% of a clean build's instructions.
        let words = key.split(separator: "-", omittingEmptySubsequences: false)
            .joined(separator: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// A facet, with its values from `root`, each with its count when `isSized`.
    private func facetValue(_ facet: Int, root: String, isSized: Bool) -> MustacheValue {
        let key = model.settings.facets[facet]
        return [
            "key": .string(key),
            "label": .string(Self.label(of: key)),
            "url": .string("\(root)\(key)/"),
            "values": .array(
                model.facets[facet].map {
                    .object(summary(of: $0, facet: facet, root: root, isSized: isSized))
                }),
        ]
    }

    /// One value of a facet: its name, slug and address, and its count when `isSized`.
    private func summary(of value: Category, facet: Int, root: String, isSized: Bool)
        -> MustacheObject
    {
        var object: MustacheObject = [
            "name": .string(BidiIsolation.isolated(value.name)),
            "exactName": .string(value.name),
            "slug": .string(value.slug),
            "url": .string("\(root)\(model.settings.facets[facet])/\(value.slug)/"),
        ]
        if isSized {
            object["count"] = .int(value.fruitIndexes.count)
            object["isSingle"] = .bool(value.fruitIndexes.count == 1)
        }
        return object
    }

    private func facetsValue(root: String, isSized: Bool) -> MustacheValue {
        .array(model.facets.indices.map { facetValue($0, root: root, isSized: isSized) })
    }

    /// A facet value's page: the facet's key and label, and the value with the page's fruits.
    private func facetPageValue(
        _ facet: Int, _ value: Int, _ range: Range<Int>, root: String, isSized: Bool
    ) -> MustacheValue {
        let group = model.facets[facet][value]
        var object = summary(of: group, facet: facet, root: root, isSized: isSized)
        let key = model.settings.facets[facet]
        object["key"] = .string(key)
        object["label"] = .string(Self.label(of: key))
        object["fruits"] = .array(group.fruitIndexes[range].map { summary(at: $0, root: root) })
        return .object(object)
    }

    private func categoryPageValue(
        _ index: Int, _ range: Range<Int>, root: String, isSized: Bool
    ) -> MustacheValue {
        let category = model.categories[index]
        guard case .object(var value) = Self.summary(of: category, root: root, isSized: isSized)
        else { return .null }
        value["fruits"] = .array(
            category.fruitIndexes[range].map { summary(at: $0, root: root) })
        value["isCurrent"] = true  // on its own page, as in the page's `categories`
        return .object(value)
    }

    /// The `pager` of page `current` of `count`: null when the listing has one page.
    static func pager(_ current: Int, of count: Int) -> MustacheValue {
        guard count > 1 else { return .null }
        func url(_ number: Int) -> MustacheValue {
            .string(Pagination.url(of: number, from: current))
        }
        let pages = Pagination.nearby(current, of: count).map { number -> MustacheValue in
            guard let number else { return ["isGap": true, "isCurrent": false] }
            return [
                "number": .int(number), "url": url(number), "isCurrent": .bool(number == current),
                "isGap": false,
            ]
        }
        return [
            "current": .int(current),
            "count": .int(count),
            "isFirst": .bool(current == 1),
            "isLast": .bool(current == count),
            "firstURL": url(1),
            "lastURL": url(count),
            "previousURL": current > 1 ? url(current - 1) : .null,
            "nextURL": current < count ? url(current + 1) : .null,
            "pages": .array(pages),
        ]
    }

    private func categoriesValue(root: String, isSized: Bool, current: Int?) -> MustacheValue {
        .array(
            model.categories.indices.map { index in
                var value = Self.summary(of: model.categories[index], root: root, isSized: isSized)
                if index == current, case .object(var object) = value {
                    object["isCurrent"] = true
                    value = .object(object)
                }
                return value
            })
    }

    private func summaryHash(at position: Int?) -> UInt64 {
        position.map { hashes[$0].summary } ?? 0
    }

    private func nestedSummary(_ position: Int) -> MustacheValue {
        if let index = prepared(at: position), let summary = prepared[index].nested {
            return summary
        }
        return Self.summary(
            of: listed(at: position), categorySlug: categorySlug(at: position),
            root: Self.nestedRoot)
    }

    /// The summary of the fruit at a catalog position, with links from `root`.
    private func summary(at position: Int, root: String) -> MustacheValue {
        switch root {
        case "": return rootSummary(position)
        case Self.nestedRoot: return nestedSummary(position)
        default:
            return Self.summary(
                of: listed(at: position), categorySlug: categorySlug(at: position), root: root)
        }
    }

    private func rootSummary(_ position: Int) -> MustacheValue {
        if let index = prepared(at: position), let summary = prepared[index].atRoot {
            return summary
        }
        return Self.summary(
            of: listed(at: position), categorySlug: categorySlug(at: position), root: "")
    }

    /// The keys of a fruit's summary, which every listed fruit's shares.
    private static let summaryKeys = [
        "slug", "name", "emoji", "category", "categorySlug", "vitamins", "url", "categoryURL",
    ]
    private static let datedSummaryKeys = summaryKeys + ["date", "dateTime"]

    static func summary(of fruit: ListedFruit, categorySlug: String, root: String)
        -> MustacheValue
    {
        // In the order of `summaryKeys`.
        var values: [MustacheValue] = [
            .string(fruit.slug), .string(BidiIsolation.isolated(fruit.name)),
            optional(BidiIsolation.isolated(fruit.emoji)),
            .string(BidiIsolation.isolated(fruit.category)), .string(categorySlug),
            optional(fruit.vitamins),
            .string(String(joining: root, "fruits/", fruit.slug, "/")),
            .string(String(joining: root, "categories/", categorySlug, "/")),
        ]
        guard let date = fruit.date else {
            return .object(MustacheObject(uniqueKeys: summaryKeys, values: values))
        }
        values += [.string(date.day), .string(date.timestamp)]
        return .object(MustacheObject(uniqueKeys: datedSummaryKeys, values: values))
    }

    /// The keys of a category's summary, without and with its size.
    private static let categoryKeys = ["name", "exactName", "slug", "url"]
    private static let sizedCategoryKeys = categoryKeys + ["count", "isSingle"]

    static func summary(of category: Category, root: String, isSized: Bool) -> MustacheValue {
        // Made with its keys at once, as a fruit's: every page lists every category, and
        // adding the keys one by one looks each up among those before.
        var values: [MustacheValue] = [
            .string(BidiIsolation.isolated(category.name)), .string(category.name),
            .string(category.slug),
            .string(String(joining: root, "categories/", category.slug, "/")),
        ]
        guard isSized else {
            return .object(MustacheObject(uniqueKeys: categoryKeys, values: values))
        }
        values += [.int(category.fruitIndexes.count), .bool(category.fruitIndexes.count == 1)]
        return .object(MustacheObject(uniqueKeys: sizedCategoryKeys, values: values))
    }

    /// Empty text as null: falsy in a section and still found by lookup, so an empty field
    /// hides its `{{#field}}` block without falling back to an outer context's key.
    static func optional(_ text: String) -> MustacheValue {
        text.isEmpty ? .null : .string(text)
    }

    /// Two or three hashes as one; fixed arities, as a variadic list allocated an array for
    /// each of a large site's pages.
    private func hash(_ first: UInt64, _ second: UInt64) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(first)
        hasher.combine(second)
        return hasher.value
    }

    private func hash(_ first: UInt64, _ second: UInt64, _ third: UInt64) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(first)
        hasher.combine(second)
        hasher.combine(third)
        return hasher.value
    }

}

/// Receives a page's inputs one by one: the hash of what each is made from, and how to make
/// its part of the page's data.
private protocol PageSink {
    mutating func add(_ inputHash: UInt64, _ value: () -> MustacheObject)
}

private struct HashSink: PageSink {
    var hasher = StableHasher()
    mutating func add(_ inputHash: UInt64, _ value: () -> MustacheObject) {
        hasher.combine(inputHash)
    }
}

private struct DataSink: PageSink {
    var object: MustacheObject = [:]
    mutating func add(_ inputHash: UInt64, _ value: () -> MustacheObject) {
        object.merge(value())
    }
}
