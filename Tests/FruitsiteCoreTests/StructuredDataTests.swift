import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// Link previews and schema.org data: every page's Open Graph tags, and JSON-LD that parses
/// as JSON with the types, positions and addresses expected.
@Suite struct StructuredDataTests {
    /// The sample site built with `config`, and its languages, into a temporary folder.
    static func build(config: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try folder.write("fruitsite.yml", try Sample.config(after: config))
        var options = BuildOptions()
        options.contentDirectory = repositoryRoot + "/Content"
        options.templatesDirectory = repositoryRoot + "/Templates"
        options.outputDirectory = folder.path + "/Output"
        options.configPath = folder.path + "/fruitsite.yml"
        _ = try SiteBuilder(options: options).build()
        return folder
    }

    /// The JSON-LD blocks of an HTML page, parsed.
    static func structuredData(in html: String) throws -> [[String: Any]] {
        let opening = #"<script type="application/ld+json">"#
        return try html.components(separatedBy: opening).dropFirst().map { block in
            let json = try #require(block.components(separatedBy: "</script>").first)
            return try #require(
                try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        }
    }

    /// The objects of a JSON-LD block: itself, or its `@graph`.
    static func objects(_ block: [String: Any]) -> [[String: Any]] {
        (block["@graph"] as? [[String: Any]]) ?? [block]
    }

    static func items(_ object: [String: Any]) -> [[String: Any]] {
        object["itemListElement"] as? [[String: Any]] ?? []
    }

    @Test func fruitPagesHaveBreadcrumbsWithAbsoluteAddresses() throws {
        let site = try Self.build(config: "baseURL: https://example.org/shop/\npageSize: 5\n")
        defer { site.remove() }
        let html = try site.read("Output/fruits/apple/index.html")
        let blocks = try Self.structuredData(in: html)
        #expect(blocks.count == 1)
        #expect(blocks[0]["@context"] as? String == "https://schema.org")
        let trail = try #require(Self.objects(blocks[0]).first)
        #expect(trail["@type"] as? String == "BreadcrumbList")
        let items = Self.items(trail)
        #expect(items.map { $0["position"] as? Int } == [1, 2, 3])
        // The fruit itself, with its photo's variant for previews, as og:image names it.
        let thing = try #require(Self.objects(blocks[0]).last)
        #expect(thing["@type"] as? String == "Thing")
        #expect(thing["name"] as? String == "Apple")
        #expect(thing["url"] as? String == "https://example.org/shop/fruits/apple/")
        let image = try #require(thing["image"] as? String)
        #expect(
            image.hasPrefix("https://example.org/shop/images/apple-1280.")
                && image.hasSuffix(".jpg"))
        #expect(html.contains(#"<meta property="og:image" content="\#(image)">"#))
        #expect(html.contains(#"<meta name="twitter:card" content="summary_large_image">"#))
        #expect(items.map { $0["name"] as? String } == ["Fruit Catalog", "Core Fruits", "Apple"])
        #expect(
            items.map { $0["item"] as? String } == [
                "https://example.org/shop/", "https://example.org/shop/categories/core-fruits/",
                "https://example.org/shop/fruits/apple/",
            ])
        #expect(html.contains(#"<meta property="og:type" content="article">"#))
        #expect(html.contains(#"<meta property="og:title" content="Apple">"#))
        #expect(
            html.contains(
                #"<meta property="og:url" content="https://example.org/shop/fruits/apple/">"#))
        // A fruit without a photo has a summary card, and no og:image.
        let pear = try site.read("Output/fruits/asian-pear/index.html")
        #expect(pear.contains(#"<meta name="twitter:card" content="summary">"#))
        #expect(!pear.contains("og:image"))
    }

    @Test func listingPagesListTheirFruitsFromTheirPlace() throws {
        let site = try Self.build(config: "pageSize: 5\n")
        defer { site.remove() }
        // The second page of a category: breadcrumbs, then its fruits from the sixth on.
        let category = try site.read("Output/categories/berries/page/2/index.html")
        let graph = try Self.objects(#require(Self.structuredData(in: category).first))
        #expect(graph.map { $0["@type"] as? String } == ["BreadcrumbList", "ItemList"])
        #expect(
            Self.items(graph[0]).map { $0["item"] as? String } == [
                "../../../../", "../../../../categories/berries/",
            ])
        let listed = Self.items(graph[1])
        #expect(listed.first?["position"] as? Int == 6)
        #expect(
            listed.allSatisfy { ($0["url"] as? String)?.hasPrefix("../../../../fruits/") == true })
        #expect(category.contains(#"<meta property="og:type" content="website">"#))
        #expect(!category.contains("og:url"), "no base URL, no absolute address")

        // The index's first page: its five fruits, at the root.
        let index = try site.read("Output/index.html")
        let list = try Self.objects(#require(Self.structuredData(in: index).first))
        #expect(list.map { $0["@type"] as? String } == ["ItemList"])
        #expect(Self.items(list[0]).map { $0["position"] as? Int } == [1, 2, 3, 4, 5])
        // Açaí sorts with "a", before Apple.
        #expect(Self.items(list[0]).first?["url"] as? String == "fruits/acai/")

        #expect(try Self.structuredData(in: site.read("Output/404.html")).isEmpty)
    }
}
