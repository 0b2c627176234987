#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fruits in catalog order, their categories and the search filter: the catalog the
/// `search` command filters and the browser's client filters the same way.
public struct Catalog: Sendable {
    /// Every fruit, ascending by `fold(name)` code point by code point, then by slug.
    public let fruits: [Fruit]
    /// Unique categories, ascending by `fold(name)` code point by code point, then by name.
    public let categories: [Category]

    /// Sorts `fruits` into catalog order and groups them into categories.
    /// - Parameter fruits: The parsed fruits, in any order.
    public init(fruits: [Fruit]) {
        let sorted = Self.order(of: fruits).map { fruits[$0] }
        self.init(sorted: sorted, categories: Self.categories(of: sorted))
    }

    /// A catalog of fruits already in catalog order, with their categories.
    init(sorted fruits: [Fruit], categories: [Category]) {
        self.fruits = fruits
        self.categories = categories
    }

    /// The positions of `fruits` in catalog order.
    static func order(of fruits: [Fruit]) -> [Int] {
        // Sort positions by borrowed keys: comparing `Fruit` values would copy two of them,
        // a dozen reference counts, per comparison.
        let keys = fruits.map { (name: $0.nameKey, slug: $0.slug) }
        return keys.withUnsafeBufferPointer { keys in
            fruits.indices.sorted { Self.precedes(keys[$0], keys[$1]) }
        }
    }

    /// The categories of `fruits`, which are in catalog order, each with the positions of its
    /// fruits.
    static func categories(of fruits: [Fruit]) -> [Category] {
        var categories: [Category] = []
        for (position, fruit) in fruits.enumerated() {
            add(fruit, at: position, to: &categories)
        }
        return categories
    }

    /// Adds the fruit at a catalog position to its category, which is made, in its sorted
    /// place, if `categories` has none of that name yet.
    static func add(_ fruit: Fruit, at position: Int, to categories: inout [Category]) {
        let index = index(ofCategory: fruit.category, key: fruit.categoryKey, in: categories)
        if index == categories.count || categories[index].name != fruit.category {
            categories.insert(Category(name: fruit.category, key: fruit.categoryKey), at: index)
        }
        // Fruits mostly come in catalog order, so this is mostly an append.
        var slot = categories[index].fruitIndexes.count
        while slot > 0 && categories[index].fruitIndexes[slot - 1] > position { slot -= 1 }
        categories[index].fruitIndexes.insert(position, at: slot)
    }

    /// Where the category named `name` is, or would go, in `categories`: binary search.
    static func index(ofCategory name: String, key: [UInt8], in categories: [Category]) -> Int {
        var (low, high) = (0, categories.count)
        while low < high {
            let middle = (low + high) / 2
            if Category.precedes((categories[middle].key, categories[middle].name), (key, name)) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
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

    /// The fruits the search shows, in catalog order.
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
}
