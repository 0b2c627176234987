/// Goes over a fruit's fields in the order `Fruit.visitFields(_:)` lists them. The summary
/// hash, the saved model's bytes and the search record are each one of these, so a field added
/// to that list reaches all of them.
protocol FruitFieldVisitor {
    /// A text field; `searched` when the search record shows it under `name`.
    mutating func visit(_ name: StaticString, _ value: inout String, searched: Bool)
    /// A list of texts, which the search record shows joined by `, `, as listings do.
    mutating func visit(_ name: StaticString, _ value: inout [String], searched: Bool)
    mutating func visit(_ name: StaticString, _ value: inout Bool, searched: Bool)
    mutating func visit(_ name: StaticString, _ value: inout EntryDate?, searched: Bool)
    /// The facets' values, which the search record shows as an object of lists, after the
    /// other fields and the fruit's URL, and not at all when there are none.
    mutating func visit(_ name: StaticString, _ value: inout [FacetValues], searched: Bool)
    /// The picture, whose thumbnail the search record shows last, as the pictures' settings
    /// publish it, and not at all when there is none.
    mutating func visit(_ name: StaticString, _ value: inout FruitImage?, searched: Bool)
    /// A folded key (`Fold.key`): derived from a field listed before it, so it is kept but
    /// never hashed or shown.
    mutating func visit(key name: StaticString, _ value: inout [UInt8])
}

extension Fruit {
    /// Every field of a fruit, listed once: the order the saved model holds them in
    /// (`EntryFacts`), which the summary hash follows, and which the search record shows.
    mutating func visitFields(_ visitor: inout some FruitFieldVisitor) {
        // First: the sharded index reads every fruit's name key without decoding the rest
        // (`EntryFacts.nameKey`).
        visitor.visit(key: "nameKey", &nameKey)
        visitor.visit("slug", &slug, searched: true)
        visitor.visit("name", &name, searched: true)
        visitor.visit("emoji", &emoji, searched: true)
        visitor.visit("category", &category, searched: true)
        visitor.visit("vitamins", &vitamins, searched: true)
        visitor.visit(key: "categoryKey", &categoryKey)
        visitor.visit("draft", &isDraft, searched: false)
        visitor.visit("date", &date, searched: false)
        visitor.visit("facets", &facets, searched: true)
        visitor.visit("image", &image, searched: true)
    }

    /// What `visitFields` fills in when decoding: no field set yet.
    static let unset = Fruit(
        slug: "", name: "", emoji: "", category: "", vitamins: [], isDraft: false, date: nil,
        facets: [], image: nil, nameKey: [], categoryKey: [])

    /// A hash of every field: the pages that list or link to this fruit change only when it
    /// does.
    var summaryHash: UInt64 {
        var fruit = self
        var visitor = SummaryHasher()
        fruit.visitFields(&visitor)
        return visitor.hasher.value
    }
}

/// Hashes each field, lists with their counts first, so that no two fruits run together.
private struct SummaryHasher: FruitFieldVisitor {
    var hasher = StableHasher()

    mutating func visit(_ name: StaticString, _ value: inout String, searched: Bool) {
        hasher.combine(value)
    }

    mutating func visit(_ name: StaticString, _ value: inout [String], searched: Bool) {
        hasher.combine(UInt64(value.count))
        for text in value { hasher.combine(text) }
    }

    mutating func visit(_ name: StaticString, _ value: inout Bool, searched: Bool) {
        hasher.combine(UInt64(value ? 1 : 0))
    }

    mutating func visit(_ name: StaticString, _ value: inout EntryDate?, searched: Bool) {
        hasher.combine(value.map { UInt64(bitPattern: $0.seconds) } ?? UInt64.max)
    }

    mutating func visit(_ name: StaticString, _ value: inout [FacetValues], searched: Bool) {
        hasher.combine(UInt64(value.count))
        for facet in value {
            hasher.combine(facet.key)
            hasher.combine(UInt64(facet.values.count))
            for text in facet.values { hasher.combine(text) }
        }
    }

    mutating func visit(_ name: StaticString, _ value: inout FruitImage?, searched: Bool) {
        var writer = ByteWriter()
        FruitEncoder.write(value, to: &writer)
        hasher.combine(writer.bytes)
    }

    mutating func visit(key name: StaticString, _ value: inout [UInt8]) {}
}
