extension PageData {
    /// The hash of a facet's key and its values' names, and with `sized` their sizes: what
    /// its page (`<facet>/`) shows of it.
    func valuesHash(of facet: Int, sized: Bool = true) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(model.settings.facets[facet])
        for value in model.facets[facet] {
            hasher.combine(value.name)
            if sized { hasher.combine(UInt64(value.fruitIndexes.count)) }
        }
        return hasher.value
    }

    /// The names and slugs of what the categories' page or a facet's page lists: the
    /// categories, or the facet's values, in their order.
    func namesAndSlugs(listedOn page: Page) -> [(name: String, slug: String)] {
        let groups: [Category]
        switch page {
        case .categories: groups = model.categories
        case .facetValues(let facet): groups = model.facets[facet]
        default: groups = []
        }
        return groups.map { (BidiIsolation.isolated($0.name), $0.slug) }
    }
}
