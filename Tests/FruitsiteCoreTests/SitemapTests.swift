import Foundation
import Testing

@testable import FruitsiteCore

/// The sitemap's order, and how one too long for a file is cut into a sitemap index and parts.
@Suite struct SitemapTests {
    /// Fruits named out of their slugs' order, each in a category of its own.
    static let fruits: [(slug: Substring, date: EntryDate?, presence: Translations.Presence)] = [
        ("zucchini", nil), ("apple", EntryDate(seconds: 86_400)), ("mango", nil),
        ("banana", nil), ("cherry", nil),
    ].map { ($0, $1, Translations.Presence()) }

    static func categories(_ names: [String]) -> [FruitGroup] {
        names.enumerated().map { index, name in
            var category = FruitGroup(name: name, key: Collation.root.key(name))
            category.positions = [CatalogPosition(index)]
            return category
        }
    }

    static func addresses(in xml: [UInt8]) -> [String] {
        String(decoding: xml, as: UTF8.self).components(separatedBy: "<loc>").dropFirst().map {
            String($0.prefix { $0 != "<" })
        }
    }

    @Test func listsTheIndexThenFruitsBySlugThenListings() {
        var config = SiteConfig()
        config.pageSize = 2
        config.baseURL = "https://example.org/"
        let builder = SitemapBuilder(config: config)
        let locations = builder.locations(
            fruits: Self.fruits, count: Self.fruits.count,
            categories: Self.categories(["Gourds", "Pomes"]))
        #expect(
            Self.addresses(in: builder.sitemap(locations))
                == [
                    "", "page/2/", "page/3/", "fruits/apple/", "fruits/banana/", "fruits/cherry/",
                    "fruits/mango/", "fruits/zucchini/", "categories/gourds/", "categories/pomes/",
                ].map { "https://example.org/" + $0 })
        #expect(
            String(decoding: builder.sitemap(locations), as: UTF8.self).contains(
                "<loc>https://example.org/fruits/apple/</loc><lastmod>1970-01-02T00:00:00Z</lastmod>"
            ))
    }

    /// At the limit one file holds every address; one more, and `sitemap.xml` is an index of
    /// parts that hold them all, in order, none past the limit.
    @Test(arguments: [5, 10, 3, 1])
    func aSitemapPastTheLimitIsCutIntoParts(limit: Int) throws {
        var config = SiteConfig()
        config.baseURL = "https://example.org/shop/"
        var builder = SitemapBuilder(config: config)
        builder.urlLimit = limit
        let locations = builder.locations(
            fruits: Self.fruits, count: Self.fruits.count, categories: Self.categories(["A"]))
        let whole = Self.addresses(in: SitemapBuilder(config: config).sitemap(locations))
        #expect(whole.count == 7)
        let sitemap = builder.sitemap(locations)
        let parts = SitemapBuilder.partCount(of: locations.count, limit: limit)
        guard parts > 1 else {
            #expect(Self.addresses(in: sitemap) == whole)
            return
        }
        let text = String(decoding: sitemap, as: UTF8.self)
        #expect(
            text.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"))
        #expect(
            Self.addresses(in: sitemap)
                == (1...parts).map { "https://example.org/shop/sitemap\($0).xml" })
        #expect(parts == (whole.count + limit - 1) / limit)
        var listed: [String] = []
        for part in 1...parts {
            let addresses = Self.addresses(in: builder.part(part, of: locations))
            #expect(addresses.count <= limit && !addresses.isEmpty)
            listed += addresses
        }
        #expect(listed == whole)
        #expect(try FeedTests.parseXML(text).name == "sitemapindex")
        let last = String(decoding: builder.part(parts, of: locations), as: UTF8.self)
        #expect(try FeedTests.parseXML(last).name == "urlset")
    }

    @Test func theSiteHasAPagePerPartPastTheProtocolsLimit() {
        #expect(SitemapBuilder.partCount(of: 50_000) == 1)
        #expect(SitemapBuilder.partCount(of: 50_001) == 2)
        #expect(SitemapBuilder.partCount(of: 1_000_000 + 10_000) == 21)
        let model = SiteModel(
            settings: .init(contentDirectory: "C", includesDrafts: false, facets: []))
        #expect(Page.sitemapPart(2).path(in: model) == "sitemap2.xml")
    }
}
