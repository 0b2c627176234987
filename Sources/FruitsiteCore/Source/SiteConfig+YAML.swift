import Foundation

/// Reading `fruitsite.yml`: each key's value checked, every problem at its line and column.
extension SiteConfig {
    public static let keys = [
        "title", "description", "baseURL", "language", "rawHTML", "maxEntrySize", "maxPageSize",
        "pageSize", "feed", "facets", "search", "sitemap", "images", "languages",
        "defaultLanguageInSubfolder",
    ]

    /// Keys that cannot be facets, each with why: a facet's key is also a front-matter key,
    /// its pages' folder, the search's URL parameter and a key of the search client's objects.
    static let reservedFacetKeys: [String: String] = {
        var reasons: [String: String] = [:]
        for key in ["name", "emoji", "category", "draft", "date", "slug", "image"] {
            reasons[key] = "fruitsite reads that key itself"
        }
        for key in ["fruits", "categories", "page", "assets", "search", "images"] {
            reasons[key] = "the site has a folder of that name"
        }
        reasons["q"] = "the search's text is the address's 'q'"
        reasons["constructor"] =
            "every JavaScript object has that key, and the search looks facets up by key"
        return reasons
    }()

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
        // Read last: a language's title and description default to the site's.
        var languagesNode: YAMLNode?
        defer {
            if let languagesNode {
                readLanguages(languagesNode, into: &diagnostics, at: location)
            }
        }
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
            if name == "languages" {
                if let language = pairs.first(where: { $0.key.scalarText == "language" }) {
                    diagnostics.append(
                        .error(
                            at: location(language.key), "'language' and 'languages' are both set",
                            hint: "the first of 'languages' is the default language"))
                }
                languagesNode = value
                continue
            }
            if name == "rawHTML" || name == "sitemap" || name == "defaultLanguageInSubfolder" {
                switch FruitParser.mustacheValue(value) {
                case .bool(let flag) where name == "rawHTML": rawHTML = flag
                case .bool(let flag) where name == "sitemap": sitemap = flag
                case .bool(let flag):
                    defaultLanguageInSubfolder = flag
                    if flag && !pairs.contains(where: { $0.key.scalarText == "languages" }) {
                        diagnostics.append(
                            .error(
                                at: location(key),
                                "'defaultLanguageInSubfolder' needs the site's 'languages'",
                                hint: "list them under 'languages', the default first"))
                    }
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
            if name == "images" {
                readImages(value, into: &diagnostics, at: location)
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
                guard LanguageTag.isWellFormed(string) else {
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
}
