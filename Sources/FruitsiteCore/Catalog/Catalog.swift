/// The fruits in catalog order, their categories and the search filter: the catalog the
/// `search` command filters and the browser's client filters the same way.
public struct Catalog: Sendable {
    /// Every fruit, ascending by name in the catalog's collation, then by slug.
    public let fruits: [Fruit]
    /// Unique categories, ascending by name in the catalog's collation, then by name code
    /// point by code point.
    public let categories: [FruitGroup]

    /// Sorts `fruits` into catalog order and groups them into categories.
    /// - Parameters:
    ///   - fruits: The parsed fruits, in any order.
    ///   - collation: The order of the catalog's language.
    public init(fruits: [Fruit], collation: Collation) {
        let sorted = CatalogKey.order(of: fruits, by: collation).map { fruits[$0] }
        self.init(sorted: sorted, categories: Self.categories(of: sorted, by: collation))
    }

    /// A catalog of fruits already in catalog order, with their categories.
    init(sorted fruits: [Fruit], categories: [FruitGroup]) {
        self.fruits = fruits
        self.categories = categories
    }

    /// The categories of `fruits`, which are in catalog order, each with the positions of its
    /// fruits.
    static func categories(of fruits: [Fruit], by collation: Collation) -> [FruitGroup] {
        var categories: [FruitGroup] = []
        var keys = GroupKeys(collation)
        for (position, fruit) in fruits.enumerated() {
            add(
                CatalogPosition(position), to: fruit.category, key: keys[fruit.category],
                in: &categories)
        }
        return categories
    }

    /// Adds a catalog position to the group (a category, or a facet's value) named `name`,
    /// which is made, in its sorted place, if `groups` has none of that name yet.
    /// - Parameter key: The name's sort key in the catalog's collation (`GroupKeys`).
    static func add(
        _ position: CatalogPosition, to name: String, key: [UInt8], in groups: inout [FruitGroup]
    ) {
        let index = index(ofGroup: name, key: key, in: groups)
        if index == groups.count || groups[index].name != name {
            groups.insert(FruitGroup(name: name, key: key), at: index)
        }
        // Fruits mostly come in catalog order, so this is mostly an append.
        var slot = groups[index].positions.count
        while slot > 0 && groups[index].positions[slot - 1] > position { slot -= 1 }
        groups[index].positions.insert(position, at: slot)
    }

    /// Where the group named `name` is, or would go, in `groups`: binary search.
    static func index(ofGroup name: String, key: [UInt8], in groups: [FruitGroup]) -> Int {
        groups.partitioningIndex(where: { !FruitGroup.precedes(($0.key, $0.name), (key, name)) })
    }

    /// The category names, sorted and unique.
    public var categoryNames: [String] { categories.map(\.name) }

    // MARK: - The filter

    /// The fruits the search shows, in catalog order.
    ///
    /// Empty `searchText` keeps every fruit; otherwise a fruit matches when `fold(searchText)`
    /// occurs in `fold(name)` or `fold(category)`. Then `category`, when given, keeps only
    /// fruits whose category equals it exactly, and each of `facets` only fruits with that
    /// value of that facet, exactly.
    /// - Parameters:
    ///   - searchText: What the user typed; nothing is trimmed.
    ///   - category: A category name to match exactly, or nil (or empty) for all.
    ///   - facets: Facet keys, each with a value to match exactly (an empty value is no
    ///     filter).
    public func filter(
        searchText: String, category: String? = nil, facets: [(key: String, value: String)] = []
    ) -> [Fruit] {
        Self.filter(fruits, searchText: searchText, category: category, facets: facets)
    }

    /// The same filter over any list of fruits, keeping its order.
    /// - Parameters:
    ///   - fruits: The fruits to filter.
    ///   - searchText: What the user typed; nothing is trimmed.
    ///   - category: A category name to match exactly, or nil for all.
    ///   - facets: Facet keys, each with a value to match exactly.
    public static func filter(
        _ fruits: [Fruit], searchText: String, category: String?,
        facets: [(key: String, value: String)] = []
    ) -> [Fruit] {
        let needle = Fold.key(Fold.normalizeNFC(searchText))
        // An empty category or value is no filter, like the page's "All …" choices.
        let wanted = category.flatMap { $0.isEmpty ? nil : Fold.normalizeNFC($0) }
        let wantedValues = facets.filter { !$0.value.isEmpty }.map {
            (key: $0.key, value: Array(Fold.normalizeNFC($0.value).utf8))
        }
        return fruits.filter { fruit in
            let matchesText =
                needle.isEmpty || Fold.contains(fruit.nameKey, needle)
                || Fold.contains(fruit.categoryKey, needle)
            guard matchesText else { return false }
            if let wanted, !fruit.category.utf8.elementsEqual(wanted.utf8) { return false }
            return wantedValues.allSatisfy { wanted in
                fruit.values(ofFacet: wanted.key).contains { $0.utf8.elementsEqual(wanted.value) }
            }
        }
    }
}
