/// A category and its fruits, in catalog order.
public struct Category: Sendable {
    public var name: String
    /// The URL slug, such as `grapes-vines` for `Grapes & Vines`.
    public var slug: String
    /// Indexes into `Catalog.fruits`.
    public var fruitIndexes: [Int]
}
