/// A page's schema.org data as JSON-LD, the text of its `<script type="application/ld+json">`:
/// a `BreadcrumbList` on fruit and category pages, an `ItemList` of the fruits a listing page
/// shows. Written by hand like the search index, so every string is escaped for JSON and for
/// an inline script (`JSONText`): a `</script>` in a name stays inert.
struct StructuredData {
    /// A named place: a step of a breadcrumb trail, or a fruit of a list.
    struct Link {
        var name: String
        /// Absolute with a base URL, else relative to the page.
        var url: String
    }

    private var objects: [[UInt8]] = []

    /// A trail from the site's home page to the page itself, which is the last link.
    mutating func addBreadcrumbs(_ trail: [Link]) {
        objects.append(list(of: "BreadcrumbList", trail, from: 1, key: "item"))
    }

    /// A listing's fruits; `first` is the place of the first in the whole listing (101 on the
    /// second page of 100).
    mutating func addItemList(_ items: [Link], first: Int) {
        objects.append(list(of: "ItemList", items, from: first, key: "url"))
    }

    /// The JSON-LD: one object, or a `@graph` of several; empty when nothing was added.
    var text: String {
        guard !objects.isEmpty else { return "" }
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
        return String(decoding: json, as: UTF8.self)
    }

    /// The members of one object, without its braces; `key` names each link's address
    /// (`item` in a breadcrumb, `url` in a list of pages).
    private func list(of type: String, _ links: [Link], from first: Int, key: String)
        -> [UInt8]
    {
        var json: [UInt8] = Array(#""@type":"\#(type)","itemListElement":["#.utf8)
        for (offset, link) in links.enumerated() {
            if offset > 0 { json.append(UInt8(ascii: ",")) }
            json += #"{"@type":"ListItem","position":\#(first + offset),"name":"#.utf8
            JSONText.append(quoted: link.name, to: &json)
            json += #","\#(key)":"#.utf8
            JSONText.append(quoted: link.url, to: &json)
            json += "}".utf8
        }
        json += "]".utf8
        return json
    }
}
