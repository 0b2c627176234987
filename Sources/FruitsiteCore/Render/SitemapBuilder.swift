/// Builds `sitemap.xml` and `robots.txt`.
struct SitemapBuilder {
    var config: SiteConfig

    /// The sitemap. Its URLs are absolute when a base URL is configured, else relative to
    /// the site root (search engines need the base URL to use them).
    /// - Parameters:
    ///   - fruits: The fruits' slugs and dates, in catalog order; a fruit's date is its
    ///     page's `lastmod`.
    ///   - categories: The categories, in catalog order.
    ///   - facets: Each facet's key and values, whose pages follow the categories'.
    func sitemap(
        fruits: some Collection<(slug: Substring, date: EntryDate?)>, categories: [Category],
        facets: [(key: String, values: [Category])] = []
    ) -> [UInt8] {
        var xml: [UInt8] = []
        xml.reserveCapacity((fruits.count + categories.count) * 64 + 256)
        xml +=
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """.utf8
        let base = Array(MarkupText.escaped(config.baseURL).utf8)
        func add(
            _ folder: String, _ slug: some StringProtocol, page number: Int = 1,
            date: EntryDate? = nil
        ) {
            // Appended piece by piece: a string made for each URL cost more than the rest.
            xml += "  <url><loc>".utf8
            if base.isEmpty && folder.isEmpty && number == 1 { xml += "./".utf8 }
            xml += base
            if !folder.isEmpty {
                xml += folder.utf8
                xml.append(UInt8(ascii: "/"))
                xml += MarkupText.escaped(String(slug)).utf8
                xml.append(UInt8(ascii: "/"))
            }
            xml += Pagination.address(of: number).utf8
            xml += "</loc>".utf8
            if let date {
                xml += "<lastmod>".utf8
                xml += date.timestamp.utf8
                xml += "</lastmod>".utf8
            }
            xml += "</url>\n".utf8
        }
        // Every page of every listing: page 1 at the listing's address, then `page/2/` ….
        let pagination = Pagination(pageSize: config.pageSize)
        for number in 1...pagination.pageCount(of: fruits.count) {
            add("", "", page: number)
        }
        for (slug, date) in fruits { add("fruits", slug, date: date) }
        let listings = [("categories", categories)] + facets.map { ($0.key, $0.values) }
        for (folder, groups) in listings {
            for group in groups {
                for number in 1...pagination.pageCount(of: group.fruitIndexes.count) {
                    add(folder, group.slug, page: number)
                }
            }
        }
        xml += "</urlset>\n".utf8
        return xml
    }

    /// `robots.txt`, which names the sitemap when a base URL is configured.
    func robots() -> String {
        var robots = "User-agent: *\nAllow: /\n"
        if !config.baseURL.isEmpty { robots += "Sitemap: \(config.baseURL)sitemap.xml\n" }
        return robots
    }
}
