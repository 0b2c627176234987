/// A feed (`feed.xml`, `feed.json`, and each category's): the fruits most recently added to
/// the site or the category (`Feeds`), in one format.
struct FeedFile {
    /// The category's index in `SiteModel.categories`, or nil for the site's feed.
    let category: Int?
    let format: Feed.Format

    func walk(_ data: PageData, details: PageData.Details, into walk: inout some PageWalk) {
        walk.add(file: data.siteRead, FeedFruits(data, category: category)) {
            site, fruits throws(BuildFailure) in
            let items = try fruits.positions.map { position throws(BuildFailure) in
                Feed.Item(
                    fruit: data.model[position: position].fruit,
                    details: try details(data.model.id(at: position)))
            }
            let category = fruits.category.map(data.group(of:))
            return Self.feed(
                site: data.settings(of: site), category: category, strings: data.theme.strings
            ).text(
                format, items: items)
        }
    }

    /// The feed of a category, or of the site, as its file and the pages' links name it, in
    /// the words of `strings`.
    static func feed(site: SiteSettings, category: FruitGroup?, strings: ThemeStrings) -> Feed {
        let name = category.map { BidiIsolation.isolated($0.name) }
        return Feed(
            title: name.map { "\($0) · \(site.title)" } ?? site.title,
            description: name.map { strings.text("categoryFeedDescription", ["category": $0]) }
                ?? site.description,
            language: site.language,
            homeURL: site.baseURL + folder(of: category), baseURL: site.baseURL, strings: strings)
    }

    /// Where the listing a feed follows is: a category's folder, or the site root.
    static func folder(of category: FruitGroup?) -> String {
        category.map { "categories/\($0.slug)/" } ?? ""
    }

    static func folder(of category: Int?, _ model: SiteModel) -> String {
        folder(of: category.map { model.categories[$0] })
    }
}

/// The category a feed follows, if any, and the fruits it lists, newest first: hashed as the
/// category's name, the fruits' files' paths and bytes, which their summaries and details are
/// parsed from, and whether raw HTML passes through, which their bodies are rendered with.
struct FeedFruits: PageRead {
    let category: GroupRead?
    let positions: [CatalogPosition]
    private let hash: UInt64

    init(_ data: PageData, category: Int?) {
        self.category = category.map { data.group(.categories, $0, isSized: false) }
        positions = data.feeds.fruits(of: category)
        var hasher = StableHasher()
        hasher.combine(UInt64(category == nil ? 0 : 1))
        self.category?.combine(into: &hasher)
        hasher.combine(UInt64(data.config.rawHTML ? 1 : 0))
        for position in positions {
            hasher.combine(data.model[position: position].pathHash)
            hasher.combine(data.hashes[position.rawValue].source)
        }
        hash = hasher.value
    }

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }
}
