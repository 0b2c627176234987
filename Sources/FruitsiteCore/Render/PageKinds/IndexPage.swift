/// A page of the index (`index.html`, `page/<n>/`): the fruits of its page, every category and
/// facet, and the search, which loads the search index the page names.
struct IndexPage {
    static let template = "index"
    let number: Int

    func walk(_ data: PageData, into walk: inout some PageWalk) {
        let page = Page.index(page: number)
        let root = data.root(of: page)
        let count = data.model.order.count
        let range = data.pagination.range(of: number, in: count)
        let positions = CatalogPosition(range.lowerBound)..<CatalogPosition(range.upperBound)
        let listing = Array(positions)[...]
        // A later page's own description, which search engines want unique; without the page
        // count, which a fruit added would change on every page.
        let strings = data.theme.strings
        let description =
            number == 1
            ? ""
            : strings.text(
                "laterIndexPageDescription",
                ["page": strings.number(number), "site": data.site.title])
        data.addSite(
            page, title: .text(data.site.title), description: description, into: &walk)
        // The search index's file, named by its bytes: a change the index shows renames it.
        walk.add(.site, data.searchIndexPath) { path in
            [
                "searchIndexURL": .string(root + path),
                // search.js's words (`strings`), as JSON: its script reads them from the page.
                "searchStrings": .string(data.theme.strings.searchJSON),
            ]
        }
        walk.add(.fruits, data.fruits(listing, as: .summary(from: root))) { fruits in
            ["fruits": .array(data.summaries(of: fruits, root: root))]
        }
        data.addPager(
            page, count: count, heading: data.theme.strings.text("allFruits"), into: &walk)
        data.addCategories(page, into: &walk)
        // Like the categories' sizes, the facets' counts are on the first page only.
        walk.add(.facets, data.facetLists(isSized: number == 1)) { facets in
            [
                "facets": .array(
                    data.facets.indices.map {
                        data.facetValue(
                            data.groups(.facet($0), isSized: facets.isSized), root: root)
                    })
            ]
        }
        data.addTotals(page, into: &walk)
        data.addListingData(page, group: nil, listing: listing, into: &walk)
        data.addFeeds(page, into: &walk)
    }
}
