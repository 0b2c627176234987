/// `404.html`, which a server shows at any address the site does not have.
struct NotFoundPage {
    static let template = "404"

    func walk(_ data: PageData, into walk: inout some PageWalk) {
        let page = Page.notFound
        data.addSite(page, title: .text(data.theme.strings.text("notFoundTitle")), into: &walk)
        data.addCategories(page, into: &walk)
        data.addTotals(page, into: &walk)
        data.addFeeds(page, into: &walk)
    }
}
