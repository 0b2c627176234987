#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fruits in catalog order, their categories and the search filter:
/// what the tutorial's `FruitViewModel` owns.
public struct Catalog: Sendable {
    /// Every fruit, ascending by `fold(name)` code point by code point, then by slug.
    public private(set) var fruits: [Fruit]
    /// For each fruit, its position in the array the catalog was made from.
    let sourcePositions: [Int]
    /// Unique categories, ascending by `fold(name)` code point by code point, then by name.
    public let categories: [Category]

    /// Sorts `fruits` into catalog order and groups them into categories.
    /// - Parameter fruits: The parsed fruits, in any order.
    public init(fruits: [Fruit]) {
        // Sort positions by borrowed keys: comparing `Fruit` values would copy two of them,
        // a dozen reference counts, per comparison.
        let keys = fruits.map { (name: $0.nameKey, slug: $0.slug) }
        let order = keys.withUnsafeBufferPointer { keys in
            fruits.indices.sorted { Self.precedes(keys[$0], keys[$1]) }
        }
        let sorted = order.map { fruits[$0] }
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
        self.sourcePositions = order
        self.categories = names.map {
            Category(name: $0, slug: Slug.make(from: $0), fruitIndexes: indexesByName[$0] ?? [])
        }
    }

    /// Gives fruits their details, by catalog position: what a page of an entry taken from
    /// the cache needs.
    mutating func setDetails(_ details: [Int: Fruit.Details]) {
        for (index, value) in details { fruits[index].details = value }
    }

    /// The category names, sorted and unique.
    public var categoryNames: [String] { categories.map(\.name) }

    /// Catalog order: folded name as code points (UTF-8 bytes), then slug.
    public static func precedes(_ lhs: Fruit, _ rhs: Fruit) -> Bool {
        precedes((lhs.nameKey, lhs.slug), (rhs.nameKey, rhs.slug))
    }

    private static func precedes(
        _ lhs: (name: [UInt8], slug: String), _ rhs: (name: [UInt8], slug: String)
    ) -> Bool {
        let order = lhs.name.withUnsafeBytes { l in
            rhs.name.withUnsafeBytes { r in
                let common = min(l.count, r.count)
                let order = common == 0 ? 0 : memcmp(l.baseAddress!, r.baseAddress!, common)
                return order != 0 ? Int(order) : l.count - r.count
            }
        }
        return order != 0 ? order < 0 : UTF8Order.precedes(lhs.slug, rhs.slug)
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
        // In file order, so the first file with a slug is the one the others are told about.
        let locations = fruits.map(\.location)
        let byLocation = locations.withUnsafeBufferPointer { locations in
            fruits.indices.sorted { locations[$0] < locations[$1] }
        }
        var firstBySlug: [String: Int] = [:]
        firstBySlug.reserveCapacity(fruits.count)
        for index in byLocation {
            let slug = fruits[index].slug
            if let first = firstBySlug.updateValue(index, forKey: slug) {
                firstBySlug[slug] = first
                diagnostics.append(
                    .error(
                        at: locations[index],
                        "duplicate slug '\(slug)': \(locations[first].path) has it too",
                        hint: "rename one of the files; slugs must be unique across sub-folders"))
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
