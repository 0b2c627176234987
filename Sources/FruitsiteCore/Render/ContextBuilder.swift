import Mustache

/// Builds the data each page template receives (README, "Template variables").
///
/// Fruit and category summaries are built once per depth and shared by every page at that
/// depth, so a page costs one small dictionary, not a copy of the catalog.
struct ContextBuilder: Sendable {
    let config: SiteConfig
    let catalog: Catalog
    private let site: MustacheValue
    /// Summaries as seen from the site root (`index.html`).
    private let rootFruits: [MustacheValue]
    private let rootCategories: [MustacheValue]
    /// Summaries as seen from `fruits/<slug>/` and `categories/<slug>/`, two folders down.
    private let nestedFruits: [MustacheValue]
    private let nestedCategories: [MustacheValue]
    private let categoryIndexByName: [String: Int]

    static let nestedRoot = "../../"

    init(config: SiteConfig, catalog: Catalog) {
        self.config = config
        self.catalog = catalog
        self.site = [
            "title": .string(config.title),
            "description": .string(config.description),
            "language": .string(config.language),
            "baseURL": .string(config.baseURL),
        ]
        let slugs = Dictionary(uniqueKeysWithValues: catalog.categories.map { ($0.name, $0.slug) })
        rootFruits = catalog.fruits.concurrentMap {
            Self.summary(of: $0, categorySlug: slugs[$0.category] ?? "", root: "")
        }
        nestedFruits = catalog.fruits.concurrentMap {
            Self.summary(of: $0, categorySlug: slugs[$0.category] ?? "", root: Self.nestedRoot)
        }
        categoryIndexByName = Dictionary(
            uniqueKeysWithValues: catalog.categories.enumerated().map { ($1.name, $0) })
        rootCategories = catalog.categories.map { Self.summary(of: $0, root: "") }
        nestedCategories = catalog.categories.map { Self.summary(of: $0, root: Self.nestedRoot) }
    }

    // MARK: - Pages

    func indexContext() -> MustacheValue {
        common(root: "", path: "", title: config.title).merging([
            "fruits": .array(rootFruits),
            "categories": .array(rootCategories),
            "searchIndexURL": "search-index.json",
        ])
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

    func fruitContext(_ index: Int) -> MustacheValue {
        let fruit = catalog.fruits[index]
        guard case .object(var value) = nestedFruits[index] else { return .null }
        value["body"] = .string(fruit.bodyHTML)
        value["vitaminList"] = .array(fruit.vitamins.map { ["name": .string($0)] })
        value["params"] = .object(fruit.params)
        let categoryIndex = categoryIndexByName[fruit.category] ?? 0
        return common(root: Self.nestedRoot, path: "fruits/\(fruit.slug)/", title: fruit.name)
            .merging([
                "fruit": .object(value),
                "category": nestedCategories[categoryIndex],
                "categories": .array(nestedCategories),
                "previous": index > 0 ? nestedFruits[index - 1] : .null,
                "next": index + 1 < nestedFruits.count ? nestedFruits[index + 1] : .null,
            ])
    }

    func categoryContext(_ index: Int) -> MustacheValue {
        let category = catalog.categories[index]
        guard case .object(var value) = nestedCategories[index] else { return .null }
        value["fruits"] = .array(category.fruitIndexes.map { nestedFruits[$0] })
        return common(
            root: Self.nestedRoot, path: "categories/\(category.slug)/", title: category.name
        ).merging([
            "category": .object(value),
            "categories": .array(markCurrent(index)),
        ])
    }

    // MARK: - Pieces

    private func common(root: String, path: String, title: String) -> MustacheValue {
        [
            "site": site,
            "root": .string(root),
            "home": .string(root.isEmpty ? "./" : root),
            "page": [
                "title": .string(title),
                "path": .string(path),
                "canonicalURL": Self.optional(config.baseURL.isEmpty ? "" : config.baseURL + path),
            ],
            "fruitCount": .int(catalog.fruits.count),
            "categoryCount": .int(catalog.categories.count),
        ]
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
