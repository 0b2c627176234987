/// A group of fruits: a category, or a facet's value, with its fruits' catalog positions.
public struct FruitGroup: Sendable {
    public var name: String
    /// The URL slug, such as `grapes-vines` for `Grapes & Vines`.
    public var slug: String
    /// The catalog positions of its fruits, ascending.
    public var positions: [CatalogPosition]
    /// The name's sort key in the catalog's collation (`Collation.key`): groups sort by it,
    /// then by name.
    let key: [UInt8]

    init(name: String, key: [UInt8], slug: String? = nil, positions: [CatalogPosition] = []) {
        self.name = name
        self.slug = slug ?? Slug.make(from: name)
        self.positions = positions
        self.key = key
    }

    /// Group order: the name in the catalog's collation, then the name code point by code
    /// point.
    static func precedes(
        _ lhs: (key: [UInt8], name: String), _ rhs: (key: [UInt8], name: String)
    ) -> Bool {
        lhs.key != rhs.key
            ? lhs.key.lexicographicallyPrecedes(rhs.key)
            : lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
    }
}
