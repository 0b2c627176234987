import Mustache

/// The categories, or one facet's values, with the hashes of their names and of their sizes
/// made once: most pages show every category.
final class GroupList: Sendable {
    let groups: [FruitGroup]
    /// The facet's key, for its values: it names their folder.
    let facet: String?
    /// A group's slug comes from its name, so the names stand for both. Each group's name
    /// hashed with its folder, by index: many pages show one, and hashing a name is most of
    /// what hashing such a read costs.
    let nameHashes: [UInt64]
    let namesHash: UInt64
    let sizesHash: UInt64

    init(_ groups: [FruitGroup], facet: String? = nil) {
        (self.groups, self.facet) = (groups, facet)
        nameHashes = groups.map { group in
            var hasher = StableHasher()
            hasher.combine(facet ?? "categories")
            hasher.combine(group.name)
            return hasher.value
        }
        var (names, sizes) = (StableHasher(), StableHasher())
        names.combine(facet ?? "categories")
        names.combine(UInt64(groups.count))
        for (group, name) in zip(groups, nameHashes) {
            names.combine(name)
            sizes.combine(UInt64(group.positions.count))
        }
        (namesHash, sizesHash) = (names.value, sizes.value)
    }

    /// Where the groups' pages are: a facet's folder, or `categories`.
    var folder: String { facet ?? "categories" }

    /// The index in the list of the group to mark current: none as a read (`-1`).
    static let noGroup = -1
}

/// Which groups a read names: the categories, or the values of the facet at an index of
/// `SiteModel.facets`.
enum GroupListID: Sendable, Equatable {
    case categories
    case facet(Int)
}

/// A category, or a value of a facet, with its size when shown: hashed as its name, which its
/// slug comes from, its folder and its size. Like every read, a plain value, which a walk
/// copies without counting references: the group is looked up by it (`PageData.group(of:)`).
struct GroupRead: PageRead {
    let list: GroupListID
    let index: Int
    let isSized: Bool
    fileprivate let hash: UInt64

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }
}

/// Every category, or every value of a facet, with their sizes when shown.
struct GroupListRead: PageRead {
    let list: GroupListID
    let isSized: Bool
    fileprivate let hash: UInt64

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }
}

/// Each facet's values, with their sizes when shown.
struct FacetListsRead: PageRead {
    let isSized: Bool
    fileprivate let hash: UInt64

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }
}

extension PageData {
    func group(_ list: GroupListID, _ index: Int, isSized: Bool) -> GroupRead {
        var hasher = StableHasher()
        switch list {
        case .categories: Self.combine(index, of: categories, isSized: isSized, into: &hasher)
        case .facet(let facet):
            Self.combine(index, of: facets[facet], isSized: isSized, into: &hasher)
        }
        return GroupRead(list: list, index: index, isSized: isSized, hash: hasher.value)
    }

    func groups(_ list: GroupListID, isSized: Bool) -> GroupListRead {
        var hasher = StableHasher()
        switch list {
        case .categories: Self.combine(categories, isSized: isSized, into: &hasher)
        case .facet(let facet): Self.combine(facets[facet], isSized: isSized, into: &hasher)
        }
        return GroupListRead(list: list, isSized: isSized, hash: hasher.value)
    }

    func facetLists(isSized: Bool) -> FacetListsRead {
        var hasher = StableHasher()
        hasher.combine(UInt64(facets.count))
        for list in facets { Self.combine(list, isSized: isSized, into: &hasher) }
        return FacetListsRead(isSized: isSized, hash: hasher.value)
    }

    private static func combine(
        _ index: Int, of list: GroupList, isSized: Bool, into hasher: inout StableHasher
    ) {
        hasher.combine(list.nameHashes[index])
        hasher.combine(isSized ? UInt64(list.groups[index].positions.count) : UInt64.max)
    }

    private static func combine(
        _ list: GroupList, isSized: Bool, into hasher: inout StableHasher
    ) {
        hasher.combine(list.namesHash)
        hasher.combine(isSized ? list.sizesHash : 0)
    }

    /// The groups a read names.
    func groups(of list: GroupListID) -> GroupList {
        switch list {
        case .categories: categories
        case .facet(let facet): facets[facet]
        }
    }

    /// The group a read names.
    func group(of read: GroupRead) -> FruitGroup { groups(of: read.list).groups[read.index] }

    // MARK: - Values

    /// The `categories` of a page: every category, the one at index `current` marked.
    func categoriesValue(_ read: GroupListRead, root: String, current: Int) -> MustacheValue {
        assert(read.list == .categories)
        var categories =
            switch (root, read.isSized) {
            case (Self.nestedRoot, false): nestedCategories.plain
            case (Self.nestedRoot, true): nestedCategories.sized
            default: categoriesSummaries(root: root, isSized: read.isSized)
            }
        if categories.indices.contains(current), case .object(var object) = categories[current] {
            object["isCurrent"] = true
            categories[current] = .object(object)
        }
        return .array(categories)
    }

    /// Every category's summary from `root`.
    func categoriesSummaries(root: String, isSized: Bool) -> [MustacheValue] {
        categories.groups.map {
            summary(of: $0, folder: categories.folder, root: root, isSized: isSized)
        }
    }

    /// A category's `category` on its own page: with the page's fruits, and current, as in
    /// the page's `categories`; sized, with its `lede`.
    func categoryPageValue(_ category: GroupRead, fruits: [MustacheValue], root: String)
        -> MustacheValue
    {
        guard case .object(var value) = summary(of: category, root: root) else { return .null }
        value["fruits"] = .array(fruits)
        value["isCurrent"] = true
        if category.isSized {
            let group = group(of: category)
            value["lede"] = .string(
                theme.strings.text(
                    "categoryLede", count: group.positions.count,
                    ["category": BidiIsolation.isolated(group.name)]))
        }
        return .object(value)
    }

    /// A facet value's `facet` on its own page: the facet's key and label, and the value with
    /// the page's fruits and its `title`; sized, with its `lede`; both HTML (the value in a
    /// `<bdi>`).
    func facetPageValue(_ value: GroupRead, fruits: [MustacheValue], root: String)
        -> MustacheValue
    {
        guard case .object(var object) = summary(of: value, root: root) else { return .null }
        let key = groups(of: value.list).folder
        let label = self.label(ofFacet: key)
        let name = BidiIsolation.isolated(group(of: value).name)
        object["key"] = .string(key)
        object["label"] = .string(label)
        object["title"] = .string(
            theme.strings.markup(
                "facetValueTitle", ["facet": label, "value": name], isolating: ["value"]))
        object["fruits"] = .array(fruits)
        if value.isSized {
            object["lede"] = .string(
                theme.strings.markup(
                    "facetValueFruits", count: group(of: value).positions.count,
                    ["facet": label, "value": name], isolating: ["value"]))
        }
        return .object(object)
    }

    /// A facet, with its values from `root`: `facet` on its own page (`<facet>/`), and each
    /// of `facets` on the index.
    func facetValue(_ read: GroupListRead, root: String) -> MustacheValue {
        let values = groups(of: read.list)
        let key = values.folder
        return [
            "key": .string(key),
            "label": .string(label(ofFacet: key)),
            "url": .string("\(root)\(key)/"),
            "values": .array(
                values.groups.map {
                    summary(of: $0, folder: key, root: root, isSized: read.isSized)
                }),
        ]
    }

    /// The keys of a group's summary, without and with its size.
    private static let groupKeys = ["name", "exactName", "slug", "url"]
    private static let sizedGroupKeys = groupKeys + ["count", "isSingle", "countText"]

    /// A category's or a facet value's summary: its name, slug and address (in its facet's
    /// folder, or `categories/`), and its size when shown.
    func summary(of read: GroupRead, root: String) -> MustacheValue {
        summary(
            of: group(of: read), folder: groups(of: read.list).folder, root: root,
            isSized: read.isSized)
    }

    private func summary(
        of group: FruitGroup, folder: String, root: String, isSized: Bool
    ) -> MustacheValue {
        // Made with its keys at once, as a fruit's: every page lists every category, and
        // adding the keys one by one looks each up among those before.
        var values: [MustacheValue] = [
            .string(BidiIsolation.isolated(group.name)), .string(group.name), .string(group.slug),
            .string(String(joining: root, folder, "/", group.slug, "/")),
        ]
        guard isSized else {
            return .object(MustacheObject(uniqueKeys: Self.groupKeys, values: values))
        }
        let count = group.positions.count
        values += [
            .int(count), .bool(count == 1),
            .string(theme.strings.text("fruits", count: count)),
        ]
        return .object(MustacheObject(uniqueKeys: Self.sizedGroupKeys, values: values))
    }
}
