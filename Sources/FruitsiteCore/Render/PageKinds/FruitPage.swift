/// A fruit's page (`fruits/<slug>/`): the fruit whole, its neighbours in catalog order and
/// its category.
struct FruitPage {
    static let template = "fruit"
    let position: CatalogPosition

    func walk(
        _ data: PageData, details: PageData.Details, into walk: inout some PageWalk
    ) {
        let page = Page.fruit(position: position)
        let named = data.fruit(at: position, as: .decoded)
        data.addSite(page, title: .fruit(named), into: &walk)
        walk.add(.fruit, data.wholeFruit(at: position)) { fruit throws(BuildFailure) in
            let details = try details(data.model.id(at: fruit.position))
            return ["fruit": data.value(of: fruit, details: details)]
        }
        walk.add(.neighbours, data.neighbours(of: position)) { neighbours in
            [
                "previous": data.summary(ofFruitAt: neighbours.previous, root: PageData.nestedRoot),
                "next": data.summary(ofFruitAt: neighbours.next, root: PageData.nestedRoot),
            ]
        }
        let category = Int(data.categoryOfPosition[position.rawValue])
        let isSized = walk.shows(.categorySize)
        walk.add(.category, data.group(.categories, category, isSized: isSized)) {
            ["category": data.summary(of: $0, root: PageData.nestedRoot)]
        }
        data.addCategories(page, into: &walk)
        data.addTotals(page, into: &walk)
        let group = data.group(.categories, category, isSized: false)
        walk.add(.structuredData, data.siteRead, group, named) { site, category, fruit in
            let site = data.settings(of: site)
            let links = StructuredData.Links(site: site, root: PageData.nestedRoot)
            let listed = data.listed(at: fruit.position)
            let link = links.link(BidiIsolation.isolated(listed.name), "fruits/\(listed.slug)/")
            var json = StructuredData()
            json.addBreadcrumbs([links.link(site.title, ""), data.link(to: category, links), link])
            json.addThing(
                link,
                image: listed.image.map { image in
                    links.base
                        + PictureValues.preview(
                            of: PicturePlan(image, settings: data.config.images)
                        ).path
                })
            return ["structuredData": json.value]
        }
        data.addFeeds(page, into: &walk)
    }
}
