import Foundation

/// The `baseURL`: what a valid one is, its one spelling, and what the site takes from it.
extension SiteConfig {
    /// Whether the site has `sitemap.xml`: the sitemaps.org protocol wants absolute URLs,
    /// which only a base URL gives.
    public var hasSitemap: Bool { sitemap && !baseURL.isEmpty }

    /// The path part of `baseURL` (`/fruits/`), or `/` when there is none.
    public var basePath: String {
        guard let schemeEnd = baseURL.range(of: "://") else { return "/" }
        let rest = baseURL[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...])
    }

    /// What is wrong with a `baseURL`, or nil: it must be empty, or an absolute http(s) URL
    /// with a host and no whitespace, control characters, query or fragment, which would end
    /// up in `robots.txt`, `sitemap.xml` and every page's links.
    static func baseURLProblem(_ url: String) -> String? {
        if url.isEmpty { return nil }
        if url.unicodeScalars.contains(where: {
            $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
        }) {
            return "must not contain spaces, line breaks or control characters"
        }
        guard let schemeEnd = url.range(of: "://"),
            ["http", "https"].contains(url[..<schemeEnd.lowerBound].lowercased())
        else { return "must be an absolute http(s) URL" }
        if url.contains("?") { return "must not have a query ('?…')" }
        if url.contains("#") { return "must not have a fragment ('#…')" }
        let host = url[schemeEnd.upperBound...].prefix { $0 != "/" }
        if host.isEmpty || host.contains("@") { return "must name a host, without a user name" }
        // A port after the host's last colon (not one inside an IPv6 address's brackets).
        var name = host
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") {
            let port = host[host.index(after: colon)...]
            guard !port.isEmpty, port.allSatisfy({ ("0"..."9").contains($0) }),
                let number = Int(port),
                (1...65535).contains(number)
            else { return "must have a port from 1 to 65535 after the host's ':'" }
            name = host[..<colon]
        }
        if let problem = hostProblem(name) { return problem }
        // The sitemap, robots.txt and canonical links name the site by its ASCII spelling: a
        // host IDNA refuses (`٣.example`, a fullwidth digit in an IPv6 address) has none.
        if !canonical(url).allSatisfy(\.isASCII) {
            return "must have a host IDNA writes in ASCII, such as xn--bcher-kva.example"
        }
        // Characters that must be escaped in a URL, and escapes that are not `%XX`.
        let unsafe = Set(#""<>\^`{|}"#)
        if url.contains(where: unsafe.contains)
            || url.split(separator: "%").dropFirst().contains(
                where: { $0.count < 2 || !$0.prefix(2).allSatisfy(\.isHexDigit) })
        {
            return
                "must be escaped: '%' followed by two hex digits, and no \", <, >, \\, ^, `, {, | or }"
        }
        // The 404 page links from the path, where `//x/` would name the host `x`, and `.`
        // or `..` would lead somewhere the site is not.
        var segments = url[schemeEnd.upperBound...].dropFirst(host.count).split(
            separator: "/", omittingEmptySubsequences: false
        ).dropFirst()
        if segments.last == "" { segments.removeLast() }
        // Decoded first: browsers read `%2e%2e` as `..`.
        if segments.contains(where: {
            ["", ".", ".."].contains($0.removingPercentEncoding ?? String($0))
        }) {
            return "must have a path without empty, '.' or '..' parts ('//', '/./', '/../')"
        }
        // A slash escaped within a part: `serve` refuses such requests, so no page there
        // could be previewed, and servers disagree on whether it is a folder.
        if segments.contains(where: { $0.lowercased().contains("%2f") }) {
            return "must not escape a '/' in its path ('%2F')"
        }
        return nil
    }

    /// What is wrong with the host of a `baseURL`, or nil: an IPv6 address in brackets, or
    /// names of letters, digits and hyphens between dots, none starting or ending with a
    /// hyphen, as DNS has them (`-bad-.org` is no host a browser would reach).
    private static func hostProblem(_ host: Substring) -> String? {
        if host.hasPrefix("[") {
            let address = host.dropFirst().dropLast()
            guard host.hasSuffix("]"), address.contains(":"),
                address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { return "must have an IPv6 address in brackets, such as [2001:db8::1]" }
            return nil
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let isLabel = { (label: Substring) in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-")
                && !label.hasSuffix("-")
                && label.allSatisfy { $0 == "-" || $0.isLetter || $0.isNumber || !$0.isASCII }
        }
        guard host.utf8.count <= 253, labels.allSatisfy(isLabel) else {
            return
                "must have a host of letters, digits and hyphens between dots, none starting "
                + "or ending with '-', such as example.org"
        }
        return nil
    }

    /// A valid `baseURL` spelled one way, as a browser spells it: the scheme and host in lower
    /// case, the host in IDNA (`xn--bcher-kva.example`), the port without leading zeros and
    /// without it when it is the scheme's own (80, 443), and each byte of the path's other
    /// characters as `%XX`, the escapes already written kept as they are.
    static func canonical(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        var host = authority.lowercased()
        var port = ""
        // A port after the host's last colon (not one inside an IPv6 address's brackets).
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]"),
            let number = Int(host[host.index(after: colon)...])
        {
            if (scheme, number) != ("http", 80) && (scheme, number) != ("https", 443) {
                port = ":\(number)"
            }
            host = String(host[..<colon])
        }
        if !host.allSatisfy(\.isASCII),
            let encoded = URL(string: "http://\(host)/")?.absoluteString
        {
            host = encoded.dropFirst("http://".count).dropLast().lowercased()
        }
        var ascii = scheme + "://" + host + port
        for byte in rest.dropFirst(authority.count).utf8 {
            ascii += byte < 0x80 ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        return ascii
    }
}
