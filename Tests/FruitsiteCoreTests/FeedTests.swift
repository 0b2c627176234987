import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `date` key, the Atom feed and the JSON Feed, and the sitemap's `lastmod`.
@Suite struct FeedTests {
    // MARK: - Dates

    @Test(arguments: [
        ("2024-05-01", "2024-05-01T00:00:00Z"),
        ("2024-5-1T09:30:00Z", "2024-05-01T09:30:00Z"),
        ("2024-05-01t09:30:00z", nil),
        ("2024-05-01 09:30:00 +02:00", "2024-05-01T07:30:00Z"),
        ("2024-05-01T00:30:00-05", "2024-05-01T05:30:00Z"),
        ("2024-05-01T23:59:59.999+00:00", "2024-05-01T23:59:59Z"),
        ("2024-05-01T01:00:00+02:00", "2024-04-30T23:00:00Z"),
        ("2024-02-29", "2024-02-29T00:00:00Z"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
        ("1900-03-01", "1900-03-01T00:00:00Z"),
        ("2024-05-01T09:30:00", "2024-05-01T09:30:00Z"),
        ("0001-01-01T01:02:03Z", "0001-01-01T01:02:03Z"),
        ("0000-03-01", nil),
        ("0001-01-01T00:30:00+01:00", nil),
        ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
    ])
    func readsYAMLTimestamps(text: String, timestamp: String?) {
        #expect(EntryDate(yaml: text)?.timestamp == timestamp, "\(text)")
    }

    @Test(arguments: [
        "", "2024", "2024-05", "2024-5-1", "2023-02-29", "1900-02-29", "2024-13-01",
        "2024-04-31", "2024-05-01T24:00:00Z", "2024-05-01T09:60:00Z", "2024-05-01T09:30Z",
        "2024-05-01T09:30:00+25:00", "2024-05-01 morning", "May 1, 2024", "20240501",
        "2024-05-01T09:30:00Zulu", "+2024-05-01",
    ])
    func rejectsWhatIsNotADate(text: String) {
        #expect(EntryDate(yaml: text) == nil, "\(text)")
    }

    @Test func theDateIsReadFromTheFrontMatter() throws {
        let dated = parse("---\nname: Apple\ncategory: Core\ndate: 2024-05-01\n---\n")
        #expect(dated.diagnostics.isEmpty)
        #expect(dated.fruit?.date?.day == "2024-05-01")
        // Quoted, as many users write it.
        let quoted = parse("---\nname: Apple\ncategory: Core\ndate: \"2024-05-01\"\n---\n")
        #expect(quoted.fruit?.date == dated.fruit?.date)
        #expect(parse("---\nname: Apple\ncategory: Core\n---\n").fruit?.date == nil)
    }

    @Test(arguments: ["date: 2024-13-01", "date: yesterday", "date: [2024-05-01]", "date: 12"])
    func aBadDateIsAnErrorAtItsValue(line: String) throws {
        let result = parse("---\nname: Apple\ncategory: Core\n\(line)\n---\n")
        #expect(result.fruit == nil)
        let error = try #require(result.diagnostics.first)
        #expect(error.isError)
        #expect(error.location.line == 4 && error.location.column == 7)
        #expect(error.message.contains("'date' must be a date like 2024-05-01"))
    }

    // MARK: - Feeds

    /// A site of fruits, some dated, built into a temporary folder.
    static func build(
        config: String, fruits: [(slug: String, front: String)] = Self.fruits,
        body: String = "See [the fig](fruit:fig).\n"
    ) throws -> (TemporaryDirectory, SiteBuilder.Rendering) {
        let (folder, options) = try temporarySite(config: config, entries: fruits, body: body)
        return (folder, try SiteBuilder(options: options).build())
    }

    /// A name that closes elements and scripts, and a tagline with markup.
    static let hostile = #"Fig </script><b>"&'</title>"#

    static let fruits: [(slug: String, front: String)] = [
        ("apple", "name: Apple\ncategory: Core Fruits\ndate: 2024-05-01"),
        ("banana", "name: Banana\ncategory: Tropical\ndate: 2024-06-01T12:00:00+02:00"),
        ("cherry", "name: Cherry\ncategory: Stone Fruits\ndate: 2024-06-01T10:00:00Z"),
        ("date", "name: Date\ncategory: Tropical"),
        (
            "fig",
            "name: '\(hostile.replacing("'", with: "''"))'\ncategory: Core Fruits\ndate: 2023-01-01\ntagline: <i>soft</i>"
        ),
        ("grape", "name: Grape\ncategory: Core Fruits\ndate: 2024-06-01T10:00:00Z"),
    ]

    /// An XML document's elements as a tree, with FoundationXML's parser.
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        func all(_ name: String) -> [Element] { children.filter { $0.name == name } }

        func one(_ name: String) throws -> Element {
            let found = all(name)
            try #require(found.count == 1, "\(self.name) has \(found.count) <\(name)>")
            return found[0]
        }
    }

    final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [Element] = [Element(name: "", attributes: [:])]
        var error: Error?

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            let element = Element(name: name, attributes: attributes)
            stack.last!.children.append(element)
            stack.append(element)
        }

        func parser(
            _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
            qualifiedName: String?
        ) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last!.text += string
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            error = parseError
        }
    }

    static func parseXML(_ text: String) throws -> Element {
        let parser = XMLParser(data: Data(text.utf8))
        let builder = TreeBuilder()
        parser.delegate = builder
        #expect(parser.parse(), "\(String(describing: builder.error))")
        return try #require(builder.stack.first?.children.first)
    }

    static func isRFC3339(_ text: String) -> Bool {
        text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/) != nil
    }

    /// What RFC 4287 requires of a feed and its entries, element by element.
    static func checkAtom(_ feed: Element) throws -> [Element] {
        #expect(feed.name == "feed")
        let feedElements: Set = [
            "author", "category", "contributor", "generator", "icon", "logo", "id", "link",
            "rights", "subtitle", "title", "updated", "entry",
        ]
        let entryElements: Set = [
            "author", "category", "content", "contributor", "id", "link", "published", "rights",
            "source", "summary", "title", "updated",
        ]
        #expect(feed.children.allSatisfy { feedElements.contains($0.name) })
        for entry in feed.all("entry") {
            #expect(entry.children.allSatisfy { entryElements.contains($0.name) })
            for text in entry.children where ["title", "summary", "rights"].contains(text.name) {
                #expect(["text", "html", "xhtml", nil].contains(text.attributes["type"]))
            }
        }
        for link in feed.all("link") + feed.all("entry").flatMap({ $0.all("link") }) {
            #expect(link.attributes["href"].flatMap(URL.init(string:))?.scheme == "https")
        }
        #expect(feed.attributes["xmlns"] == "http://www.w3.org/2005/Atom")
        for name in ["id", "title", "updated"] { _ = try feed.one(name) }
        #expect(isRFC3339(try feed.one("updated").text))
        let selfLinks = feed.all("link").filter { $0.attributes["rel"] == "self" }
        #expect(selfLinks.count == 1)
        let entries = feed.all("entry")
        // Every entry needs an author: the feed's serves them all.
        #expect(try !feed.one("author").one("name").text.isEmpty)
        for entry in entries {
            for name in ["id", "title", "updated", "published", "summary", "content"] {
                _ = try entry.one(name)
            }
            #expect(isRFC3339(try entry.one("updated").text))
            let alternate = entry.all("link").filter { $0.attributes["rel"] == "alternate" }
            #expect(alternate.count == 1)
            #expect(URL(string: try entry.one("id").text)?.scheme == "https")
            #expect(try entry.one("content").attributes["type"] == "html")
        }
        return entries
    }

    @Test func writesAnAtomFeedOfTheNewestFruits() throws {
        let (site, _) = try Self.build(config: "baseURL: https://example.org/shop/\n")
        defer { site.remove() }
        let feed = try Self.parseXML(site.read("Output/feed.xml"))
        let entries = try Self.checkAtom(feed)
        // Newest first; fruits of the same moment in catalog order; the undated one left out.
        #expect(
            try entries.map { try $0.one("title").text } == [
                "Banana", "Cherry", "Grape", "Apple", Self.hostile,
            ])
        #expect(try feed.one("updated").text == "2024-06-01T10:00:00Z")
        #expect(try feed.one("id").text == "https://example.org/shop/feed.xml")
        let fig = entries[4]
        #expect(try fig.one("id").text == "https://example.org/shop/fruits/fig/")
        #expect(try fig.one("summary").text == "<i>soft</i>")
        #expect(try fig.one("category").attributes["term"] == "Core Fruits")
        // The body's links are relative to the fruit's page, which `xml:base` names.
        let content = try fig.one("content")
        #expect(content.attributes["xml:base"] == "https://example.org/shop/fruits/fig/")
        #expect(content.text.contains(#"<a href="../../fruits/fig/">the fig</a>"#))
    }

    /// Names in several scripts and emoji: every Atom feed is ASCII bytes, each other
    /// character a reference, so that a server sending `text/xml` without a charset, which
    /// RFC 3023 reads as US-ASCII, serves it right; read as XML it gives back the text.
    @Test func anAtomFeedIsASCIIAndGivesBackEveryScript() throws {
        #expect(MarkupText.asciiEscaped("a<🍎é>") == "a&lt;&#x1F34E;&#xE9;&gt;")
        let names = ["Äpfel", "Яблоко", "りんご", "תפוח", "🍎 Crisp", "👩🏽‍🌾 Farmer's 🇯🇵"]
        let (tagline, category) = ("Süß — 甘い 😋", "Früchte 🍇")
        let fruits = names.enumerated().map { index, name in
            (
                "f\(index)",
                "name: '\(name.replacing("'", with: "''"))'\ncategory: \(category)\n"
                    + "date: 2024-05-0\(index + 1)\ntagline: \(tagline)"
            )
        }
        let (title, description) = ("Obst · 果物 🍉", "Ὀπῶραι καὶ ﷺ")
        let (site, _) = try Self.build(
            config: "baseURL: https://example.org/\ntitle: \(title)\ndescription: \(description)\n",
            fruits: fruits, body: "Crème brûlée 🍮, 한국어.\n")
        defer { site.remove() }
        let feeds = filesBelow(site.path + "/Output").filter { $0.hasSuffix("feed.xml") }
        #expect(feeds.count == 2, "\(feeds)")
        for path in feeds {
            let bytes = try #require(
                FileManager.default.contents(atPath: site.path + "/Output/" + path))
            #expect(bytes.allSatisfy { $0 < 0x80 }, "\(path) has bytes outside ASCII")
        }
        let feed = try Self.parseXML(site.read("Output/feed.xml"))
        let entries = try Self.checkAtom(feed)
        #expect(try entries.map { try $0.one("title").text } == names.reversed())
        #expect(try feed.one("title").text == title)
        #expect(try feed.one("subtitle").text == description)
        for entry in entries {
            #expect(try entry.one("category").attributes["term"] == category)
            #expect(try entry.one("summary").text == tagline)
            #expect(try entry.one("content").text == "<p>Crème brûlée 🍮, 한국어.</p>\n")
        }
    }

    /// The site's JSON Feed, as a dictionary.
    static func jsonFeed(in site: TemporaryDirectory) throws -> [String: Any] {
        let data = try #require(
            FileManager.default.contents(atPath: site.path + "/Output/feed.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func writesAJSONFeedWithEveryRequiredField() throws {
        let (site, _) = try Self.build(config: "baseURL: https://example.org/\nfeed: {limit: 2}\n")
        defer { site.remove() }
        let feed = try Self.jsonFeed(in: site)
        #expect(feed["version"] as? String == "https://jsonfeed.org/version/1.1")
        #expect(feed["title"] as? String == "Fruit Catalog")
        #expect(feed["feed_url"] as? String == "https://example.org/feed.json")
        #expect(feed["home_page_url"] as? String == "https://example.org/")
        let items = try #require(feed["items"] as? [[String: Any]])
        #expect(items.map { $0["title"] as? String } == ["Banana", "Cherry"])
        for item in items {
            #expect(item["id"] is String && item["content_html"] is String)
            #expect(Self.isRFC3339(item["date_published"] as? String ?? ""))
        }
        #expect(items[0]["url"] as? String == "https://example.org/fruits/banana/")
        #expect(items[0]["tags"] as? [String] == ["Tropical"])
    }

    /// JSON Feed has no `xml:base`: a body's relative links are made absolute from the
    /// fruit's page, under the base URL's path.
    @Test func aJSONFeedsBodyLinksAreAbsolute() throws {
        let (site, _) = try Self.build(config: "baseURL: https://example.org/sub/\n")
        defer { site.remove() }
        let feed = try Self.jsonFeed(in: site)
        let items = try #require(feed["items"] as? [[String: Any]])
        let html = try #require(items.first?["content_html"] as? String)
        #expect(html.contains(#"href="https://example.org/sub/fruits/fig/""#), "\(html)")

        // Images, fragments and a host without a scheme too; links with a scheme stay as
        // written.
        let body =
            ##"<a href="pic/">p</a><img src="pic.png" alt=""><a href="#zest">z</a>"##
            + ##"<a href="https://e.org/x">e</a><a href="//cdn.org/y">c</a><a href="mailto:a@b.c">m</a>"##
        #expect(
            Feed.absoluteLinks(in: body, from: "https://example.org/sub/fruits/apple/")
                == ##"<a href="https://example.org/sub/fruits/apple/pic/">p</a>"##
                + ##"<img src="https://example.org/sub/fruits/apple/pic.png" alt="">"##
                + ##"<a href="https://example.org/sub/fruits/apple/#zest">z</a>"##
                + ##"<a href="https://e.org/x">e</a><a href="https://cdn.org/y">c</a>"##
                + ##"<a href="mailto:a@b.c">m</a>"##
        )
        // Only a tag's own href and src: not another attribute, nor text that reads like one.
        let raw = ##"<p data-href="x" HREF="y">text with href="t/" in it</p>"##
        #expect(
            Feed.absoluteLinks(in: raw, from: "https://example.org/a/")
                == ##"<p data-href="x" HREF="https://example.org/a/y">text with href="t/" in it</p>"##
        )
    }

    /// A tagline that YAML reads as a number is the summary, as it is the page's description.
    @Test func aNumberTaglineIsTheSummaryAsOnThePage() throws {
        var fruits = Self.fruits
        fruits[0].front += "\ntagline: 0x2A"
        let (site, _) = try Self.build(
            config: "baseURL: https://example.org/\n", fruits: fruits)
        defer { site.remove() }
        let items = try #require(Self.jsonFeed(in: site)["items"] as? [[String: Any]])
        let apple = try #require(items.first { $0["title"] as? String == "Apple" })
        #expect(apple["summary"] as? String == "42")
        #expect(
            try site.read("Output/fruits/apple/index.html").contains(
                #"<meta name="description" content="42">"#))
    }

    /// A tagline with no words (blank, or a value such as `true` or a list) is no tagline:
    /// the page and the feeds give the sentence instead, and the page shows no empty line.
    @Test(arguments: [#""""#, #"" ""#, "true", "[a, b]", "{k: v}"])
    func aTaglineWithoutWordsGivesTheSentence(tagline: String) throws {
        var fruits = Self.fruits
        fruits[0].front += "\ntagline: \(tagline)"
        let (site, _) = try Self.build(
            config: "baseURL: https://example.org/\n", fruits: fruits)
        defer { site.remove() }
        let sentence = "Apple, a fruit in the Core Fruits category."
        let items = try #require(Self.jsonFeed(in: site)["items"] as? [[String: Any]])
        let apple = try #require(items.first { $0["title"] as? String == "Apple" })
        #expect(apple["summary"] as? String == sentence)
        let page = try site.read("Output/fruits/apple/index.html")
        #expect(page.contains(#"<meta name="description" content="\#(sentence)">"#))
        #expect(!page.contains(#"class="tagline""#))
    }

    @Test func eachCategoryWithDatedFruitsHasFeedsThatItsPagesLink() throws {
        let (site, _) = try Self.build(config: "baseURL: https://example.org/\n")
        defer { site.remove() }
        let tropical = try Self.parseXML(site.read("Output/categories/tropical/feed.xml"))
        #expect(try Self.checkAtom(tropical).map { try $0.one("title").text } == ["Banana"])
        #expect(try tropical.one("title").text == "Tropical · Fruit Catalog")
        let page = try site.read("Output/categories/tropical/index.html")
        #expect(
            page.contains(
                #"<link rel="alternate" type="application/atom+xml" title="Tropical · Fruit Catalog" href="../../categories/tropical/feed.xml">"#
            ))
        #expect(
            page.contains(
                #"type="application/feed+json" title="Fruit Catalog (JSON Feed)" href="../../feed.json">"#
            ))
        let fruitPage = try site.read("Output/fruits/apple/index.html")
        #expect(fruitPage.contains(#"href="../../feed.xml">"#))
        #expect(fruitPage.contains(#"<time datetime="2024-05-01T00:00:00Z">May 1, 2024</time>"#))
    }

    @Test func withoutABaseURLNoFeedIsWrittenAndTheBuildSaysWhy() throws {
        let (site, rendering) = try Self.build(config: "title: Fruits\n")
        defer { site.remove() }
        #expect(!FileManager.default.fileExists(atPath: site.path + "/Output/feed.xml"))
        #expect(!(try site.read("Output/index.html")).contains("rel=\"alternate\""))
        #expect(
            rendering.warnings.contains {
                $0.message.contains("feeds are written only with a baseURL")
            })
        let (silenced, quiet) = try Self.build(config: "feed: {limit: 0}\nsitemap: false\n")
        defer { silenced.remove() }
        #expect(quiet.warnings.isEmpty)
    }

    @Test func noDatesNoFeedsNoWarning() throws {
        let undated = Self.fruits.map { ($0.slug, $0.front.replacing(/\ndate: .*/, with: "")) }
        let (site, rendering) = try Self.build(
            config: "baseURL: https://example.org/\n", fruits: undated)
        defer { site.remove() }
        #expect(rendering.warnings.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: site.path + "/Output/feed.json"))
        #expect(!(try site.read("Output/sitemap.xml")).contains("lastmod"))
    }

    @Test func theSitemapGivesEachDatedFruitPageItsLastmod() throws {
        let (site, _) = try Self.build(config: "baseURL: https://example.org/\n")
        defer { site.remove() }
        let sitemap = try site.read("Output/sitemap.xml")
        #expect(
            sitemap.contains(
                "<url><loc>https://example.org/fruits/banana/</loc><lastmod>2024-06-01T10:00:00Z</lastmod></url>"
            ))
        #expect(sitemap.contains("<url><loc>https://example.org/fruits/date/</loc></url>"))
        _ = try Self.parseXML(sitemap)
    }

    @Test(arguments: ["feed: 20", "feed: {limit: -1}", "feed: {limit: many}", "feed: {size: 3}"])
    func badFeedConfigIsAnErrorAtItsLine(config: String) throws {
        #expect(throws: BuildFailure.self) {
            _ = try SiteConfig(yaml: "title: Fruits\n" + config + "\n", path: "fruitsite.yml")
        }
        do {
            _ = try SiteConfig(yaml: "title: Fruits\n" + config + "\n", path: "fruitsite.yml")
        } catch {
            #expect(error.diagnostics.allSatisfy { $0.location.line == 2 })
        }
    }

    @Test func feedsDoNotDependOnWhenOrWhereTheyAreBuilt() throws {
        let (first, _) = try Self.build(config: "baseURL: https://example.org/\n")
        defer { first.remove() }
        Thread.sleep(forTimeInterval: 1.1)
        let (second, _) = try Self.build(config: "baseURL: https://example.org/\n")
        defer { second.remove() }
        for file in ["feed.xml", "feed.json", "categories/core-fruits/feed.xml", "sitemap.xml"] {
            #expect(try first.read("Output/" + file) == second.read("Output/" + file), "\(file)")
        }
    }
}
