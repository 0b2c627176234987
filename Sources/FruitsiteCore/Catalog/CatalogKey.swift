#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What places a fruit in catalog order: its name's sort key in the catalog's collation,
/// then, for names the collation finds equal, its slug code point by code point.
struct CatalogKey: Comparable {
    var name: [UInt8]
    var slug: String

    init(_ fruit: Fruit, in collation: Collation) {
        name = collation.key(fruit.name)
        slug = fruit.slug
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.name.withUnsafeBytes { l in
            rhs.name.withUnsafeBytes { r in CatalogKey.precedes(l, lhs.slug, r, rhs.slug) }
        }
    }

    /// Whether the name key `l` with the slug `lSlug` comes before `r` with `rSlug`.
    static func precedes(
        _ l: UnsafeRawBufferPointer, _ lSlug: String, _ r: UnsafeRawBufferPointer,
        _ rSlug: String
    ) -> Bool {
        let common = min(l.count, r.count)
        let bytes = common == 0 ? 0 : memcmp(l.baseAddress!, r.baseAddress!, common)
        let order = bytes != 0 ? Int(bytes) : l.count - r.count
        return order != 0 ? order < 0 : UTF8Order.precedes(lSlug, rSlug)
    }

    /// The positions of `fruits` in catalog order: their name keys are made once each, into
    /// one array (an array per key would take several times the memory, kept by the
    /// allocator past the sort).
    static func order(of fruits: [Fruit], by collation: Collation) -> [Int] {
        var bytes: [UInt8] = []
        var ends: [Int32] = []
        ends.reserveCapacity(fruits.count)
        let slugs = fruits.map(\.slug)
        for fruit in fruits {
            collation.appendKey(of: fruit.name, to: &bytes)
            ends.append(Int32(bytes.count))
        }
        return bytes.withUnsafeBytes { bytes in
            ends.withUnsafeBufferPointer { ends in
                func key(_ index: Int) -> UnsafeRawBufferPointer {
                    let start = index == 0 ? 0 : Int(ends[index - 1])
                    return UnsafeRawBufferPointer(rebasing: bytes[start..<Int(ends[index])])
                }
                return fruits.indices.sorted {
                    precedes(key($0), slugs[$0], key($1), slugs[$1])
                }
            }
        }
    }
}

/// The sort keys of group names (categories, facet values) in a collation, each made once:
/// a catalog names the same few groups over and over.
struct GroupKeys {
    let collation: Collation
    private var made: [String: [UInt8]] = [:]

    init(_ collation: Collation) { self.collation = collation }

    subscript(name: String) -> [UInt8] {
        mutating get {
            if let key = made[name] { return key }
            let key = collation.key(name)
            made[name] = key
            return key
        }
    }
}
