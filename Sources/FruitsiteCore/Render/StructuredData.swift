import Mustache

/// A page's schema.org data as JSON-LD, the text of its `<script type="application/ld+json">`:
/// a `BreadcrumbList` on fruit and category pages, an `ItemList` of the fruits a listing page
/// shows, or of the categories or a facet's values on their own pages. Written by hand like the search index, so every string is escaped for JSON and for
/// an inline script (`JSONText`): a `</script>` in a name stays inert.
struct StructuredData {
    /// A named place: a step of a breadcrumb trail, or a fruit of a list.
    struct Link {
        var name: String
        /// Absolute with a base URL, else relative to the page.
        var url: String
    }

    /// How a page's JSON-LD gives addresses: absolute with a base URL, as search engines
    /// want; else relative to the page, like every link.
    struct Links {
        /// What every address starts with: the base URL, or the way to the site root.
        let base: String

        init(site: SiteSettings, root: String) {
            base = site.baseURL.isEmpty ? root : site.baseURL
        }

        /// The page at `path` below the site root, named `name`.
        func link(_ name: String, _ path: String) -> Link {
            let url = base + path
            return Link(name: name, url: url.isEmpty ? "./" : url)
        }
    }

    private var objects: [[UInt8]] = []

    /// A trail from the site's home page to the page itself, which is the last link.
    mutating func addBreadcrumbs(_ trail: [Link]) {
        var json = Self.opening("BreadcrumbList")
        for (offset, link) in trail.enumerated() {
            Self.appendItem(at: 1 + offset, named: link.name, key: "item", to: &json) {
                JSONText.append(escaped: link.url, to: &$0)
            }
        }
        objects.append(json + "]".utf8)
    }

    /// The fruit a page is about, as a `Thing`: its name, its page and, when it has one, its
    /// picture's variant for link previews.
    mutating func addThing(_ page: Link, image: String?) {
        var json: [UInt8] = Array(#""@type":"Thing","name":"#.utf8)
        JSONText.append(quoted: page.name, to: &json)
        json += #","url":""#.utf8
        JSONText.append(escaped: page.url, to: &json)
        json += #"""#.utf8
        if let image {
            json += #","image":""#.utf8
            JSONText.append(escaped: image, to: &json)
            json += #"""#.utf8
        }
        objects.append(json)
    }

    /// A listing's items, each named and found at `base` + `<slug>/` (`base` is the folder of
    /// the fruits, `fruits/`, or of the categories); `first` is the place of the first in the
    /// whole listing (101 on the second page of 100). Written straight from the names and
    /// slugs: a listing page's hundred links, each made a string first, were a fifth of
    /// rendering it.
    mutating func addItemList(
        _ items: some Sequence<(name: String, slug: String)>, base: String, first: Int
    ) {
        var prefix: [UInt8] = []
        JSONText.append(escaped: base, to: &prefix)
        var json = Self.opening("ItemList")
        for (offset, item) in items.enumerated() {
            Self.appendItem(at: first + offset, named: item.name, key: "url", to: &json) {
                $0 += prefix
                JSONText.append(escaped: item.slug, to: &$0)
                $0.append(UInt8(ascii: "/"))
            }
        }
        objects.append(json + "]".utf8)
    }

    /// The JSON-LD: one object, or a `@graph` of several, as UTF-8 (the names in it were
    /// strings, and nothing but ASCII was added); null when nothing was added, which hides a
    /// `{{#structuredData}}` block.
    var value: MustacheValue {
        guard !objects.isEmpty else { return .null }
        var json: [UInt8] = Array(#"{"@context":"https://schema.org","#.utf8)
        if objects.count == 1 {
            json += objects[0]
        } else {
            json += #""@graph":["#.utf8
            for (index, object) in objects.enumerated() {
                if index > 0 { json.append(UInt8(ascii: ",")) }
                json += "{".utf8 + object + "}".utf8
            }
            json += "]".utf8
        }
        json += "}".utf8
        return .utf8(json)
    }

    /// An object's members up to its list's first item.
    private static func opening(_ type: String) -> [UInt8] {
        Array(#""@type":"\#(type)","itemListElement":["#.utf8)
    }

    /// One item of a list, after a comma if it is not the first; `key` names its address
    /// (`item` in a breadcrumb, `url` in a list of pages), which `address` writes escaped.
    private static func appendItem(
        at position: Int, named name: String, key: StaticString, to json: inout [UInt8],
        address: (inout [UInt8]) -> Void
    ) {
        if json.last != UInt8(ascii: "[") { json.append(UInt8(ascii: ",")) }
        json += #"{"@type":"ListItem","position":"#
        JSONText.append(position, to: &json)
        json += #","name":"#
        JSONText.append(quoted: name, to: &json)
        json += #",""#
        json += key
        json += #"":""#
        address(&json)
        json += #""}"#
    }
}
