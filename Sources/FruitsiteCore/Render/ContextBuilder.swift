import Mustache

/// Builds the data each page template receives (README, "Template variables"), and the hash
/// of what that data is made from, which tells a rebuild the pages it can skip.
///
/// Every input of a page's data goes into its hash: keep each `…Context` function and its
/// `…Inputs` function in step (`PageInputTests` checks them against hashes of the data).
struct ContextBuilder: Sendable {
    let config: SiteConfig
    private(set) var catalog: Catalog
    private let site: MustacheValue
    /// Category summaries as seen from the site root (`index.html`).
    private let rootCategories: [MustacheValue]
    /// Summaries as seen from `fruits/<slug>/` and `categories/<slug>/`, two folders down.
    private let nestedCategories: [MustacheValue]
    /// Every fruit's summary, built once for all pages when many pages need them.
    private var nestedFruits: [MustacheValue]?
    private let categoryIndexByName: [String: Int]

    /// The theme, the config and the catalog's size: what every page depends on.
    private let siteInputs: UInt64
    /// Every category's name, slug and size.
    private let categoryInputs: UInt64
    /// What each fruit's summary is made from.
    private let summaryInputs: [UInt64]

    static let nestedRoot = "../../"

    /// Creates a builder.
    /// - Parameters:
    ///   - config: The site config.
    ///   - catalog: The fruits and categories.
    ///   - themeHash: The hash of the templates.
    init(config: SiteConfig, catalog: Catalog, themeHash: UInt64) {
        self.config = config
        self.catalog = catalog
        self.site = Self.siteValue(config)
        categoryIndexByName = Dictionary(
            uniqueKeysWithValues: catalog.categories.enumerated().map { ($1.name, $0) })
        rootCategories = catalog.categories.map { Self.summary(of: $0, root: "") }
        nestedCategories = catalog.categories.map { Self.summary(of: $0, root: Self.nestedRoot) }
        siteInputs = Self.siteInputs(
            themeHash: themeHash, config: config, fruitCount: catalog.fruits.count,
            categoryCount: catalog.categories.count)
        categoryInputs = Self.categoryInputs(catalog.categories)
        summaryInputs = catalog.fruits.concurrentMap(Self.summaryInputs)
    }

    /// The theme, the config and the catalog's size: what every page depends on.
    static func siteInputs(
        themeHash: UInt64, config: SiteConfig, fruitCount: Int, categoryCount: Int
    )
        -> UInt64
    {
        var hasher = StableHasher()
        hasher.combine(themeHash)
        config.hash(into: &hasher)
        hasher.combine(UInt64(fruitCount))
        hasher.combine(UInt64(categoryCount))
        return hasher.value
    }

    /// Every category's name, slug and size.
    static func categoryInputs(_ categories: [Category]) -> UInt64 {
        var hasher = StableHasher()
        for category in categories {
            hasher.combine(category.name)
            hasher.combine(category.slug)
            hasher.combine(UInt64(category.fruitIndexes.count))
        }
        return hasher.value
    }

    /// Builds every fruit's summary once, for all pages: worth it when many pages are
    /// rendered; else each page builds the few it shows.
    mutating func shareSummaries() {
        let slugs = catalog.categories.map(\.slug)
        let indexes = categoryIndexByName
        nestedFruits = catalog.fruits.concurrentMap {
            Self.summary(of: $0, categorySlug: slugs[indexes[$0.category]!], root: Self.nestedRoot)
        }
    }

    /// Gives fruits their details, by catalog position.
    mutating func setDetails(_ details: [Int: Fruit.Details]) {
        catalog.setDetails(details)
    }

    // MARK: - Pages

    func indexContext() -> MustacheValue {
        let slugs = catalog.categories.map(\.slug)
        let indexes = categoryIndexByName
        // A plain map: this runs as one task among the pages, which keep the other cores busy.
        let fruits = catalog.fruits.map {
            Self.summary(of: $0, categorySlug: slugs[indexes[$0.category]!], root: "")
        }
        return common(root: "", path: "", title: config.title).merging([
            "fruits": .array(fruits),
            "categories": .array(rootCategories),
            "searchIndexURL": "search-index.json",
        ])
    }

    func indexInputs() -> UInt64 {
        inputs("index", categoryInputs) { hasher in
            for summary in summaryInputs { hasher.combine(summary) }
        }
    }

    func notFoundContext() -> MustacheValue {
        // A server shows 404.html at whatever address was missing, where relative links would
        // lead astray: with a base URL this page links from its path (`/fruits/`). Without
        // one, links are relative to the site root, right for `404.html` itself and for
        // missing pages at the top level, under any subpath.
        let root = config.baseURL.isEmpty ? "" : config.basePath
        var context = common(root: root, path: "404.html", title: "Page not found")
        // An error page has no canonical address of its own.
        if case .object(var object) = context, case .object(var page)? = object["page"] {
            page["canonicalURL"] = .null
            object["page"] = .object(page)
            context = .object(object)
        }
        return context.merging([
            "categories": .array(catalog.categories.map { Self.summary(of: $0, root: root) })
        ])
    }

    func notFoundInputs() -> UInt64 {
        inputs("404", categoryInputs)
    }

    /// The page of `catalog.fruits[index]`, which must have its details.
    func fruitContext(_ index: Int) -> MustacheValue {
        Self.fruitContext(
            catalog.fruits[index], summary: nestedFruit(index),
            previous: index > 0 ? nestedFruit(index - 1) : .null,
            next: index + 1 < catalog.fruits.count ? nestedFruit(index + 1) : .null,
            categoryIndex: categoryIndexByName[catalog.fruits[index].category] ?? 0,
            categories: nestedCategories,
            common: common(
                root: Self.nestedRoot, path: "fruits/\(catalog.fruits[index].slug)/",
                title: catalog.fruits[index].name))
    }

    /// A fruit's page from its parts: its summary and its neighbours' as seen from the page,
    /// the categories' and the data all pages share.
    static func fruitContext(
        _ fruit: Fruit, summary: MustacheValue, previous: MustacheValue, next: MustacheValue,
        categoryIndex: Int, categories: [MustacheValue], common: MustacheValue
    ) -> MustacheValue {
        guard let details = fruit.details, case .object(var value) = summary else {
            preconditionFailure("the fruit page of \(fruit.slug) needs the entry's details")
        }
        value["body"] = .string(details.bodyHTML)
        value["vitaminList"] = .array(fruit.vitamins.map { ["name": .string($0)] })
        value["params"] = .object(details.params)
        return common.merging([
            "fruit": .object(value),
            "category": categories[categoryIndex],
            "categories": .array(categories),
            "previous": previous,
            "next": next,
        ])
    }

    func fruitInputs(_ index: Int) -> UInt64 {
        Self.fruitInputs(
            site: siteInputs, categories: categoryInputs,
            sourceHash: catalog.fruits[index].sourceHash, summary: summaryInputs[index],
            previous: index > 0 ? summaryInputs[index - 1] : nil,
            next: index + 1 < summaryInputs.count ? summaryInputs[index + 1] : nil)
    }

    static func fruitInputs(
        site: UInt64, categories: UInt64, sourceHash: UInt64, summary: UInt64, previous: UInt64?,
        next: UInt64?
    ) -> UInt64 {
        inputs("fruit", site: site, categories: categories) { hasher in
            // The file's bytes stand for its body, vitamins and params; the summary for
            // the slug, which comes from the file's name.
            hasher.combine(sourceHash)
            hasher.combine(summary)
            hasher.combine(previous ?? 0)
            hasher.combine(next ?? 0)
        }
    }

    func categoryContext(_ index: Int) -> MustacheValue {
        let category = catalog.categories[index]
        guard case .object(var value) = nestedCategories[index] else { return .null }
        value["fruits"] = .array(category.fruitIndexes.map(nestedFruit))
        return common(
            root: Self.nestedRoot, path: "categories/\(category.slug)/", title: category.name
        ).merging([
            "category": .object(value),
            "categories": .array(markCurrent(index)),
        ])
    }

    func categoryInputs(_ index: Int) -> UInt64 {
        inputs("category", categoryInputs) { hasher in
            hasher.combine(UInt64(index))
            for fruit in catalog.categories[index].fruitIndexes {
                hasher.combine(summaryInputs[fruit])
            }
        }
    }

    /// What `search-index.json` and `sitemap.xml` are made from: the config, the category
    /// names and every fruit's summary.
    func listingInputs() -> UInt64 {
        inputs("listings", categoryInputs) { hasher in
            for summary in summaryInputs { hasher.combine(summary) }
        }
    }

    // MARK: - Pieces

    private func common(root: String, path: String, title: String) -> MustacheValue {
        Self.common(
            config: config, site: site, root: root, path: path, title: title,
            fruitCount: catalog.fruits.count, categoryCount: catalog.categories.count)
    }

    /// What every page's data holds.
    static func common(
        config: SiteConfig, site: MustacheValue, root: String, path: String, title: String,
        fruitCount: Int, categoryCount: Int
    ) -> MustacheValue {
        [
            "site": site,
            "root": .string(root),
            "home": .string(root.isEmpty ? "./" : root),
            "page": [
                "title": .string(title),
                "path": .string(path),
                "canonicalURL": Self.optional(config.baseURL.isEmpty ? "" : config.baseURL + path),
            ],
            "fruitCount": .int(fruitCount),
            "categoryCount": .int(categoryCount),
        ]
    }

    static func siteValue(_ config: SiteConfig) -> MustacheValue {
        [
            "title": .string(config.title),
            "description": .string(config.description),
            "language": .string(config.language),
            "baseURL": .string(config.baseURL),
        ]
    }

    private func inputs(
        _ template: String, _ categories: UInt64, _ more: (inout StableHasher) -> Void = { _ in }
    ) -> UInt64 {
        Self.inputs(template, site: siteInputs, categories: categories, more)
    }

    private static func inputs(
        _ template: String, site: UInt64, categories: UInt64,
        _ more: (inout StableHasher) -> Void = { _ in }
    ) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(site)
        hasher.combine(template)
        hasher.combine(categories)
        more(&hasher)
        return hasher.value
    }

    private func nestedFruit(_ index: Int) -> MustacheValue {
        if let nestedFruits { return nestedFruits[index] }
        let fruit = catalog.fruits[index]
        let slug = catalog.categories[categoryIndexByName[fruit.category]!].slug
        return Self.summary(of: fruit, categorySlug: slug, root: Self.nestedRoot)
    }

    private func markCurrent(_ index: Int) -> [MustacheValue] {
        var categories = nestedCategories
        if case .object(var value) = categories[index] {
            value["isCurrent"] = true
            categories[index] = .object(value)
        }
        return categories
    }

    static func summary(of fruit: Fruit, categorySlug: String, root: String) -> MustacheValue {
        [
            "slug": .string(fruit.slug),
            "name": .string(fruit.name),
            "emoji": optional(fruit.emoji),
            "category": .string(fruit.category),
            "categorySlug": .string(categorySlug),
            "vitamins": optional(fruit.vitaminsText),
            "url": .string("\(root)fruits/\(fruit.slug)/"),
            "categoryURL": .string("\(root)categories/\(categorySlug)/"),
        ]
    }

    /// What `summary(of:categorySlug:root:)` is made from, but for the category's slug,
    /// which `categoryInputs` covers.
    static func summaryInputs(_ fruit: Fruit) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(fruit.slug)
        hasher.combine(fruit.name)
        hasher.combine(fruit.emoji)
        hasher.combine(fruit.category)
        hasher.combine(UInt64(fruit.vitamins.count))
        for vitamin in fruit.vitamins { hasher.combine(vitamin) }
        return hasher.value
    }

    static func summary(of category: Category, root: String) -> MustacheValue {
        [
            "name": .string(category.name),
            "slug": .string(category.slug),
            "url": .string("\(root)categories/\(category.slug)/"),
            "count": .int(category.fruitIndexes.count),
            "isSingle": .bool(category.fruitIndexes.count == 1),
        ]
    }

    /// Empty text as null: falsy in a section and still found by lookup, so an empty field
    /// hides its `{{#field}}` block without falling back to an outer context's key.
    static func optional(_ text: String) -> MustacheValue {
        text.isEmpty ? .null : .string(text)
    }
}

extension MustacheValue {
    /// This object with `other`'s keys added (other wins); non-objects are returned as they are.
    func merging(_ other: [String: MustacheValue]) -> MustacheValue {
        guard case .object(var object) = self else { return self }
        object.merge(other) { _, new in new }
        return .object(object)
    }
}
