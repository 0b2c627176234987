import Foundation

/// Finds the links and `#anchors` of a rendered site that point to nothing in it: what
/// `fruitsite check` adds to rendering. Links with a scheme (`https:`, `mailto:`) or a host
/// (`//cdn…`) leave the site and are not followed.
struct LinkChecker {
    /// A link that leads nowhere: on which page, and as written there.
    struct Broken: Equatable {
        var page: String
        var link: String
        var reason: String
    }

    /// The site's files by path inside the output folder.
    let files: [String: [UInt8]]
    /// Where the site is served (`/`, or the base URL's path): root-relative links (`/x`)
    /// count from there.
    let basePath: String

    init(files: [RenderedPage], basePath: String) {
        self.files = Dictionary(files.map { ($0.path, $0.bytes) }) { first, _ in first }
        // Compared with links whose escapes are decoded: `/my%20fruits/` is `/my fruits/`.
        self.basePath = basePath.removingPercentEncoding ?? basePath
    }

    /// Every broken link of every HTML page, by page and then in page order.
    func brokenLinks() -> [Broken] {
        var ids: [String: Set<String>] = [:]
        var links: [String: [String]] = [:]
        for (path, bytes) in files where path.hasSuffix(".html") {
            let scan = HTMLAttributes.scan(bytes)
            ids[path] = scan.ids
            links[path] = scan.links
        }
        var broken: [Broken] = []
        for page in links.keys.sorted() {
            for link in links[page]! {
                if let reason = problem(with: link, on: page, ids: ids) {
                    broken.append(Broken(page: page, link: link, reason: reason))
                }
            }
        }
        return broken
    }

    /// Why `link` on `page` leads nowhere, or nil when it leads somewhere (or off the site).
    private func problem(with link: String, on page: String, ids: [String: Set<String>])
        -> String?
    {
        if link.hasPrefix("//") || Self.hasScheme(link) { return nil }
        var reference = Substring(link)
        var fragment: Substring?
        if let hash = reference.firstIndex(of: "#") {
            fragment = reference[reference.index(after: hash)...]
            reference = reference[..<hash]
        }
        if let question = reference.firstIndex(of: "?") { reference = reference[..<question] }
        let target: String
        if reference.isEmpty {
            target = page
        } else {
            guard let resolved = resolve(String(reference), from: page) else {
                return "it leads outside the site"
            }
            guard let file = existingFile(resolved) else { return "no such page in the site" }
            target = file
        }
        if let fragment, !fragment.isEmpty, target.hasSuffix(".html") {
            let id = String(fragment).removingPercentEncoding ?? String(fragment)
            if ids[target]?.contains(id) != true {
                return "no element has the id '\(id)' there"
            }
        }
        return nil
    }

    /// The path inside the site a link points to, or nil when it climbs above the root or
    /// is root-relative outside the base path.
    private func resolve(_ reference: String, from page: String) -> String? {
        var segments: [Substring]
        var path = reference.removingPercentEncoding ?? reference
        if path.hasPrefix("/") {
            guard path.hasPrefix(basePath) else { return nil }
            path = String(path.dropFirst(basePath.count))
            segments = []
        } else {
            segments = page.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        }
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case ".": continue
            case "..":
                guard !segments.isEmpty else { return nil }
                segments.removeLast()
            default: segments.append(part)
            }
        }
        return segments.joined(separator: "/")
    }

    /// The file a resolved path serves: itself, or the `index.html` of a folder.
    private func existingFile(_ path: String) -> String? {
        if path.isEmpty || path.hasSuffix("/") {
            return files[path + "index.html"] != nil ? path + "index.html" : nil
        }
        if files[path] != nil { return path }
        // A folder without its final slash: servers redirect to it.
        return files[path + "/index.html"] != nil ? path + "/index.html" : nil
    }

    private static func hasScheme(_ link: String) -> Bool {
        guard let colon = link.firstIndex(of: ":") else { return false }
        let scheme = link[..<colon]
        return scheme.first?.isLetter == true
            && scheme.allSatisfy {
                $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0))
            }
    }
}
