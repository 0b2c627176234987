import Mustache

/// One fruit by its catalog position, as a part shows it: hashed as its summary, which covers
/// every field of the fruit (`Fruit.summaryHash`).
struct ShownFruit: PageRead {
    let position: CatalogPosition
    let use: PageMarks.Use
    fileprivate let hash: UInt64

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }

    func mark(_ marks: inout PageMarks) { marks.mark(position, as: use) }
}

/// The fruits either side of a fruit in catalog order, if any, by their catalog positions:
/// hashed as their summaries.
struct Neighbours: PageRead {
    let previous: CatalogPosition?
    let next: CatalogPosition?
    fileprivate let hash: UInt64

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }

    func mark(_ marks: inout PageMarks) {
        if let previous { marks.mark(previous, as: .nested) }
        if let next { marks.mark(next, as: .nested) }
    }
}

/// Fruits by their catalog positions, in order, as a part shows them: hashed as their
/// summaries.
struct ShownFruits: PageRead {
    let positions: ArraySlice<CatalogPosition>
    let use: PageMarks.Use
    fileprivate let hash: UInt64

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }

    func mark(_ marks: inout PageMarks) {
        for position in positions { marks.mark(position, as: use) }
    }
}

/// A fruit whole, for its own page: hashed as its summary and as its file's bytes, which its
/// details are parsed from, and as whether raw HTML passes through, which its body is
/// rendered with.
struct WholeFruit: PageRead {
    let position: CatalogPosition
    fileprivate let hash: UInt64

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }

    func mark(_ marks: inout PageMarks) { marks.mark(position, as: [.whole, .nested]) }
}

extension PageData {
    func fruit(at position: CatalogPosition, as use: PageMarks.Use) -> ShownFruit {
        ShownFruit(position: position, use: use, hash: hashes[position.rawValue].summary)
    }

    func neighbours(of position: CatalogPosition) -> Neighbours {
        let previous = position.rawValue > 0 ? position.advanced(by: -1) : nil
        let next = position.rawValue + 1 < model.order.count ? position.advanced(by: 1) : nil
        var hasher = StableHasher()
        hasher.combine(previous.map { hashes[$0.rawValue].summary } ?? 0)
        hasher.combine(next.map { hashes[$0.rawValue].summary } ?? 0)
        return Neighbours(previous: previous, next: next, hash: hasher.value)
    }

    func fruits(_ positions: ArraySlice<CatalogPosition>, as use: PageMarks.Use) -> ShownFruits {
        var hasher = StableHasher()
        for position in positions { hasher.combine(hashes[position.rawValue].summary) }
        return ShownFruits(positions: positions, use: use, hash: hasher.value)
    }

    func wholeFruit(at position: CatalogPosition) -> WholeFruit {
        var hasher = StableHasher()
        hasher.combine(hashes[position.rawValue].source)
        hasher.combine(hashes[position.rawValue].summary)
        hasher.combine(UInt64(config.rawHTML ? 1 : 0))
        return WholeFruit(position: position, hash: hasher.value)
    }

    // MARK: - Values

    /// The summary of the fruit at a catalog position with links from `root`, or null for
    /// none.
    func summary(ofFruitAt position: CatalogPosition?, root: String) -> MustacheValue {
        position.map { summary(at: $0, root: root) } ?? .null
    }

    func summaries(of fruits: ShownFruits, root: String) -> [MustacheValue] {
        fruits.positions.map { summary(at: $0, root: root) }
    }

    /// The fruits' names, isolated as their pages' titles are, and slugs, for JSON-LD.
    func namesAndSlugs(of fruits: ShownFruits) -> some Sequence<(name: String, slug: String)> {
        fruits.positions.lazy.map { position in
            let listed = listed(at: position)
            return (BidiIsolation.isolated(listed.name), listed.slug)
        }
    }

    /// The `fruit` of its own page: its summary, and what its details add.
    func value(of fruit: WholeFruit, details: FruitDetails) -> MustacheValue {
        let position = fruit.position
        guard case .object(var value) = summary(at: position, root: Self.nestedRoot) else {
            preconditionFailure("a fruit's summary is an object")
        }
        let fruit = summaries.fruit(position) ?? model[position: position].fruit
        value["body"] = .utf8(details.body)
        value["vitaminList"] = .array(
            fruit.vitamins.map { ["name": .string(BidiIsolation.isolated($0))] })
        value["params"] = .object(details.params)
        value["tagline"] = details.tagline.map(MustacheValue.string) ?? .null
        value["description"] = .string(details.description(of: fruit, strings: theme.strings))
        value["facets"] = .array(
            fruit.facets.map { facet in
                [
                    "key": .string(facet.key),
                    "label": .string(label(ofFacet: facet.key)),
                    "values": .array(
                        facet.values.enumerated().map { index, name in
                            [
                                "name": .string(BidiIsolation.isolated(name)),
                                "exactName": .string(name),
                                "url": .string(
                                    "\(Self.nestedRoot)\(facet.key)/\(Slug.make(from: name))/"),
                                "isLast": .bool(index == facet.values.count - 1),
                            ]
                        }),
                ]
            })
        return .object(value)
    }

    /// What a listing shows of the fruit at a catalog position.
    func listed(at position: CatalogPosition) -> ListedFruit {
        summaries.listed(position) ?? model[position: position].listed
    }

    /// The slug of the category of the fruit at a catalog position.
    func categorySlug(at position: CatalogPosition) -> String {
        model.categories[Int(categoryOfPosition[position.rawValue])].slug
    }

    /// The summary of the fruit at a catalog position, with links from `root`: as prepared,
    /// or made here.
    private func summary(at position: CatalogPosition, root: String) -> MustacheValue {
        let prepared: MustacheValue? =
            switch root {
            case "": summaries.atRoot(position)
            case Self.nestedRoot: summaries.nested(position)
            default: nil
            }
        return prepared
            ?? Self.summary(
                of: listed(at: position), categorySlug: categorySlug(at: position), root: root,
                pictures: config.images, strings: theme.strings)
    }
}
