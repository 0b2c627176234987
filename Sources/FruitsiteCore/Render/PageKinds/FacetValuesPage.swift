/// A facet's page (`vitamins/`): the facet, and every value of it with its size.
struct FacetValuesPage {
    static let template = "facet-values"
    /// The facet's index in `SiteModel.facets`.
    let facet: Int

    func walk(_ data: PageData, into walk: inout some PageWalk) {
        let page = Page.facetValues(facet)
        let strings = data.theme.strings
        let title = data.label(ofFacet: data.model.settings.facets[facet])
        let description = strings.text(
            "facetValuesDescription", ["facet": title, "site": data.site.title])
        data.addSite(page, title: .text(title), description: description, into: &walk)
        walk.add(.facetValue, data.groups(.facet(facet), isSized: true)) {
            ["facet": data.facetValue($0, root: data.root(of: page))]
        }
        data.addCategories(page, into: &walk)
        data.addTotals(page, into: &walk)
        data.addGroupsData(
            page, groups: data.groups(.facet(facet), isSized: false),
            title: title, into: &walk)
        data.addFeeds(page, into: &walk)
    }
}
