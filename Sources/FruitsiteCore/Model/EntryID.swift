/// An entry's id in the site model: where the entry lies in `SiteModel.entries`, counted
/// from 0, holes left by removed entries included. Its own type, not an `Int`, so that an id
/// is never taken for a catalog position (`CatalogPosition`): `SiteModel.order` maps one to
/// the other.
struct EntryID: Strideable, Hashable, Sendable, CustomStringConvertible {
    /// The id as a number: the index into arrays kept by id.
    var rawValue: Int

    /// The id `rawValue`.
    init(_ rawValue: Int) { self.rawValue = rawValue }

    // Each written out, rather than taken from `Strideable`'s defaults, which compare by
    // `distance(to:)`: an overflow check on every comparison.
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    func distance(to other: Self) -> Int { other.rawValue - rawValue }
    func advanced(by offset: Int) -> Self { Self(rawValue + offset) }

    /// The number alone, as a message or a path that names one reads it.
    var description: String { "\(rawValue)" }
}
