import Foundation

/// Checks the hreflang alternates of a rendered site: the `<link rel="alternate"
/// hreflang="fr" href="…">` of each page's head, which name the page in each language that
/// has it, the page itself included, and `x-default`. Search engines trust them only when
/// they agree, so `fruitsite check` warns about an alternate that leads to no page, or to a
/// page that does not name this one back; a page whose alternates name no `x-default`, or
/// not the page itself; a language named for two pages; and an `hreflang` that is no
/// language tag. Pages without alternates are not checked.
///
/// Pages are added as they render, and none is kept: only the alternates of each page that
/// has some, each resolved to a file of the site as it is read, which is all that return
/// links need once every page was added. Only a page's head is read, where alternates are.
struct AlternateChecker: Sendable {
    /// Something wrong with a page's alternates: on which page, the alternate it is about
    /// (its `href` as the page has it, and which of the page's alternates of that `href` it
    /// is), and what is wrong, in words that hold for every page it is wrong on.
    struct Problem: Equatable, Sendable {
        var page: String
        var link: String
        var use: Int
        var message: String
        var hint: String?
    }

    /// Where an alternate leads.
    enum Target: Hashable, Sendable {
        /// A file of the site, by its path inside the output folder.
        case page(String)
        /// Nothing: a path of the site without a file, or one above the host's root.
        case nowhere(path: String, reason: String)
        /// Another site, which is not checked: another host, or outside the base URL's path.
        case elsewhere(link: String)
        /// An absolute URL, on a site without `baseURL` to tell whether it is its own.
        case unknown(link: String)
    }

    /// One alternate of a page.
    private struct Alternate: Sendable {
        var language: String
        var link: String
        var target: Target
    }

    private let resolver: Resolver
    /// The alternates of each HTML page that has some, in page order.
    private var alternates: [String: [Alternate]] = [:]

    /// A checker for a site with these files.
    /// - Parameters:
    ///   - paths: Every file the site has, by its path inside the output folder.
    ///   - baseURL: The config's `baseURL`, canonical and ending in `/`, or empty.
    init(paths: Set<String>, baseURL: String) {
        resolver = Resolver(files: SitePaths(paths: paths), baseURL: baseURL)
    }

    /// A checker for the site of these files, all added.
    init(files: [RenderedPage], baseURL: String) {
        self.init(paths: Set(files.map(\.path)), baseURL: baseURL)
        add(files)
    }

    /// Reads the alternates of the HTML files among `files`, on every core; their bytes are
    /// not kept. Every page of the site is to be added before `problems()`.
    mutating func add(_ files: [RenderedPage]) {
        let resolver = resolver
        let pages = files.filter { $0.path.hasSuffix(".html") }.concurrentMap { file in
            var found: [Alternate] = []
            HTMLAttributes.scanHead(file.bytes) { kind, link in
                guard case .alternate(let language) = kind else { return }
                let target = resolver.target(of: link, on: file.path)
                found.append(Alternate(language: language, link: link, target: target))
            }
            return (file.path, found)
        }
        for (page, found) in pages where !found.isEmpty {
            alternates[page] = found
        }
    }

    /// Everything wrong with the alternates of every page, by page and then in page order.
    func problems() -> [Problem] {
        var problems: [Problem] = []
        for page in alternates.keys.sorted() {
            problems += self.problems(of: page)
        }
        return problems
    }

    /// What is wrong with the alternates of `page`.
    private func problems(of page: String) -> [Problem] {
        let list = alternates[page]!
        var problems: [Problem] = []
        var uses: [String: Int] = [:]
        // The first target named for each language, by its lowercase tag: BCP 47 ignores case.
        var targets: [String: Target] = [:]
        for alternate in list {
            let use = uses[alternate.link, default: 0]
            uses[alternate.link] = use + 1
            func report(_ message: String, hint: String? = nil) {
                problems.append(
                    Problem(
                        page: page, link: alternate.link, use: use,
                        message: "the alternate '\(alternate.language)' " + message, hint: hint))
            }
            if !LanguageTag.isWellFormed(alternate.language) {
                let dashed = alternate.language.replacingOccurrences(of: "_", with: "-")
                report(
                    "is not a language tag",
                    hint: LanguageTag.isWellFormed(dashed)
                        ? "did you mean '\(dashed)'?"
                        : "hreflang takes a BCP 47 tag such as 'fr' or 'fr-CA', or 'x-default'")
            }
            switch alternate.target {
            case .nowhere(let path, let reason):
                report("leads to \(path), which \(reason)")
            case .page(let other) where other != page:
                if let back = alternates[other] {
                    if !back.contains(where: { $0.target == .page(page) }) {
                        report(
                            "leads to \(other), which does not name this page back",
                            hint: "each page is to name every page that names it as an alternate")
                    }
                } else {
                    report(
                        "leads to \(other), which has no alternates to name this page back",
                        hint: "each page is to name every page that names it as an alternate")
                }
            default: break
            }
            let language = alternate.language.lowercased()
            if let first = targets[language] {
                if first != alternate.target {
                    report(
                        "leads to \(Self.describe(alternate.target)), but an earlier alternate "
                            + "'\(alternate.language)' leads to \(Self.describe(first))")
                }
            } else {
                targets[language] = alternate.target
            }
        }
        // What is missing from the whole is reported at the first alternate, where a
        // template writes them.
        let first = list[0]
        func report(_ message: String, hint: String) {
            problems.append(
                Problem(page: page, link: first.link, use: 0, message: message, hint: hint))
        }
        if targets["x-default"] == nil {
            report(
                "the alternates name no 'x-default'",
                hint: "add one with hreflang=\"x-default\": the page for a reader whose "
                    + "language none of the others is")
        }
        // An absolute URL on a site without a base URL may be the page itself.
        let mayNameItself = list.contains {
            if case .unknown = $0.target { true } else { false }
        }
        if !mayNameItself, !list.contains(where: { $0.target == .page(page) }) {
            report(
                "the alternates do not name this page itself",
                hint: "a page names itself too, as the alternate of its own language")
        }
        return problems
    }

    /// A target in words: its path in the site, or its address.
    private static func describe(_ target: Target) -> String {
        switch target {
        case .page(let path), .nowhere(let path, _): path
        case .elsewhere(let link), .unknown(let link): link
        }
    }

    // MARK: - Resolving

    /// Resolves an alternate's `href` to a file of the site. Unlike a link's, an alternate's
    /// address is an absolute URL as often as not, and one outside the site's base path is
    /// another site on the same host, not a broken link.
    private struct Resolver: Sendable {
        let files: SitePaths
        /// The base URL's scheme, host and port (`https://example.org`), or nil without one.
        let origin: String?
        /// The base URL's path, escapes decoded (`/shop/`), or `/`.
        let basePath: String

        init(files: SitePaths, baseURL: String) {
            self.files = files
            if let schemeEnd = baseURL.range(of: "://") {
                let pathStart =
                    baseURL[schemeEnd.upperBound...].firstIndex(of: "/") ?? baseURL.endIndex
                origin = baseURL[..<pathStart].lowercased()
                let path = String(baseURL[pathStart...])
                basePath = path.isEmpty ? "/" : (path.removingPercentEncoding ?? path)
            } else {
                origin = nil
                basePath = "/"
            }
        }

        /// Where `link`, on `page`, leads.
        func target(of link: String, on page: String) -> Target {
            var reference = Substring(link)
            // A fragment or a query names no other file.
            if let end = reference.firstIndex(where: { $0 == "#" || $0 == "?" }) {
                reference = reference[..<end]
            }
            var isAbsolute = reference.hasPrefix("//")
            if !isAbsolute {
                var bytes = String(reference)
                isAbsolute = bytes.withUTF8 { SitePaths.hasScheme($0[...]) }
            }
            let path: String
            if isAbsolute {
                guard let origin else { return .unknown(link: link) }
                // Without a scheme, the page's own: the base URL's.
                if reference.hasPrefix("//") {
                    let scheme = origin.prefix { $0 != ":" }
                    reference = scheme + ":" + reference
                }
                // The scheme, host and port, compared in lower case as the base URL's are.
                guard let schemeEnd = reference.range(of: "://") else {
                    return .elsewhere(link: link)
                }
                let pathStart =
                    reference[schemeEnd.upperBound...].firstIndex(of: "/") ?? reference.endIndex
                guard reference[..<pathStart].lowercased() == origin else {
                    return .elsewhere(link: link)
                }
                path = Self.decoded(reference[pathStart...], or: "/")
            } else if reference.isEmpty {
                return .page(page)
            } else if reference.hasPrefix("/") {
                path = Self.decoded(reference, or: "/")
            } else {
                // The page's own address: the base path, then the page's folder.
                let folder = page.lastIndex(of: "/").map { page[...$0] } ?? ""
                path = basePath + folder + Self.decoded(reference, or: "")
            }
            guard let normal = Self.removingDotSegments(path) else {
                return .nowhere(path: link, reason: "climbs above the host's root")
            }
            var inSite: Substring
            if normal.hasPrefix(basePath) {
                inSite = normal.dropFirst(basePath.count)
            } else if normal + "/" == basePath {
                // The base path without its final slash: servers redirect to it.
                inSite = ""
            } else {
                return .elsewhere(link: link)
            }
            if let file = files.file(at: Array(inSite.utf8)) { return .page(file) }
            if inSite.isEmpty || inSite.hasSuffix("/") { inSite += "index.html" }
            return .nowhere(path: String(inSite), reason: "is no page of the site")
        }

        /// `text` with its percent escapes decoded, or as it is when they are not valid; or
        /// `empty` when it is empty.
        private static func decoded(_ text: Substring, or empty: String) -> String {
            if text.isEmpty { return empty }
            return text.removingPercentEncoding ?? String(text)
        }

        /// An absolute path with its `.` and `..` segments applied, as a browser resolves it
        /// (RFC 3986, 5.2.4), or nil when a `..` climbs above the root.
        private static func removingDotSegments(_ path: String) -> String? {
            var segments: [Substring] = []
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            for (index, part) in zip(parts.indices, parts) {
                let isLast = index == parts.indices.last
                switch part {
                case ".":
                    if isLast { segments.append("") }
                case "..":
                    guard !segments.isEmpty else { return nil }
                    segments.removeLast()
                    if isLast { segments.append("") }
                default:
                    segments.append(part)
                }
            }
            return "/" + segments.joined(separator: "/")
        }
    }
}
