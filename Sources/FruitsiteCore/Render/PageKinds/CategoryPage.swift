/// A page of a category (`categories/<slug>/`, `categories/<slug>/page/<n>/`): the category,
/// and the fruits of its page. Only the first page shows the category's size, so a fruit added
/// to the category renders only the pages whose fruits change.
struct CategoryPage {
    static let template = "category"
    /// The category's index in `SiteModel.categories`.
    let index: Int
    let number: Int

    /// The title of a category's pages before their numbers.
    static func title(of category: FruitGroup) -> String {
        BidiIsolation.isolated(category.name)
    }

    func walk(_ data: PageData, into walk: inout some PageWalk) {
        let page = Page.category(index, page: number)
        let root = data.root(of: page)
        let members = data.model.categories[index].positions
        let listing = members[data.pagination.range(of: number, in: members.count)]
        let title = Self.title(of: data.model.categories[index])
        // Its size on the first page, the page's number on a later one.
        let strings = data.theme.strings
        let description =
            number == 1
            ? strings.text("categoryDescription", count: members.count, ["category": title])
            : strings.text(
                "laterCategoryPageDescription",
                ["page": strings.number(number), "category": title])
        data.addSite(page, title: .text(title), description: description, into: &walk)
        walk.add(
            .category, data.group(.categories, index, isSized: number == 1),
            data.fruits(listing, as: .summary(from: root))
        ) { category, fruits in
            [
                "category": data.categoryPageValue(
                    category, fruits: data.summaries(of: fruits, root: root), root: root)
            ]
        }
        data.addPager(page, count: members.count, heading: title, into: &walk)
        data.addCategories(page, current: index, into: &walk)
        data.addTotals(page, into: &walk)
        data.addListingData(
            page, group: data.group(.categories, index, isSized: false), listing: listing,
            into: &walk)
        data.addFeeds(page, category: index, into: &walk)
    }
}
