import Foundation

/// The optional `fruitsite.yml` at the project root.
public struct SiteConfig: Sendable, Equatable {
    public var title = "Fruit Catalog"
    public var description = "Fruits by name and category, with a search that runs in your browser."
    /// The absolute URL the site is served from, such as `https://example.org/fruits/`, or
    /// empty. Only `sitemap.xml`, `robots.txt`, canonical links and `404.html` use it:
    /// every other link is relative.
    public var baseURL = ""
    /// Whether the site is to have a sitemap (`sitemap`): it has one when it has a base URL
    /// too (`hasSitemap`).
    public var sitemap = true
    /// The `lang` attribute of every page.
    public var language = "en"
    /// Let raw HTML and any link scheme in Markdown through (off: libcmark's safe mode).
    public var rawHTML = false
    /// The most bytes one entry's file may hold (`maxEntrySize`): a bigger file is an error
    /// naming it, not hours of parsing and gigabytes of memory.
    public var maximumEntrySize = Self.defaultMaximumEntrySize
    /// The most bytes one rendered page may hold (`maxPageSize`): a template whose loops
    /// nest over the catalog stops with an error naming it, before memory runs out.
    public var maximumPageSize = Self.defaultMaximumPageSize
    /// How many fruits each page of a listing (the index, a category) shows (`pageSize`);
    /// 0 lists them all on one page.
    public var pageSize = Self.defaultPageSize
    /// How many of the most recently added fruits each feed lists (`feed: {limit: …}`); 0
    /// writes no feeds.
    public var feedLimit = 20
    /// The front-matter keys whose values filter the catalog and get pages of their own
    /// (`facets`), in the order written.
    public var facets = ["vitamins"]
    /// Where each of `facets` is written, when the config lists them: a key no entry has is
    /// an error there.
    public var facetLocations: [SourceLocation] = []
    /// Which search index the site gets (`search: {index: …}`).
    public var searchIndex = SearchIndex.auto

    /// The kinds of search index: one file the browser loads whole, or a manifest and shards
    /// it loads as a query needs them (README, "The sharded index").
    public enum SearchIndex: String, Sendable, CaseIterable {
        /// `single` up to `shardedSearchThreshold` fruits, `sharded` above.
        case auto
        case single
        case sharded
    }

    /// Above this many fruits `auto` shards the index: README, "The sharded index", has the
    /// figures it comes from.
    public static let shardedSearchThreshold = 5_000

    /// Whether a catalog of `fruitCount` fruits gets the sharded index.
    public func shardsSearch(fruitCount: Int) -> Bool {
        switch searchIndex {
        case .auto: fruitCount > Self.shardedSearchThreshold
        case .single: false
        case .sharded: true
        }
    }

    /// The direction `language` is written in, every page's `dir`: `rtl` for a script written
    /// right to left (a subtag such as `Arab` or `Hebr`), or with none, for a language
    /// usually written in one (`ar`, `he`, `fa`, `ur` …); else `ltr`.
    public var direction: String {
        let subtags = language.lowercased().split(separator: "-")
        if let script = subtags.dropFirst().first(where: {
            $0.count == 4 && $0.allSatisfy(\.isLetter)
        }) {
            return Self.rightToLeftScripts.contains(String(script)) ? "rtl" : "ltr"
        }
        return subtags.first.map { Self.rightToLeftLanguages.contains(String($0)) } == true
            ? "rtl" : "ltr"
    }

    /// ISO 15924 codes of the scripts written right to left that Unicode encodes, as CLDR
    /// lists them.
    private static let rightToLeftScripts: Set<String> = [
        "adlm", "arab", "aran", "armi", "avst", "cprt", "egyp", "elym", "hatr", "hebr", "hung",
        "khar", "lydi", "mand", "mani", "mend", "merc", "mero", "narb", "nbat", "nkoo", "orkh",
        "ougr", "palm", "phli", "phlp", "phnx", "prti", "rohg", "samr", "sarb", "sogd", "sogo",
        "syrc", "thaa", "yezi",
    ]

    /// Languages whose usual script is written right to left (CLDR's likely scripts).
    private static let rightToLeftLanguages: Set<String> = [
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "khw", "ks", "lrc", "mzn", "nqo", "ps",
        "sd", "syr", "ug", "ur", "yi",
    ]

    public static let keys = [
        "title", "description", "baseURL", "language", "rawHTML", "maxEntrySize", "maxPageSize",
        "pageSize", "feed", "facets", "search", "sitemap",
    ]

    /// Keys that cannot be facets, each with why: a facet's key is also a front-matter key,
    /// its pages' folder, the search's URL parameter and a key of the search client's objects.
    static let reservedFacetKeys: [String: String] = {
        var reasons: [String: String] = [:]
        for key in ["name", "emoji", "category", "draft", "date", "slug"] {
            reasons[key] = "fruitsite reads that key itself"
        }
        for key in ["fruits", "categories", "page", "assets", "search"] {
            reasons[key] = "the site has a folder of that name"
        }
        reasons["q"] = "the search's text is the address's 'q'"
        reasons["constructor"] =
            "every JavaScript object has that key, and the search looks facets up by key"
        return reasons
    }()

    /// 100 fruits: a listing page of the default theme stays near 25 KB.
    public static let defaultPageSize = 100

    /// 8 MB: thousands of times the longest entry of the sample.
    public static let defaultMaximumEntrySize = 8 << 20
    /// 512 MB: an index listing a million fruits on one page is about 220 MB.
    public static let defaultMaximumPageSize = 512 << 20
    /// The most the config file may hold.
    public static let maximumFileSize = 1 << 20
    /// The most characters a text setting may have: each is repeated on every page.
    public static let maximumValueLength = 4_096

    /// The defaults, used when there is no config file.
    public init() {}

    /// Reads a config file's text; unknown keys and wrong types are errors.
    /// - Parameters:
    ///   - text: The YAML text.
    ///   - path: The path shown in diagnostics.
    /// - Throws: `BuildFailure` listing every problem.
    public init(yaml text: String, path: String) throws(BuildFailure) {
        var problems: [Diagnostic] = []
        self.init(yaml: text, path: path, problems: &problems)
        if problems.containsErrors { throw BuildFailure(problems) }
    }

    /// Reads a config file's text as far as it is right: a setting in error keeps its
    /// default, and `problems` says why. A build reports these with the errors of the
    /// content and the theme, which it reads with the rest of the config.
    public init(yaml text: String, path: String, problems diagnostics: inout [Diagnostic]) {
        func location(_ node: YAMLNode) -> SourceLocation {
            SourceLocation(path: path, line: node.line, column: node.column)
        }
        let root: YAMLNode?
        do {
            root = try YAMLParser().parse(text)
        } catch {
            diagnostics.append(
                .error(
                    at: SourceLocation(path: path, line: error.line, column: error.column),
                    "invalid YAML: \(error.message)"))
            return
        }
        guard let root else { return }
        guard case .mapping(let pairs) = root.kind else {
            diagnostics.append(.error(at: location(root), "the config must be a map of keys"))
            return
        }
        diagnostics += root.forbiddenCharacterErrors(at: location)
        for (key, first) in root.repeatedKeys {
            diagnostics.append(
                .error(
                    at: location(key), "duplicate key '\(key.scalarText ?? "")'",
                    hint: "it is set at line \(first.line) already"))
        }
        var seen: Set<String> = []
        for (key, value) in pairs {
            let name = key.scalarText ?? ""
            // Reported above; the first one stands.
            guard seen.insert(Fold.normalizeNFC(name)).inserted else { continue }
            guard Self.keys.contains(name) else {
                let hint = Suggestion.closest(to: name, in: Self.keys).map {
                    "did you mean '\($0)'?"
                }
                diagnostics.append(
                    .error(
                        at: location(key), "unknown key '\(name)'",
                        hint: hint ?? "known keys: \(Self.keys.joined(separator: ", "))"))
                continue
            }
            if name == "rawHTML" || name == "sitemap" {
                switch FruitParser.mustacheValue(value) {
                case .bool(let flag) where name == "rawHTML": rawHTML = flag
                case .bool(let flag): sitemap = flag
                default:
                    diagnostics.append(
                        .error(at: location(value), "'\(name)' must be true or false"))
                }
                continue
            }
            if name == "feed" {
                readFeed(value, into: &diagnostics, at: location)
                continue
            }
            if name == "facets" {
                readFacets(value, into: &diagnostics, at: location)
                continue
            }
            if name == "search" {
                readSearch(value, into: &diagnostics, at: location)
                continue
            }
            guard let string = value.scalarText, !value.isNull else {
                let wanted =
                    switch name {
                    case "pageSize": "a whole number"
                    case "maxEntrySize", "maxPageSize": "a size such as 4MB"
                    default: "a string"
                    }
                diagnostics.append(
                    .error(
                        at: location(value),
                        "'\(name)' must be \(wanted), not \(value.kindDescription)"))
                continue
            }
            if string.utf8.count > Self.maximumValueLength {
                diagnostics.append(
                    .error(
                        at: location(value),
                        "'\(name)' is \(string.utf8.count) bytes long, more than the limit of "
                            + "\(Self.maximumValueLength)"))
                continue
            }
            switch name {
            case "title": title = string
            case "description": description = string
            case "language":
                // Every page's `lang` and the feeds' `xml:lang`: a BCP 47 tag's shape.
                // The first subtag is a language of two or three letters (or a registered one
                // of five to eight), or `x-` or `i-` and more subtags.
                guard
                    string.wholeMatch(
                        of: /([A-Za-z]{2,3}|[A-Za-z]{5,8}|[XxIi](?=-))(-[A-Za-z0-9]{1,8})*/) != nil
                else {
                    diagnostics.append(
                        .error(
                            at: location(value), "'language' must be a language tag",
                            hint: "for example 'en', 'fr' or 'pt-BR'"))
                    continue
                }
                language = string
            case "pageSize":
                guard let size = Int(string), size >= 0, size <= 1_000_000 else {
                    diagnostics.append(
                        .error(
                            at: location(value),
                            "'pageSize' must be a whole number from 0 to 1000000",
                            hint: "how many fruits a listing page shows; 0 shows all on one page"))
                    continue
                }
                pageSize = size
            case "maxEntrySize", "maxPageSize":
                guard let size = Self.size(string), size > 0 else {
                    diagnostics.append(
                        .error(
                            at: location(value), "'\(name)' must be a size such as 4MB",
                            hint: "a number of bytes, or a number followed by KB, MB or GB"))
                    continue
                }
                if name == "maxEntrySize" {
                    maximumEntrySize = size
                } else {
                    maximumPageSize = size
                }
            default:
                if let problem = Self.baseURLProblem(string) {
                    diagnostics.append(
                        .error(
                            at: location(value), "'baseURL' \(problem)",
                            hint: "for example 'https://example.org/fruits/'"))
                }
                // One spelling everywhere, which sitemaps and canonical links need to name
                // one page one way.
                baseURL = Self.canonical(string)
                if !baseURL.isEmpty && !baseURL.hasSuffix("/") { baseURL += "/" }
            }
        }
    }

    /// Reads the `facets` list: each a front-matter key, once, that names a folder.
    private mutating func readFacets(
        _ node: YAMLNode, into diagnostics: inout [Diagnostic],
        at location: (YAMLNode) -> SourceLocation
    ) {
        let hint = "for example 'facets: [vitamins, colour]'"
        guard case .sequence(let items) = node.kind else {
            diagnostics.append(
                .error(
                    at: location(node), "'facets' must be a list, not \(node.kindDescription)",
                    hint: hint))
            return
        }
        (facets, facetLocations) = ([], [])
        for item in items {
            guard let key = item.scalarText, !item.isNull else {
                diagnostics.append(
                    .error(
                        at: location(item),
                        "each facet must be a front-matter key, not \(item.kindDescription)",
                        hint: hint))
                continue
            }
            if !Slug.isValid(key) {
                diagnostics.append(
                    .error(
                        at: location(item), "facet '\(key)' is not a lowercase key like 'colour'",
                        hint: "a facet's key names its pages' folder: lowercase letters, digits "
                            + "and single hyphens"))
            } else if let reason = Self.reservedFacetKeys[key] {
                diagnostics.append(
                    .error(at: location(item), "'\(key)' cannot be a facet", hint: reason))
            } else if facets.contains(key) {
                diagnostics.append(.error(at: location(item), "facet '\(key)' is listed twice"))
            } else {
                facets.append(key)
                facetLocations.append(location(item))
            }
        }
    }

    /// Reads the `feed` map: its one key, `limit`.
    private mutating func readFeed(
        _ node: YAMLNode, into diagnostics: inout [Diagnostic],
        at location: (YAMLNode) -> SourceLocation
    ) {
        let values = Self.values(
            ofOnlyKey: "limit", in: node, named: "feed", example: "{limit: 20}",
            into: &diagnostics, at: location)
        for value in values {
            guard case .int(let limit) = FruitParser.mustacheValue(value),
                (0...10_000).contains(limit)
            else {
                diagnostics.append(
                    .error(
                        at: location(value), "'feed.limit' must be a whole number from 0 to 10000",
                        hint: "how many of the newest fruits a feed lists; 0 writes no feeds"))
                continue
            }
            feedLimit = limit
        }
    }

    /// Reads the `search` map: its one key, `index`.
    private mutating func readSearch(
        _ node: YAMLNode, into diagnostics: inout [Diagnostic],
        at location: (YAMLNode) -> SourceLocation
    ) {
        let values = Self.values(
            ofOnlyKey: "index", in: node, named: "search", example: "{index: sharded}",
            into: &diagnostics, at: location)
        for value in values {
            guard !value.isNull, let text = value.scalarText, let kind = SearchIndex(rawValue: text)
            else {
                let kinds = SearchIndex.allCases.map { "'\($0.rawValue)'" }
                diagnostics.append(
                    .error(
                        at: location(value),
                        "'search.index' must be one of \(kinds.joined(separator: ", "))",
                        hint: "'single' writes one search-index.json, 'sharded' a manifest and "
                            + "shards, 'auto' picks by the catalog's size"))
                continue
            }
            searchIndex = kind
        }
    }

    /// The values of `key` in the map `node`, the setting `name`'s, whose one key it is:
    /// anything else there is an error.
    private static func values(
        ofOnlyKey key: String, in node: YAMLNode, named name: String, example: String,
        into diagnostics: inout [Diagnostic], at location: (YAMLNode) -> SourceLocation
    ) -> [YAMLNode] {
        guard case .mapping(let pairs) = node.kind else {
            diagnostics.append(
                .error(
                    at: location(node), "'\(name)' must be a map, not \(node.kindDescription)",
                    hint: "for example '\(name): \(example)'"))
            return []
        }
        var values: [YAMLNode] = []
        for (candidate, value) in pairs {
            guard candidate.scalarText == key else {
                diagnostics.append(
                    .error(
                        at: location(candidate),
                        "unknown key '\(name).\(candidate.scalarText ?? "")'",
                        hint: "the one key of '\(name)' is '\(key)'"))
                continue
            }
            values.append(value)
        }
        return values
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

    /// A size written as bytes (`4194304`) or with a unit (`512KB`, `4MB`, `1GB`; units of
    /// 1024).
    static func size(_ text: String) -> Int? {
        let trimmed = text.uppercased().filter { $0 != " " }
        for (unit, shift) in [("KB", 10), ("MB", 20), ("GB", 30), ("B", 0), ("", 0)]
        where trimmed.hasSuffix(unit) {
            guard let number = Int(trimmed.dropLast(unit.count)), number >= 0,
                number <= Int.max >> shift
            else { return nil }
            return number << shift
        }
        return nil
    }

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

    /// Mixes every setting into a page's input hash; a new setting must be added here, unless
    /// pages show it only through something their hashes cover already.
    func hash(into hasher: inout StableHasher) {
        for text in [title, description, baseURL, language] { hasher.combine(text) }
        hasher.combine(UInt64(rawHTML ? 1 : 0))
        hasher.combine(UInt64(sitemap ? 1 : 0))  // robots.txt names the sitemap
        hasher.combine(UInt64(pageSize))
        hasher.combine(UInt64(feedLimit))
        hasher.combine(UInt64(facets.count))
        for facet in facets { hasher.combine(facet) }
        // `searchIndex` is not mixed in: the index page shows where the index is
        // (`PageData.searchIndexPath`), which its input hash covers.
    }
}
