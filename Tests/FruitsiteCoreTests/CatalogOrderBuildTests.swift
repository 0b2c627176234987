import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// A built site lists its catalog in the alphabetical order of its `language`, on its pages,
/// in its search index and in `fruitsite search`; another language sorts it again.
@Suite struct CatalogOrderBuildTests {
    static let entries = [
        (slug: "zitron", front: "name: Zitron\ncategory: Citrus"),
        (slug: "akerbar", front: "name: Åkerbär\ncategory: Äpplen"),
        (slug: "apelsin", front: "name: Apelsin\ncategory: Citrus"),
        (slug: "ostron", front: "name: Östron\ncategory: Bär"),
    ]

    /// The names the index page's cards show, in order.
    static func cardNames(_ site: TemporaryDirectory) throws -> [String] {
        try site.read("Output/index.html").matches(of: /class="card-name">([^<]*)</).map {
            String($0.1)
        }
    }

    /// The names of the single search index's records, in order.
    static func indexNames(_ site: TemporaryDirectory) throws -> [String] {
        let files = try FileManager.default.contentsOfDirectory(atPath: site.path + "/Output")
        let file = try #require(files.first { $0.hasPrefix("search-index.") })
        let index = try #require(
            try JSONSerialization.jsonObject(with: Data(site.read("Output/\(file)").utf8))
                as? [String: Any])
        let fruits = try #require(index["fruits"] as? [[String: Any]])
        return fruits.compactMap { $0["name"] as? String }
    }

    @Test func theLanguageOrdersPagesSearchAndTheCommandLine() throws {
        var (site, options) = try temporarySite(config: "language: en\n", entries: Self.entries)
        defer { site.remove() }
        options.cacheDirectory = site.path + "/.cache"
        _ = try SiteBuilder(options: options).build()
        let english = ["Åkerbär", "Apelsin", "Östron", "Zitron"]
        #expect(try Self.cardNames(site) == english)
        #expect(try Self.indexNames(site) == english)
        #expect(try site.read("Output/index.html").contains(#"<option value="Äpplen">"#))

        try site.write("fruitsite.yml", "language: sv\n")
        let swedish = try SiteBuilder(options: options).build()
        #expect(swedish.notes == ["building clean: the saved model was built for another language"])
        let order = ["Apelsin", "Zitron", "Åkerbär", "Östron"]
        #expect(try Self.cardNames(site) == order)
        #expect(try Self.indexNames(site) == order)
        let builder = SiteBuilder(options: options)
        let catalog = try #require(builder.loadCatalog(config: builder.loadConfig().config).catalog)
        #expect(catalog.fruits.map(\.name) == order)
        #expect(catalog.categoryNames == ["Bär", "Citrus", "Äpplen"])
    }
}
