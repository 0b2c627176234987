/// Builds `sitemap.xml` and `robots.txt`.
struct SitemapBuilder {
    var config: SiteConfig

    /// The sitemap. Its URLs are absolute when a base URL is configured, else relative to
    /// the site root (search engines need the base URL to use them).
    func sitemap(_ catalog: Catalog) -> String {
        var paths = [""]
        paths += catalog.fruits.map { "fruits/\($0.slug)/" }
        paths += catalog.categories.map { "categories/\($0.slug)/" }
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """
        for path in paths {
            let url = config.baseURL.isEmpty ? (path.isEmpty ? "./" : path) : config.baseURL + path
            xml += "  <url><loc>\(Self.escapeXML(url))</loc></url>\n"
        }
        xml += "</urlset>\n"
        return xml
    }

    /// `robots.txt`, which names the sitemap when a base URL is configured.
    func robots() -> String {
        var robots = "User-agent: *\nAllow: /\n"
        if !config.baseURL.isEmpty { robots += "Sitemap: \(config.baseURL)sitemap.xml\n" }
        return robots
    }

    static func escapeXML(_ text: String) -> String {
        guard
            text.utf8.contains(where: {
                $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27
            })
        else {
            return text
        }
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
