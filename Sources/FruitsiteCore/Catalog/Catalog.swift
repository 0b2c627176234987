/// The fruits in catalog order, their categories and the search filter:
/// what the tutorial's `FruitViewModel` owns.
public struct Catalog: Sendable {
    /// Every fruit, ascending by `fold(name)` code point by code point, then by slug.
    public let fruits: [Fruit]
    /// Unique categories, ascending by `fold(name)` code point by code point, then by name.
    public let categories: [Category]

    /// Sorts `fruits` into catalog order and groups them into categories.
    /// - Parameter fruits: The parsed fruits, in any order.
    public init(fruits: [Fruit]) {
        // Sort positions, not the large Fruit values themselves.
        let sorted = fruits.indices.sorted { Self.precedes(fruits[$0], fruits[$1]) }.map {
            fruits[$0]
        }
        var indexesByName: [String: [Int]] = [:]
        for (index, fruit) in sorted.enumerated() {
            indexesByName[fruit.category, default: []].append(index)
        }
        let names = indexesByName.keys.sorted { lhs, rhs in
            let (l, r) = (Fold.key(lhs), Fold.key(rhs))
            return l != r
                ? l.lexicographicallyPrecedes(r) : lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
        }
        self.fruits = sorted
        self.categories = names.map {
            Category(name: $0, slug: Slug.make(from: $0), fruitIndexes: indexesByName[$0] ?? [])
        }
    }

    /// The category names, sorted and unique.
    public var categoryNames: [String] { categories.map(\.name) }

    /// Catalog order: folded name as code points (UTF-8 bytes), then slug.
    public static func precedes(_ lhs: Fruit, _ rhs: Fruit) -> Bool {
        if lhs.nameKey != rhs.nameKey { return lhs.nameKey.lexicographicallyPrecedes(rhs.nameKey) }
        return lhs.slug.utf8.lexicographicallyPrecedes(rhs.slug.utf8)
    }

    // MARK: - The filter

    /// The fruits the tutorial's search would show, in catalog order.
    ///
    /// Empty `searchText` keeps every fruit; otherwise a fruit matches when `fold(searchText)`
    /// occurs in `fold(name)` or `fold(category)`. Then `category`, when given, keeps only
    /// fruits whose category equals it exactly.
    /// - Parameters:
    ///   - searchText: What the user typed; nothing is trimmed.
    ///   - category: A category name to match exactly, or nil (or empty) for all.
    public func filter(searchText: String, category: String? = nil) -> [Fruit] {
        Self.filter(fruits, searchText: searchText, category: category)
    }

    /// The same filter over any list of fruits, keeping its order.
    /// - Parameters:
    ///   - fruits: The fruits to filter.
    ///   - searchText: What the user typed; nothing is trimmed.
    ///   - category: A category name to match exactly, or nil for all.
    public static func filter(_ fruits: [Fruit], searchText: String, category: String?) -> [Fruit] {
        let needle = Fold.key(Fold.normalizeNFC(searchText))
        // An empty category is no filter, like the page's "All categories" choice.
        let wanted = category.flatMap { $0.isEmpty ? nil : Fold.normalizeNFC($0) }
        return fruits.filter { fruit in
            let matchesText =
                needle.isEmpty || Fold.contains(fruit.nameKey, needle)
                || Fold.contains(fruit.categoryKey, needle)
            guard matchesText else { return false }
            guard let wanted else { return true }
            return fruit.category.utf8.elementsEqual(wanted.utf8)
        }
    }

    // MARK: - Consistency

    /// Problems that involve more than one entry: duplicate slugs and colliding category slugs.
    public func problems() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var firstBySlug: [String: Fruit] = [:]
        for fruit in fruits.sorted(by: { $0.location < $1.location }) {
            if let first = firstBySlug[fruit.slug] {
                diagnostics.append(
                    .error(
                        at: fruit.location,
                        "duplicate slug '\(fruit.slug)': \(first.location.path) has it too",
                        hint: "rename one of the files; slugs must be unique across sub-folders"))
            } else {
                firstBySlug[fruit.slug] = fruit
            }
        }
        var firstCategoryBySlug: [String: Category] = [:]
        for category in categories {
            guard let first = firstCategoryBySlug[category.slug] else {
                firstCategoryBySlug[category.slug] = category
                continue
            }
            let here = fruits[category.fruitIndexes[0]].categoryLocation
            let there = fruits[first.fruitIndexes[0]].categoryLocation
            diagnostics.append(
                .error(
                    at: here,
                    "categories '\(category.name)' and '\(first.name)' (\(there)) "
                        + "both have the URL slug '\(category.slug)'",
                    hint: "spell the category the same way in every entry"))
        }
        return diagnostics
    }
}
