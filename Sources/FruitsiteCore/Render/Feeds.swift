import Foundation

/// The site's feeds: which exist, and which fruits each lists.
///
/// A feed lists the most recently added fruits (those whose entries have a `date`), newest
/// first, at most `feed.limit`; fruits added at the same moment keep their catalog order. The
/// site has a feed when any fruit has a date and a base URL is configured (feeds need
/// absolute URLs), and so does each category with a dated fruit.
struct Feeds: Sendable {
    /// The fruits of the site-wide feed, as catalog positions, newest first.
    let site: [CatalogPosition]
    /// The fruits of each category's feed, by index in `SiteModel.categories`; empty for a
    /// category without dated fruits, and for every category when there are no feeds.
    let categories: [[CatalogPosition]]
    /// Whether fruits have dates but no feed is written for want of a base URL.
    let lackBaseURL: Bool

    /// - Parameters:
    ///   - positions: `model.positions`.
    ///   - categoryOfPosition: The index in `model.categories` of each catalog position's
    ///     category, as `PageData` has it.
    init(
        model: SiteModel, config: SiteConfig, positions: SiteModel.Positions,
        categoryOfPosition: [Int32]
    ) {
        var dated: [(date: EntryDate, position: CatalogPosition)] = []
        for id in model.entries.ids {
            if let position = positions[id], let date = model[id].date {
                dated.append((date, position))
            }
        }
        lackBaseURL = !dated.isEmpty && config.baseURL.isEmpty && config.feedLimit > 0
        guard !config.baseURL.isEmpty, config.feedLimit > 0 else {
            (site, categories) = ([], Array(repeating: [], count: model.categories.count))
            return
        }
        dated.sort { $0.date != $1.date ? $0.date > $1.date : $0.position < $1.position }
        site = dated.prefix(config.feedLimit).map(\.position)
        var categories = [[CatalogPosition]](repeating: [], count: model.categories.count)
        for (_, position) in dated {
            let category = Int(categoryOfPosition[position.rawValue])
            if categories[category].count < config.feedLimit {
                categories[category].append(position)
            }
        }
        self.categories = categories
    }

    /// The fruits of the feed of a category (by index), or of the site (nil).
    func fruits(of category: Int?) -> [CatalogPosition] {
        category.map { categories[$0] } ?? site
    }

    /// The feed pages: the site's, then each category's that has fruits, in both formats.
    var pages: [Page] {
        guard !site.isEmpty else { return [] }
        var pages = Feed.Format.allCases.map { Page.feed(category: nil, $0) }
        for index in categories.indices where !categories[index].isEmpty {
            pages += Feed.Format.allCases.map { Page.feed(category: index, $0) }
        }
        return pages
    }
}

/// Writes one feed, as Atom (RFC 4287) or JSON Feed 1.1, from the fruits it lists. Nothing in
/// it depends on when it is written: the feed's own date is that of its newest fruit. The
/// Atom feed's bytes are ASCII (see `MarkupText.asciiEscaped(_:)`); the JSON Feed is UTF-8,
/// as JSON always is (RFC 8259).
struct Feed {
    enum Format: String, Sendable, CaseIterable {
        case atom, json

        /// The file name, beside the listing the feed follows.
        var fileName: String { self == .atom ? "feed.xml" : "feed.json" }

        /// The media type of `<link rel="alternate">`.
        var mediaType: String { self == .atom ? "application/atom+xml" : "application/feed+json" }
    }

    /// One fruit of the feed.
    struct Item {
        var fruit: Fruit
        var details: FruitDetails
    }

    /// The feed's title and description, names in them isolated (`BidiIsolation`) as the
    /// fruits' titles are; a category `term` and a tag are the name as written, for matching.
    var title: String
    var description: String
    var language: String
    /// The absolute URL of the listing the feed follows (the site, or a category).
    var homeURL: String
    /// The absolute URL of the site root, which fruit pages are below.
    var baseURL: String
    /// The theme's words, which say what a fruit without a tagline is.
    var strings: ThemeStrings

    func text(_ format: Format, items: [Item]) -> [UInt8] {
        format == .atom ? atom(items) : json(items)
    }

    /// What a reader shows of a fruit without opening it: the fruit page's description.
    private func summary(of item: Item) -> String {
        item.details.description(of: item.fruit, strings: strings)
    }

    private func url(of fruit: Fruit) -> String { baseURL + "fruits/\(fruit.slug)/" }

    private func atom(_ items: [Item]) -> [UInt8] {
        // Every value goes through here, and the rest is ASCII: so is the whole feed, which
        // has no comments or CDATA sections, where references are not read.
        func text(_ value: String) -> String {
            MarkupText.asciiEscaped(Self.xmlCharacters(value))
        }
        let feedURL = homeURL + Format.atom.fileName
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="\(text(language))">
              <title>\(text(title))</title>
              <subtitle>\(text(description))</subtitle>
              <link rel="self" type="application/atom+xml" href="\(text(feedURL))"/>
              <link rel="alternate" type="text/html" href="\(text(homeURL))"/>
              <id>\(text(feedURL))</id>
              <updated>\(items.first?.fruit.date?.timestamp ?? "")</updated>
              <author><name>\(text(title))</name></author>
              <generator>fruitsite</generator>

            """
        for item in items {
            let (fruit, link) = (item.fruit, text(url(of: item.fruit)))
            let date = fruit.date?.timestamp ?? ""
            // Relative links in the body are relative to the fruit's page.
            xml += """
                  <entry>
                    <title>\(text(BidiIsolation.isolated(fruit.name)))</title>
                    <link rel="alternate" type="text/html" href="\(link)"/>
                    <id>\(link)</id>
                    <published>\(date)</published>
                    <updated>\(date)</updated>
                    <category term="\(text(fruit.category))"/>
                    <summary>\(text(summary(of: item)))</summary>
                    <content type="html" xml:base="\(link)">\(text(item.details.bodyHTML))</content>
                  </entry>

                """
        }
        xml += "</feed>\n"
        return Array(xml.utf8)
    }

    private func json(_ items: [Item]) -> [UInt8] {
        var json: [UInt8] = Array(#"{"version":"https://jsonfeed.org/version/1.1","title":"#.utf8)
        func member(_ name: String, _ value: String) {
            json += ",\"\(name)\":".utf8
            JSONText.append(quoted: value, to: &json)
        }
        JSONText.append(quoted: title, to: &json)
        member("home_page_url", homeURL)
        member("feed_url", homeURL + Format.json.fileName)
        member("description", description)
        member("language", language)
        json += #","authors":[{"name":"#.utf8
        JSONText.append(quoted: title, to: &json)
        json += #"}],"items":["#.utf8
        for (index, item) in items.enumerated() {
            if index > 0 { json += ",".utf8 }
            json += #"{"id":"#.utf8
            JSONText.append(quoted: url(of: item.fruit), to: &json)
            member("url", url(of: item.fruit))
            member("title", BidiIsolation.isolated(item.fruit.name))
            member("summary", summary(of: item))
            member(
                "content_html",
                Self.absoluteLinks(in: item.details.bodyHTML, from: url(of: item.fruit)))
            member("date_published", item.fruit.date?.timestamp ?? "")
            json += #","tags":["#.utf8
            JSONText.append(quoted: item.fruit.category, to: &json)
            json += "]}".utf8
        }
        json += "]}\n".utf8
        return json
    }

    /// `html` with each double-quoted `href` and `src` attribute of a tag that is relative
    /// (`../../fruits/lemon/`, `pic.png`, `#zest`, `//cdn.example.org/pic.png`) made absolute
    /// from `base`, the page it is shown on: JSON Feed has no `xml:base`, and readers resolve
    /// such links against the feed, or not at all. Text, and other attributes (`data-href`),
    /// stay as written.
    static func absoluteLinks(in html: String, from base: String) -> String {
        guard let baseURL = URL(string: base) else { return html }
        // Made once a call: a `Regex` literal is parsed again each time it is evaluated.
        let (tags, links) = (/<[A-Za-z][^>]*>/, /(\s)((?i)href|src)="([^"]*)"/)
        let scheme = /^[A-Za-z][A-Za-z0-9+.\-]*:/
        var result = ""
        var rest = html[...]
        while let tag = rest.firstMatch(of: tags) {
            result += rest[..<tag.range.lowerBound]
            result += tag.output.replacing(links) { match in
                let value = String(match.3)
                let hasScheme = value.firstMatch(of: scheme) != nil
                guard !hasScheme,
                    let resolved = URL(string: value, relativeTo: baseURL)?.absoluteString
                else { return String(match.output.0) }
                return "\(match.1)\(match.2)=\"\(resolved)\""
            }
            rest = rest[tag.range.upperBound...]
        }
        return result + rest
    }

    /// The text without the characters XML 1.0 cannot hold (most control characters), which
    /// would make the whole feed unreadable.
    static func xmlCharacters(_ text: String) -> String {
        let allowed = { (scalar: Unicode.Scalar) -> Bool in
            switch scalar.value {
            case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...: true
            default: false
            }
        }
        guard !text.unicodeScalars.allSatisfy(allowed) else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.filter(allowed))
        return String(kept)
    }
}
