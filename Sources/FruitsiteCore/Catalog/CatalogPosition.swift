/// A listed fruit's place in catalog order, counted from 0: its index in `Catalog.fruits`,
/// and in `SiteModel.order`, which gives its entry's id. Its own type, not an `Int`, so that a
/// position is never taken for an entry's id (`EntryID`).
public struct CatalogPosition: Strideable, Hashable, Sendable, CustomStringConvertible {
    /// The position as a number: the index into arrays kept in catalog order.
    public var rawValue: Int

    /// The position `rawValue`.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    // Each written out, rather than taken from `Strideable`'s defaults, which compare by
    // `distance(to:)`: an overflow check on every comparison.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public func distance(to other: Self) -> Int { other.rawValue - rawValue }
    public func advanced(by offset: Int) -> Self { Self(rawValue + offset) }

    /// The number alone, as a message or a path that names one reads it.
    public var description: String { "\(rawValue)" }
}
