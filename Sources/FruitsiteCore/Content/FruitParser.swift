import Mustache

/// Turns one content file into a `Fruit`: decodes it, splits off the front matter,
/// reads the YAML with libyaml and renders the body with libcmark.
public struct FruitParser: Sendable {
    /// The keys fruitsite reads itself; every other key goes to `fruit.params`.
    public static let knownKeys = [
        "name", "emoji", "category", "vitamins", "draft", "date", "image", "translationKey",
    ]
    /// The known keys as "did you mean" compares them, made once.
    private static let knownKeyCandidates = Suggestion.Candidates(knownKeys)

    public var markdown: CommonMark
    /// The front-matter keys whose values are facets (`SiteConfig.facets`).
    public var facets: [String]
    /// The codes of the site's languages, lowercased, when it has several: a file name may
    /// end in one of these (`apple.fr.md`), and in no other.
    public var languages: [String] = []

    /// Creates a parser.
    /// - Parameters:
    ///   - markdown: How entry bodies are rendered.
    ///   - facets: The keys whose values are facets.
    ///   - languages: The codes of the site's languages, when it has several.
    public init(
        markdown: CommonMark = CommonMark(), facets: [String] = SiteConfig().facets,
        languages: [String] = []
    ) {
        self.markdown = markdown
        self.facets = facets
        self.languages = languages
    }

    /// The parsed entry, or nil when the file has errors, with every problem found in it.
    public struct Result: Sendable {
        public var fruit: Fruit?
        public var details: FruitDetails?
        /// Where `category:` is written, for diagnostics about the category.
        public var categoryLocation: SourceLocation?
        /// Where each of the fruit's facet values is written, for diagnostics about them:
        /// the values of `fruit.facets` one after another, in their order.
        public var facetPlaces: [FacetPlace] = []
        /// The body's `fruit:` and `category:` links, at their lines in the file.
        public var siteLinks: [SiteLink] = []
        /// The picture `image:` names, which the scan reads into `fruit.image`.
        public var image: ImageReference?
        /// The slug of the default language's entry a translation translates, when its
        /// file's name differs (`translationKey:`), with where it is written.
        public var translationKey: (slug: String, location: SourceLocation)?
        public var diagnostics: [Diagnostic]
    }

    /// Parses one content file, collecting every problem rather than stopping at the first.
    /// - Parameter file: The file's path and bytes.
    public func parse(_ file: SourceFile) -> Result {
        var diagnostics: [Diagnostic] = []
        let fileLocation = SourceLocation(path: file.path)
        func fail(_ diagnostic: Diagnostic) -> Result {
            Result(diagnostics: diagnostics + [diagnostic])
        }

        func invalidSlug(_ name: String) -> Diagnostic {
            .error(
                at: fileLocation, "file name '\(name).md' is not a valid slug",
                hint: "slugs look like 'apple' or 'blood-orange'; "
                    + "rename the file to '\(Slug.make(from: name)).md'")
        }
        if let code = SourceFile.language(of: file.path), !languages.contains(code.lowercased()) {
            // A last part that has a tag's shape but names no language is part of the name
            // (`blood.orange.md`), as it was before sites had languages.
            diagnostics.append(
                !isKnownLanguage(String(code))
                    ? invalidSlug("\(file.slug).\(code)")
                    : .error(
                        at: fileLocation,
                        "'\(code)' in the file name is not a language of the site",
                        hint: languages.isEmpty
                            ? "list the site's languages under 'languages' in fruitsite.yml, or "
                                + "rename the file to '\(file.slug).md'"
                            : "the site's languages are \(languages.joined(separator: ", "))"))
        } else if !Slug.isValid(file.slug) {
            diagnostics.append(invalidSlug(file.slug))
        }

        let text: String
        do {
            text = try SourceText(bytes: file.bytes).text
        } catch {
            return fail(
                .error(
                    at: SourceLocation(path: file.path, line: error.line, column: error.column),
                    "the file is not valid UTF-8", hint: "save it with UTF-8 encoding"))
        }

        let frontMatter: FrontMatter
        do {
            frontMatter = try FrontMatter(splitting: text)
        } catch {
            switch error {
            case .empty:
                return fail(
                    .error(
                        at: fileLocation, "the file is empty",
                        hint: "start it with front matter: '---', 'name: …', 'category: …', '---'"))
            case .missingOpeningDelimiter:
                return fail(
                    .error(
                        at: SourceLocation(path: file.path, line: 1, column: 1),
                        "the file does not start with front matter",
                        hint: "the first line must be '---', followed by YAML and another '---'"))
            case .missingClosingDelimiter(let line):
                return fail(
                    .error(
                        at: SourceLocation(path: file.path, line: line, column: 1),
                        "the front matter is never closed",
                        hint: "did you forget the closing '---'?"))
            }
        }

        let lineOffset = frontMatter.yamlFirstLine - 1
        func location(of node: YAMLNode) -> SourceLocation {
            SourceLocation(path: file.path, line: node.line + lineOffset, column: node.column)
        }

        let root: YAMLNode?
        do {
            root = try YAMLParser().parse(String(frontMatter.yaml))
        } catch {
            return fail(
                .error(
                    at: SourceLocation(
                        path: file.path, line: error.line + lineOffset, column: error.column),
                    "invalid YAML: \(error.message)"))
        }

        var fields: [String: YAMLNode] = [:]
        var params = MustacheObject()
        // The values of facets other than `vitamins`, which are params as well.
        var facetNodes: [String: YAMLNode] = [:]
        switch root?.kind {
        case nil:
            break
        case .mapping(let pairs)?:
            for (key, value) in pairs {
                guard let name = key.scalarText.map(Fold.normalizeNFC) else {
                    diagnostics.append(
                        .error(
                            at: location(of: key),
                            "a key must be a string, not \(key.kindDescription)"))
                    continue
                }
                // Reported below, with the keys repeated deeper down; the first one stands.
                if fields[name] != nil || params[name] != nil { continue }
                if Self.knownKeys.contains(name) {
                    fields[name] = value
                } else {
                    params[name] = Self.mustacheValue(value)
                    if facets.contains(name) { facetNodes[name] = value }
                    // A facet's key is known, however close to another it is.
                    if !facets.contains(name),
                        let known = Suggestion.closest(to: name, in: Self.knownKeyCandidates)
                    {
                        diagnostics.append(
                            .warning(
                                at: location(of: key),
                                "unknown key '\(name)' is passed to templates as fruit.params.\(name)",
                                hint: "did you mean '\(known)'?"))
                    }
                }
            }
        case .some:
            return fail(
                .error(
                    at: location(of: root!),
                    "front matter must be a map of keys to values, not \(root!.kindDescription)",
                    hint: "write one 'key: value' per line"))
        }
        diagnostics += root?.forbiddenCharacterErrors(at: location(of:)) ?? []
        if let first = HTMLCharacters.firstForbidden(in: frontMatter.body) {
            diagnostics.append(
                HTMLCharacters.error(
                    at: SourceLocation(
                        path: file.path, line: first.line + frontMatter.bodyFirstLine - 1,
                        column: first.column),
                    in: "the body", first.scalar, count: first.count))
        }
        for (key, first) in root?.repeatedKeys ?? [] {
            diagnostics.append(
                .error(
                    at: location(of: key), "duplicate key '\(key.scalarText ?? "")'",
                    hint: "it is set at line \(first.line + lineOffset) already"))
        }

        // MARK: Fields

        var reader = FieldReader(
            fields: fields, path: file.path, yaml: frontMatter.yaml, lineOffset: lineOffset)
        let name = reader.requiredString("name")
        let category = reader.requiredString("category")
        let emoji = reader.emoji()
        let vitamins = reader.vitamins()
        // One array for the fruit's vitamins and the facet's values: every entry keeps
        // them, and apart they were an array more for each.
        let vitaminTexts = vitamins.map(\.text)
        let isDraft = reader.isDraft()
        let (facetValues, facetPlaces) = reader.facets(
            facets, nodes: facetNodes, vitamins: vitamins, vitaminTexts: vitaminTexts)
        reader.checkAddresses(category: category, facetValues: facetValues, places: facetPlaces)
        let date = reader.date()
        let image = reader.image()
        let translationKey = reader.translationKey(
            inTranslation: SourceFile.language(of: file.path).map {
                languages.dropFirst().contains($0.lowercased())
            } ?? false,
            isMultilingual: !languages.isEmpty)
        diagnostics += reader.diagnostics

        guard let name, let category, !diagnostics.containsErrors else {
            return Result(diagnostics: diagnostics)
        }
        let body = markdown.render(String(frontMatter.body))
        return Result(
            fruit: Fruit(
                slug: file.slug, name: name.0, emoji: emoji, category: category.0,
                vitamins: vitaminTexts, isDraft: isDraft, date: date,
                facets: facetValues),
            details: FruitDetails(body: body.html, params: params),
            categoryLocation: category.1, facetPlaces: facetPlaces,
            siteLinks: body.siteLinks.map {
                $0.at(line: $0.line + frontMatter.bodyFirstLine - 1, column: $0.column)
            },
            image: image, translationKey: translationKey, diagnostics: diagnostics)
    }
}
