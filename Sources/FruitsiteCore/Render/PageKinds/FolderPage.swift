/// A folder page that leads one folder up (`fruits/`, a listing's `page/`), named after the
/// listing it leads to; or the site root's page, which leads down to the default language's
/// folder.
struct FolderPage {
    static let template = "redirect"
    /// `.fruitsFolder`, `.pagesFolder` or `.siteRoot`.
    let page: Page

    func walk(_ data: PageData, into walk: inout some PageWalk) {
        let title =
            switch page {
            case .pagesFolder(.category(let index)):
                CategoryPage.title(of: data.model.categories[index])
            case .pagesFolder(.facet(let facet, let value)):
                FacetPage.title(
                    of: data.facets[facet].groups[value], in: data.facets[facet],
                    strings: data.theme.strings)
            // The page that lists the site's languages, and leads to the default one's.
            case .siteRoot: data.theme.strings.text("languages")
            // The index as a listing, as the default theme's navigation names it.
            default: data.theme.strings.text("allFruits")
            }
        data.addSite(page, title: .text(title), into: &walk)
        data.addCategories(page, into: &walk)
        data.addTotals(page, into: &walk)
        data.addFeeds(page, into: &walk)
    }
}
