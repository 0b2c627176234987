/// A page of a facet's value (`vitamins/c/`, `vitamins/c/page/<n>/`): the facet, the value and
/// the fruits of its page; like a category's, only the first page shows the value's size.
struct FacetPage {
    static let template = "facet"
    /// The facet's index in `SiteModel.facets`, and the value's in its list.
    let facet: Int
    let value: Int
    let number: Int

    /// The title of a value's pages before their numbers: `Vitamins: C`.
    static func title(of value: FruitGroup, in values: GroupList, strings: ThemeStrings)
        -> String
    {
        strings.text(
            "facetValueTitle",
            [
                "facet": strings.label(ofFacet: values.folder),
                "value": BidiIsolation.isolated(value.name),
            ])
    }

    /// The description of a value's page: its size on the first page, the page's number on a
    /// later one.
    func description(of value: FruitGroup, in values: GroupList, strings: ThemeStrings)
        -> String
    {
        let facet = strings.label(ofFacet: values.folder)
        let name = BidiIsolation.isolated(value.name)
        return number == 1
            ? strings.text(
                "facetValueFruits", count: value.positions.count, ["facet": facet, "value": name])
            : strings.text(
                "laterFacetValuePageDescription",
                ["page": strings.number(number), "facet": facet, "value": name])
    }

    func walk(_ data: PageData, into walk: inout some PageWalk) {
        let page = Page.facet(facet, value: value, page: number)
        let root = data.root(of: page)
        let values = data.facets[facet]
        let members = values.groups[value].positions
        let listing = members[data.pagination.range(of: number, in: members.count)]
        let strings = data.theme.strings
        let title = Self.title(of: values.groups[value], in: values, strings: strings)
        data.addSite(
            page, title: .text(title),
            description: description(of: values.groups[value], in: values, strings: strings),
            into: &walk)
        walk.add(
            .facetValue, data.group(.facet(facet), value, isSized: number == 1),
            data.fruits(listing, as: .summary(from: root))
        ) { value, fruits in
            [
                "facet": data.facetPageValue(
                    value, fruits: data.summaries(of: fruits, root: root), root: root)
            ]
        }
        data.addPager(page, count: members.count, heading: title, into: &walk)
        data.addCategories(page, into: &walk)
        data.addTotals(page, into: &walk)
        data.addListingData(
            page, group: data.group(.facet(facet), value, isSized: false), listing: listing,
            into: &walk)
        data.addFeeds(page, into: &walk)
    }
}
