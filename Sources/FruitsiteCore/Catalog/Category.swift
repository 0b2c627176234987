/// A category and its fruits, in catalog order.
public struct Category: Sendable {
    public var name: String
    /// The URL slug, such as `grapes-vines` for `Grapes & Vines`.
    public var slug: String
    /// The positions of its fruits in catalog order.
    public var fruitIndexes: [Int]
    /// `fold(name)` as UTF-8: categories sort by it, then by name.
    let key: [UInt8]

    init(name: String, slug: String? = nil, fruitIndexes: [Int] = [], key: [UInt8]? = nil) {
        self.name = name
        self.slug = slug ?? Slug.make(from: name)
        self.fruitIndexes = fruitIndexes
        self.key = key ?? Fold.key(name)
    }

    /// Category order: folded name as code points, then name.
    static func precedes(
        _ lhs: (key: [UInt8], name: String), _ rhs: (key: [UInt8], name: String)
    ) -> Bool {
        lhs.key != rhs.key
            ? lhs.key.lexicographicallyPrecedes(rhs.key)
            : lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
    }
}
