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
        let order = lhs.name.withUnsafeBytes { l in
            rhs.name.withUnsafeBytes { r in
                let common = min(l.count, r.count)
                let order = common == 0 ? 0 : memcmp(l.baseAddress!, r.baseAddress!, common)
                return order != 0 ? Int(order) : l.count - r.count
            }
        }
        return order != 0 ? order < 0 : UTF8Order.precedes(lhs.slug, rhs.slug)
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
