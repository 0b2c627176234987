/// The categories' page (`categories/`): every category, with its size.
struct CategoriesPage {
    static let template = "categories"

    func walk(_ data: PageData, into walk: inout some PageWalk) {
        let page = Page.categories
        let strings = data.theme.strings
        let title = strings.text("categories")
        let description = strings.text(
            "categoriesDescription", count: data.model.categories.count,
            ["site": data.site.title])
        data.addSite(page, title: .text(title), description: description, into: &walk)
        data.addCategories(page, into: &walk)
        data.addTotals(page, into: &walk)
        data.addGroupsData(
            page, groups: data.groups(.categories, isSized: false), title: title,
            into: &walk)
        data.addFeeds(page, into: &walk)
    }
}
