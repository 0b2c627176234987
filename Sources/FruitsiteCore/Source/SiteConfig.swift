/// The optional `fruitsite.yml` at the project root.
public struct SiteConfig: Sendable, Equatable {
    public var title = "Fruit Catalog"
    public var description = "Fruits by name and category, with a search that runs in your browser."
    /// The absolute URL the site is served from, such as `https://example.org/fruits/`, or
    /// empty. Only `sitemap.xml`, `robots.txt`, canonical links and `404.html` use it:
    /// every other link is relative.
    public var baseURL = ""
    /// The `lang` attribute of every page.
    public var language = "en"
    /// Let raw HTML and any link scheme in Markdown through (off: libcmark's safe mode).
    public var rawHTML = false

    public static let keys = ["title", "description", "baseURL", "language", "rawHTML"]

    /// The defaults, used when there is no config file.
    public init() {}

    /// Reads a config file's text; unknown keys and wrong types are errors.
    /// - Parameters:
    ///   - text: The YAML text.
    ///   - path: The path shown in diagnostics.
    /// - Throws: `BuildFailure` listing every problem.
    public init(yaml text: String, path: String) throws(BuildFailure) {
        var diagnostics: [Diagnostic] = []
        func location(_ node: YAMLNode) -> SourceLocation {
            SourceLocation(path: path, line: node.line, column: node.column)
        }
        let root: YAMLNode?
        do {
            root = try YAMLParser().parse(text)
        } catch {
            throw BuildFailure([
                .error(
                    at: SourceLocation(path: path, line: error.line, column: error.column),
                    "invalid YAML: \(error.message)")
            ])
        }
        guard let root else { return }
        guard case .mapping(let pairs) = root.kind else {
            throw BuildFailure([.error(at: location(root), "the config must be a map of keys")])
        }
        for (key, value) in pairs {
            let name = key.scalarText ?? ""
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
            if name == "rawHTML" {
                switch FruitParser.mustacheValue(value) {
                case .bool(let flag): rawHTML = flag
                default:
                    diagnostics.append(
                        .error(at: location(value), "'rawHTML' must be true or false"))
                }
                continue
            }
            guard let string = value.scalarText, !value.isNull else {
                diagnostics.append(
                    .error(
                        at: location(value),
                        "'\(name)' must be a string, not \(value.kindDescription)"))
                continue
            }
            switch name {
            case "title": title = string
            case "description": description = string
            case "language": language = string
            default:
                baseURL = string
                if !baseURL.isEmpty
                    && !(baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://"))
                {
                    diagnostics.append(
                        .error(
                            at: location(value), "'baseURL' must be an absolute http(s) URL",
                            hint: "for example 'https://example.org/fruits/'"))
                }
                if !baseURL.isEmpty && !baseURL.hasSuffix("/") { baseURL += "/" }
            }
        }
        if diagnostics.containsErrors { throw BuildFailure(diagnostics) }
    }

    /// The path part of `baseURL` (`/fruits/`), or `/` when there is none.
    public var basePath: String {
        guard let schemeEnd = baseURL.range(of: "://") else { return "/" }
        let rest = baseURL[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...])
    }

    /// Mixes every setting into a page's input hash; a new setting must be added here.
    func hash(into hasher: inout StableHasher) {
        for text in [title, description, baseURL, language] { hasher.combine(text) }
        hasher.combine(UInt64(rawHTML ? 1 : 0))
    }
}
