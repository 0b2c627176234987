/// The categories' page (`categories/`): every category, with its size.
struct CategoriesPage {
    static let template = "categories"

    func walk(_ data: PageData, into walk: inout some PageWalk) {
        let page = Page.categories
        let title = data.theme.strings.text("categories")
        data.addSite(page, title: .text(title), into: &walk)
        data.addCategories(page, into: &walk)
        data.addTotals(page, into: &walk)
        data.addGroupsData(
            page, groups: data.groups(.categories, isSized: false), title: title,
            into: &walk)
        data.addFeeds(page, into: &walk)
    }
}
