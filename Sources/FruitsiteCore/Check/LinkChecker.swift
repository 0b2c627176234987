import Foundation

/// Finds the links and `#anchors` of a rendered site that point to nothing in it: what
/// `fruitsite check` adds to rendering. Links with a scheme (`https:`, `mailto:`) or a host
/// (`//cdn…`) leave the site and are not followed, and the head's hreflang alternates are
/// `AlternateChecker`'s.
///
/// Pages are added as they render, and none is kept: every path of the site is known before
/// rendering, so a link is judged as its page is added, and the checker keeps only each page's
/// ids and the links that lead nowhere, or to another page's `#fragment`, which waits for that
/// page's ids. Holding every page until the end had cost `check` twice a build's memory.
struct LinkChecker: Sendable {
    /// A link that leads nowhere: on which page, and as written there.
    struct Broken: Equatable {
        var page: String
        var link: String
        var reason: String
    }

    /// Every file of the site, by its path inside the output folder, and where the site is
    /// served: root-relative links (`/x`) count from there.
    private let site: Site
    /// The ids of each HTML page added.
    private var ids: [String: Set<String>] = [:]
    /// The links found so far that lead nowhere or wait for a page's ids.
    private var found: [Found] = []

    /// One link kept: the page it is on, its place among the page's links, and what is wrong
    /// with it or what it waits for.
    private struct Found: Sendable {
        var page: String
        var index: Int
        var link: String
        var problem: Problem
    }

    private enum Problem: Sendable {
        case leadsNowhere(String)
        /// A fragment of another HTML page, judged once every page was added.
        case awaits(page: String, id: String)
    }

    /// A checker for a site with these files.
    /// - Parameters:
    ///   - paths: Every file the site has, by its path inside the output folder.
    ///   - basePath: Where the site is served (`/`, or the base URL's path).
    init(paths: Set<String>, basePath: String) {
        // Compared with links whose escapes are decoded: `/my%20fruits/` is `/my fruits/`.
        site = Site(
            files: SitePaths(paths: paths),
            basePath: basePath.removingPercentEncoding ?? basePath)
    }

    /// A checker for the site of these files, all added.
    init(files: [RenderedPage], basePath: String) {
        self.init(paths: Set(files.map(\.path)), basePath: basePath)
        add(files)
    }

    /// Reads the links and ids of the HTML files among `files`, on every core; their bytes
    /// are not kept. Every page of the site is to be added before `brokenLinks()`.
    mutating func add(_ files: [RenderedPage]) {
        let site = site
        let pages = files.filter { $0.path.hasSuffix(".html") }.concurrentMap { file in
            site.read(file)
        }
        for page in pages {
            ids[page.path] = page.ids
            found += page.found
        }
    }

    /// Every broken link of every HTML page, by page and then in page order.
    func brokenLinks() -> [Broken] {
        found.compactMap { found -> (Found, String)? in
            switch found.problem {
            case .leadsNowhere(let reason): return (found, reason)
            case .awaits(let page, let id):
                return ids[page]?.contains(id) == true
                    ? nil : (found, Site.missing(id))
            }
        }
        .sorted { $0.0.page != $1.0.page ? $0.0.page < $1.0.page : $0.0.index < $1.0.index }
        .map { found, reason in Broken(page: found.page, link: found.link, reason: reason) }
    }

    /// What a page's links are judged against. Links are read as bytes: as strings, judging
    /// them had cost `check` more than rendering the pages.
    private struct Site: Sendable {
        let files: SitePaths
        /// Decoded, as links are before they are compared with it.
        let basePath: String

        /// The page's ids, and its links that lead nowhere or wait for another page's ids.
        func read(_ file: RenderedPage) -> (path: String, ids: Set<String>, found: [Found]) {
            var links: [String] = []
            var ids: Set<String> = []
            HTMLAttributes.scan(file.bytes) { kind, value in
                switch kind {
                case .link: links.append(value)
                case .id: ids.insert(value)
                // The head's alternates are `AlternateChecker`'s.
                case .alternate: break
                }
            }
            let page = file.path
            let bytes = Array(page.utf8)
            let folder = (
                path: Array(bytes[..<(bytes.lastIndex(of: slash) ?? 0)]),
                depth: bytes.count { $0 == slash }
            )
            var found: [Found] = []
            for (index, link) in links.enumerated() {
                var link = link
                let judged = link.withUTF8 { problem(with: $0[...], on: page, in: folder) }
                guard var problem = judged else { continue }
                // A fragment of the page itself: its ids are at hand.
                if case .awaits(let target, let id) = problem, target == page {
                    if ids.contains(id) { continue }
                    problem = .leadsNowhere(Self.missing(id))
                }
                found.append(Found(page: page, index: index, link: link, problem: problem))
            }
            return (page, ids, found)
        }

        static func missing(_ id: String) -> String { "no element has the id '\(id)' there" }

        private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

        /// What is wrong with `link` on `page` (in `folder`), or what it waits for; nil when
        /// it leads somewhere (or off the site).
        private func problem(with link: Bytes, on page: String, in folder: Folder) -> Problem? {
            if link.starts(with: "//".utf8) || SitePaths.hasScheme(link) { return nil }
            var reference = link
            var fragment: Bytes?
            if let hash = reference.firstIndex(of: UInt8(ascii: "#")) {
                fragment = reference[(hash + 1)...]
                reference = reference[..<hash]
            }
            if let question = reference.firstIndex(of: UInt8(ascii: "?")) {
                reference = reference[..<question]
            }
            let target: String
            if reference.isEmpty {
                target = page
            } else {
                var resolved: [UInt8]?
                if reference.contains(UInt8(ascii: "%")) {
                    var decoded = Self.decoded(reference)
                    resolved = decoded.withUTF8 { resolve($0[...], in: folder) }
                } else {
                    resolved = resolve(reference, in: folder)
                }
                guard let resolved else { return .leadsNowhere("it leads outside the site") }
                guard let file = files.file(at: resolved) else {
                    return .leadsNowhere("no such page in the site")
                }
                target = file
            }
            guard let fragment, !fragment.isEmpty, target.hasSuffix(".html") else { return nil }
            return .awaits(page: target, id: Self.decoded(fragment))
        }

        /// A page's folder: the path's segments but the last, joined, and how many they are.
        private typealias Folder = (path: [UInt8], depth: Int)

        /// The path inside the site a link with escapes decoded points to, or nil when it
        /// climbs above the root or is root-relative outside the base path.
        private func resolve(_ reference: Bytes, in folder: Folder) -> [UInt8]? {
            var (path, depth) = folder
            var rest = reference
            if rest.first == slash {
                guard rest.starts(with: basePath.utf8) else { return nil }
                rest = rest.dropFirst(basePath.utf8.count)
                (path, depth) = ([], 0)
            }
            path.reserveCapacity(path.count + rest.count + 11)
            var start = rest.startIndex
            while true {
                let end = rest[start...].firstIndex(of: slash) ?? rest.endIndex
                switch rest[start..<end].count {
                case 1 where rest[start] == dot: break
                case 2 where rest[start] == dot && rest[start + 1] == dot:
                    guard depth > 0 else { return nil }
                    // A segment holds no slash: the last one starts after the last slash.
                    path.removeSubrange((path.lastIndex(of: slash) ?? 0)...)
                    depth -= 1
                default:
                    if depth > 0 { path.append(slash) }
                    path += rest[start..<end]
                    depth += 1
                }
                if end == rest.endIndex { return path }
                start = end + 1
            }
        }

        /// `text` with its percent escapes decoded, or as it is when they are not valid.
        private static func decoded(_ text: Bytes) -> String {
            let string = String(decoding: text, as: UTF8.self)
            guard text.contains(UInt8(ascii: "%")) else { return string }
            return string.removingPercentEncoding ?? string
        }
    }
}

private let slash = UInt8(ascii: "/")
private let dot = UInt8(ascii: ".")
