import Mustache

/// `structuredData`: a page's schema.org JSON-LD (`StructuredData`). Names are isolated as in
/// the page's title: a search engine shows a trail as a line of text.
extension PageData {
    /// On a page of a listing: breadcrumbs from the home page to `group`'s page, when the
    /// listing is a group's, then the page's fruits at their places in the whole listing.
    func addListingData(
        _ page: Page, group: GroupRead?, listing: ArraySlice<CatalogPosition>,
        into walk: inout some PageWalk
    ) {
        // 101 for the first fruit on page 2 of 100 a page.
        let first = pagination.range(of: page.number, in: Int.max).lowerBound + 1
        let fruits = fruits(listing, as: .decoded)
        let root = root(of: page)
        // Two parts rather than one of an optional group: generic reads are slow (`PageRead`).
        guard let group else {
            return walk.add(.structuredData, siteRead, fruits, first) { site, fruits, first in
                listingData(settings(of: site), root, trail: nil, fruits, first)
            }
        }
        walk.add(.structuredData, siteRead, group, fruits, first) { site, group, fruits, first in
            listingData(settings(of: site), root, trail: group, fruits, first)
        }
    }

    private func listingData(
        _ site: SiteSettings, _ root: String, trail group: GroupRead?, _ fruits: ShownFruits,
        _ first: Int
    ) -> MustacheObject {
        let links = StructuredData.Links(site: site, root: root)
        var json = StructuredData()
        if let group {
            json.addBreadcrumbs([links.link(site.title, ""), link(to: group, links)])
        }
        if !fruits.positions.isEmpty {
            json.addItemList(namesAndSlugs(of: fruits), base: links.base + "fruits/", first: first)
        }
        return ["structuredData": json.value]
    }

    /// On the categories' page, or a facet's: breadcrumbs from the home page to the page,
    /// named `title`, then every group it lists.
    func addGroupsData(
        _ page: Page, groups: GroupListRead, title: String, into walk: inout some PageWalk
    ) {
        walk.add(.structuredData, siteRead, groups, title) { site, read, title in
            let site = settings(of: site)
            let links = StructuredData.Links(site: site, root: root(of: page))
            let groups = self.groups(of: read.list)
            let path = groups.folder + "/"
            var json = StructuredData()
            json.addBreadcrumbs([links.link(site.title, ""), links.link(title, path)])
            json.addItemList(
                groups.groups.lazy.map { (BidiIsolation.isolated($0.name), $0.slug) },
                base: links.base + path, first: 1)
            return ["structuredData": json.value]
        }
    }

    /// The link to a category's page, or a facet value's first page, named as its title.
    func link(to read: GroupRead, _ links: StructuredData.Links) -> StructuredData.Link {
        let (list, group) = (groups(of: read.list), self.group(of: read))
        return links.link(
            list.facet == nil
                ? CategoryPage.title(of: group)
                : FacetPage.title(of: group, in: list, strings: theme.strings),
            "\(list.folder)/\(group.slug)/")
    }
}
