/// Builds the sitemap and `robots.txt`.
///
/// The sitemap lists every page of the index, every fruit's page in the order of their slugs,
/// then every page of each category and of each facet's values. Slug order, not catalog order,
/// so that a fruit renamed in place leaves it as it was. Up to `urlLimit` addresses it is one
/// `sitemap.xml`; past that (the sitemaps.org protocol allows 50,000 a file) `sitemap.xml` is a
/// sitemap index naming `sitemap1.xml`, `sitemap2.xml` …, each holding `urlLimit` addresses but
/// the last.
///
/// A site in several languages has one sitemap index, the root's `sitemap.xml`, which names
/// every language's files (`sitemap1.xml`, `fr/sitemap1.xml` …); each address of a page that
/// other languages have too carries the same `hreflang` alternates as the page's head.
struct SitemapBuilder {
    /// The absolute URL of the site root, which every address starts with.
    var baseURL: String
    /// How the listings are cut into pages, each of which the sitemap lists.
    var pagination: Pagination
    /// The most addresses one sitemap file lists.
    var urlLimit = Self.protocolLimit
    /// The most addresses the sitemaps.org protocol allows in one file.
    static let protocolLimit = 50_000
    /// The site's languages, whose alternates each address carries; nil in a site of one.
    var translations: Translations?

    init(baseURL: String, pagination: Pagination, translations: Translations? = nil) {
        (self.baseURL, self.pagination) = (baseURL, pagination)
        self.translations = translations.flatMap { $0.isMultilingual ? $0 : nil }
    }

    init(config: SiteConfig) {
        self.init(baseURL: config.baseURL, pagination: Pagination(pageSize: config.pageSize))
    }

    /// One page the sitemap lists: a fruit's (`folder` is `fruits`), a page of a listing (the
    /// index has an empty folder and slug), or the categories' or a facet's page (an empty
    /// slug).
    struct Location: Sendable {
        var folder: String
        var slug: Substring
        var number = 1
        /// A fruit's date, its page's `lastmod`.
        var date: EntryDate?
        /// The languages that have the page too, which its alternates name.
        var presence = Translations.Presence()

        /// The page's address below its language's folder.
        var address: String {
            let folder = folder.isEmpty ? "" : slug.isEmpty ? folder + "/" : "\(folder)/\(slug)/"
            return folder + Pagination.address(of: number)
        }
    }

    /// Every page the sitemap lists, in its order.
    /// - Parameters:
    ///   - fruits: The fruits' slugs, dates and the languages that have them too, in any
    ///     order.
    ///   - categories: The categories, in catalog order.
    ///   - facets: Each facet's key and values, whose pages follow the categories'.
    ///   - listsFolders: Whether the categories' page (`categories/`) and each facet's
    ///     (`vitamins/`) are written, each before the pages of its groups.
    func locations(
        fruits: some Sequence<(slug: Substring, date: EntryDate?, presence: Translations.Presence)>,
        count: Int,
        categories: [FruitGroup], facets: [(key: String, values: [FruitGroup])] = [],
        listsFolders: (categories: Bool, facets: Bool) = (false, false)
    ) -> [Location] {
        var locations = (1...pagination.pageCount(of: count)).map {
            Location(folder: "", slug: "", number: $0)
        }
        let start = locations.count
        for (slug, date, presence) in fruits {
            locations.append(Location(folder: "fruits", slug: slug, date: date, presence: presence))
        }
        // Sorted through a buffer: sorting `locations[start...]` copies the slice first. The
        // fruits come in path order, which is nearly always slug order: checked first, since
        // sorting them even so cost 660 instructions a fruit.
        locations.withUnsafeMutableBufferPointer { locations in
            let isSorted = locations.indices.dropFirst(start + 1).allSatisfy {
                !UTF8Order.precedes(locations[$0].slug, locations[$0 - 1].slug)
            }
            if !isSorted { locations[start...].sort { UTF8Order.precedes($0.slug, $1.slug) } }
        }
        let listings =
            [("categories", categories, listsFolders.categories)]
            + facets.map { ($0.key, $0.values, listsFolders.facets) }
        for (folder, groups, hasPage) in listings {
            if hasPage && !groups.isEmpty { locations.append(Location(folder: folder, slug: "")) }
            for group in groups {
                for number in 1...pagination.pageCount(of: group.positions.count) {
                    locations.append(
                        Location(folder: folder, slug: Substring(group.slug), number: number))
                }
            }
        }
        return locations
    }

    /// How many files of addresses a sitemap of `count` addresses is cut into: 1 when
    /// `sitemap.xml` holds them all, else the number of files its index names.
    static func partCount(of count: Int, limit: Int = protocolLimit) -> Int {
        count <= limit ? 1 : (count + limit - 1) / limit
    }

    /// The address of the sitemap's file `part` (1-based) when it has more than one.
    static func path(ofPart part: Int) -> String {
        "sitemap\(part).xml"
    }

    /// `sitemap.xml`: every location, or when they are more than `urlLimit`, the index of the
    /// files that hold them. URLs are absolute, from the base URL, without which the site has
    /// no sitemap (`SiteConfig.hasSitemap`).
    func sitemap(_ locations: [Location]) -> [UInt8] {
        let parts = Self.partCount(of: locations.count, limit: urlLimit)
        guard parts > 1 else { return urlSet(locations[...]) }
        return Self.index(of: (1...parts).map { baseURL + Self.path(ofPart: $0) })
    }

    /// A sitemap index naming the sitemap files at the absolute URLs `files`.
    static func index(of files: [String]) -> [UInt8] {
        var xml: [UInt8] = []
        xml +=
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """.utf8
        for file in files {
            xml += "  <sitemap><loc>\(MarkupText.escaped(file))</loc></sitemap>\n".utf8
        }
        xml += "</sitemapindex>\n"
        return xml
    }

    /// The sitemap's file `part` (1-based) when it has more than one.
    func part(_ part: Int, of locations: [Location]) -> [UInt8] {
        let start = min((part - 1) * urlLimit, locations.count)
        return urlSet(locations[start..<min(start + urlLimit, locations.count)])
    }

    private func urlSet(_ locations: ArraySlice<Location>) -> [UInt8] {
        var xml: [UInt8] = []
        xml.reserveCapacity(locations.count * (translations == nil ? 64 : 400) + 256)
        xml += #"<?xml version="1.0" encoding="UTF-8"?>\#n"#.utf8
        xml += #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9""#.utf8
        if translations != nil { xml += #" xmlns:xhtml="http://www.w3.org/1999/xhtml""#.utf8 }
        xml += ">\n".utf8
        let base = Array(MarkupText.escaped(baseURL).utf8)
        // Each language's code and folder, escaped once for every alternate.
        let alternates = translations.map { translations in
            (
                codes: translations.languages.map { Array(MarkupText.escaped($0.code).utf8) },
                folders: translations.folderURLs.map { Array(MarkupText.escaped($0).utf8) }
            )
        }
        // Appended piece by piece: a string made for each URL cost more than the rest.
        var address: [UInt8] = []
        for location in locations {
            address.removeAll(keepingCapacity: true)
            if !location.folder.isEmpty {
                address += location.folder.utf8
                address.append(UInt8(ascii: "/"))
                var slug = location.slug
                if !slug.isEmpty {
                    slug.withUTF8 { MarkupText.append($0, to: &address) }
                    address.append(UInt8(ascii: "/"))
                }
            }
            address += Pagination.address(of: location.number).utf8
            xml += "  <url><loc>"
            xml += base
            xml += address
            xml += "</loc>"
            if let date = location.date {
                xml += "<lastmod>"
                xml += date.timestamp.utf8
                xml += "</lastmod>"
            }
            if let translations, let alternates, location.presence.has != 0 {
                translations.forEachAlternate(location.presence) { language, isXDefault, other in
                    xml += #"<xhtml:link rel="alternate" hreflang=""#.utf8
                    if isXDefault {
                        xml += "x-default".utf8
                    } else {
                        xml += alternates.codes[language]
                    }
                    xml += #"" href=""#.utf8
                    xml += alternates.folders[language]
                    // The language's own address, where it differs; else the location's.
                    if var other {
                        other.withUTF8 { MarkupText.append($0, to: &xml) }
                    } else {
                        xml += address
                    }
                    xml += #""/>"#.utf8
                }
            }
            xml += "</url>\n"
        }
        xml += "</urlset>\n"
        return xml
    }

    /// `robots.txt`, which names the sitemap's URL when the site has one.
    static func robots(sitemaps: [String]) -> String {
        var robots = "User-agent: *\nAllow: /\n"
        for sitemap in sitemaps { robots += "Sitemap: \(sitemap)\n" }
        return robots
    }
}
