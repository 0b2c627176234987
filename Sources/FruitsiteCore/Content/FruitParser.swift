import Mustache

/// Turns one content file into a `Fruit`: decodes it, splits off the front matter,
/// reads the YAML with libyaml and renders the body with libcmark.
public struct FruitParser: Sendable {
    /// The keys fruitsite reads itself; every other key goes to `fruit.params`.
    public static let knownKeys = ["name", "emoji", "category", "vitamins", "draft", "date"]
    /// The known keys as "did you mean" compares them, made once.
    private static let knownKeyCandidates = Suggestion.Candidates(knownKeys)

    public var markdown: CommonMark
    /// The front-matter keys whose values are facets (`SiteConfig.facets`).
    public var facets: [String]

    /// Creates a parser.
    /// - Parameters:
    ///   - markdown: How entry bodies are rendered.
    ///   - facets: The keys whose values are facets.
    public init(markdown: CommonMark = CommonMark(), facets: [String] = SiteConfig().facets) {
        self.markdown = markdown
        self.facets = facets
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

        if !Slug.isValid(file.slug) {
            diagnostics.append(
                .error(
                    at: fileLocation,
                    "file name '\(file.slug).md' is not a valid slug",
                    hint: "slugs look like 'apple' or 'blood-orange'; "
                        + "rename the file to '\(Slug.make(from: file.slug)).md'"))
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
        let openingLocation = SourceLocation(path: file.path, line: 1, column: 1)

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

        func requiredString(_ key: String) -> (String, SourceLocation)? {
            guard let node = fields[key], !node.isNull else {
                diagnostics.append(
                    .error(
                        at: fields[key].map(location(of:)) ?? openingLocation,
                        fields[key] == nil
                            ? "missing required key '\(key)'" : "required key '\(key)' is empty",
                        hint: "add a line like '\(key): …' to the front matter"))
                return nil
            }
            guard let text = node.scalarText else {
                diagnostics.append(
                    .error(
                        at: location(of: node),
                        "'\(key)' must be a string, not \(node.kindDescription)"))
                return nil
            }
            if text.allSatisfy(\.isWhitespace) {
                diagnostics.append(.error(at: location(of: node), "'\(key)' is blank"))
                return nil
            }
            // Shown on one line everywhere: a title, a list's item, a line of `search`.
            if !Self.isOneLine(text) {
                diagnostics.append(
                    .error(
                        at: location(of: node),
                        "'\(key)' must be one line, without line breaks, tabs or control characters"
                    ))
                return nil
            }
            // Trimmed as facet values and the emoji are: `"Zed "` is the category `Zed`.
            return (Fold.normalizeNFC(text.trimmingWhitespace()), location(of: node))
        }

        let name = requiredString("name")
        let category = requiredString("category")

        var emoji = ""
        if let node = fields["emoji"], !node.isNull {
            if let text = node.scalarText {
                emoji = Fold.normalizeNFC(text.trimmingWhitespace())
                // Shown beside the name on one line, as the name is.
                if !Self.isOneLine(emoji) {
                    diagnostics.append(
                        .error(
                            at: location(of: node),
                            "'emoji' must be one line, without line breaks, tabs or control "
                                + "characters"))
                    emoji = ""
                }
            } else {
                diagnostics.append(
                    .error(
                        at: location(of: node),
                        "'emoji' must be a string, not \(node.kindDescription)"
                    ))
            }
        }

        /// The strings written at `node`, a comma-separated string or a list of strings, each
        /// with where it is written: a list's item at its own line and column, a string's
        /// pieces each at its own column where the string is written on its line as it reads,
        /// else at the string's. Trimmed and composed (NFC), the empty ones left out.
        /// `misfit` is the error for an item of the list that is no string (`inList`), or for a
        /// map in its place.
        var yamlLines: [Substring] = []
        func strings(
            at node: YAMLNode, of key: String, misfit: (YAMLNode, _ inList: Bool) -> Diagnostic
        ) -> [(
            text: String, place: (line: Int, column: Int)
        )] {
            func place(of node: YAMLNode) -> (line: Int, column: Int) {
                (node.line + lineOffset, node.column)
            }
            var written: [(text: String, place: (line: Int, column: Int))] = []
            switch node.kind {
            case .scalar(let text, _):
                let start = Self.verbatimColumn(
                    of: text, at: node, in: frontMatter.yaml, lines: &yamlLines)
                written = text.split(separator: ",").map { piece in
                    guard let start else { return (String(piece), place(of: node)) }
                    let scalars = text.unicodeScalars
                    let offset =
                        scalars.distance(from: scalars.startIndex, to: piece.startIndex)
                        + piece.unicodeScalars.prefix { $0.properties.isWhitespace }.count
                    return (String(piece), (node.line + lineOffset, start + offset))
                }
            case .sequence(let items):
                // A null item (`[red, ~]`) is no value, as a null key is none.
                for item in items where !item.isNull {
                    guard let text = item.scalarText else {
                        diagnostics.append(misfit(item, true))
                        continue
                    }
                    written.append((text, place(of: item)))
                }
            case .mapping:
                diagnostics.append(misfit(node, false))
            }
            // Each value once, as first written: a fruit is listed once on a value's page,
            // and shows its vitamins as it is listed.
            var seen = Set<String>()
            return written.compactMap { text, place in
                let text = Fold.normalizeNFC(text.trimmingWhitespace())
                // A value is a menu's option and a line of `search`, as a category is.
                guard Self.isOneLine(text) else {
                    diagnostics.append(
                        .error(
                            at: SourceLocation(
                                path: file.path, line: place.line, column: place.column),
                            "each value of '\(key)' must be one line, without line breaks, tabs "
                                + "or control characters"))
                    return nil
                }
                return text.isEmpty || !seen.insert(text).inserted ? nil : (text, place)
            }
        }

        var vitamins: [(text: String, place: (line: Int, column: Int))] = []
        if let node = fields["vitamins"], !node.isNull {
            vitamins = strings(at: node, of: "vitamins") { misfit, inList in
                inList
                    ? .error(
                        at: location(of: misfit),
                        "each vitamin must be a string, not \(misfit.kindDescription)")
                    : .error(
                        at: location(of: misfit),
                        "'vitamins' must be a string like 'C, B6' or a list, not a map")
            }
        }

        var isDraft = false
        if let node = fields["draft"], !node.isNull {
            switch Self.mustacheValue(node) {
            case .bool(let value): isDraft = value
            default:
                diagnostics.append(
                    .error(at: location(of: node), "'draft' must be true or false"))
            }
        }

        // One array for the fruit's vitamins and the facet's values: every entry keeps
        // them, and apart they were an array more for each.
        let vitaminTexts = vitamins.map(\.text)
        var facetValues: [FacetValues] = []
        var facetPlaces: [FacetPlace] = []
        for key in facets {
            let written: [(text: String, place: (line: Int, column: Int))]
            if key == "vitamins", fields["vitamins"] != nil {
                written = vitamins
            } else if key != "vitamins", let node = facetNodes[key], !node.isNull {
                written = strings(at: node, of: key) { misfit, _ in
                    .error(
                        at: location(of: misfit),
                        "'\(key)' is a facet: its values must be strings, not "
                            + misfit.kindDescription,
                        hint: "write a string like 'red, green' or a list like [red, green]")
                }
            } else {
                continue
            }
            if !written.isEmpty {
                let values = key == "vitamins" ? vitaminTexts : written.map(\.text)
                facetValues.append(FacetValues(key: key, values: values))
                facetPlaces += written.map {
                    FacetPlace(line: $0.place.line, column: $0.place.column)
                }
            }
        }

        // A category's or a facet value's slug names a folder of the output, and no file
        // system takes a longer name.
        func checkAddress(of value: String, at location: SourceLocation, _ what: String) {
            let slug = Slug.make(from: value)
            guard slug.utf8.count > Slug.maximumLength else { return }
            diagnostics.append(
                .error(
                    at: location,
                    "the \(what) '\(value.prefix(40))…' makes a folder name of "
                        + "\(slug.utf8.count) bytes, more than the \(Slug.maximumLength) a "
                        + "file system allows",
                    hint: "shorten it"))
        }
        if let (text, location) = category { checkAddress(of: text, at: location, "category") }
        var places = facetPlaces.makeIterator()
        for values in facetValues {
            for value in values.values {
                guard let place = places.next() else { break }
                checkAddress(
                    of: value,
                    at: SourceLocation(path: file.path, line: place.line, column: place.column),
                    "'\(values.key)' value")
            }
        }

        var date: EntryDate?
        if let node = fields["date"], !node.isNull {
            date = node.scalarText.flatMap { EntryDate(yaml: $0.trimmingWhitespace()) }
            if date == nil {
                diagnostics.append(
                    .error(
                        at: location(of: node),
                        "'date' must be \(EntryDate.expectedForm)",
                        hint:
                            "a timestamp may end with its zone, such as +02:00; without one it is "
                            + "UTC, and in UTC it must fall in the years 0001 to 9999"
                    ))
            }
        }

        guard let name, let category, !diagnostics.containsErrors else {
            return Result(diagnostics: diagnostics)
        }
        let body = markdown.render(String(frontMatter.body))
        return Result(
            fruit: Fruit(
                slug: file.slug, name: name.0, emoji: emoji, category: category.0,
                vitamins: vitaminTexts, isDraft: isDraft, date: date,
                facets: facetValues),
            details: FruitDetails(bodyHTML: body.html, params: params),
            categoryLocation: category.1, facetPlaces: facetPlaces,
            siteLinks: body.siteLinks.map {
                $0.at(line: $0.line + frontMatter.bodyFirstLine - 1, column: $0.column)
            },
            diagnostics: diagnostics)
    }

    // MARK: - YAML to template values

    /// Converts YAML to template data with YAML 1.2's core schema: plain `true`, `false`,
    /// `null`, integers and floats become typed values; anything quoted stays a string.
    /// The number a plain scalar is in YAML 1.2's core schema, or nil: a decimal, `0o` octal
    /// or `0x` hex integer, or a decimal float (`-1.5e3`, `.5`). An integer too large for 64
    /// bits stays as written rather than losing digits. Read by hand: a `Regex` literal was
    /// parsed again at each use, a third of a clean build's time.
    static func number(_ text: String) -> MustacheValue? {
        let bytes = Array(text.utf8)
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        func allDigits(_ part: ArraySlice<UInt8>, _ accepts: (UInt8) -> Bool) -> Bool {
            !part.isEmpty && part.allSatisfy(accepts)
        }
        let radixes: [(prefix: String, radix: Int, accepts: (UInt8) -> Bool)] = [
            ("0o", 8, { (0x30...0x37).contains($0) }),
            ("0x", 16, { isDigit($0) || (0x41...0x46).contains($0 & 0xDF) }),
        ]
        for (prefix, radix, accepts) in radixes where bytes.starts(with: prefix.utf8) {
            let digits = bytes.dropFirst(2)
            guard allDigits(digits, accepts) else { return nil }
            return Int(String(decoding: digits, as: UTF8.self), radix: radix).map(
                MustacheValue.int) ?? .string(text)
        }
        var rest = bytes[...]
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            rest = rest.dropFirst()
        }
        if allDigits(rest, isDigit) { return Int(text).map(MustacheValue.int) ?? .string(text) }
        // A float: digits with a point (digits on at least one side), then maybe an exponent.
        let exponent = rest.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = rest[..<(exponent ?? rest.endIndex)]
        let parts = mantissa.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(isDigit) }),
            parts.contains(where: { !$0.isEmpty })
        else { return nil }
        if let exponent {
            var power = rest[(exponent + 1)...]
            if let sign = power.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                power = power.dropFirst()
            }
            guard allDigits(power, isDigit) else { return nil }
        }
        return Double(text).flatMap { $0.isFinite ? .double($0) : nil }
    }

    /// Whether `text` has no line break, tab or control character: shown on one line
    /// everywhere. (Characters HTML cannot hold are reported apart, as in any value.)
    static func isOneLine(_ text: String) -> Bool {
        !text.unicodeScalars.contains {
            ($0.properties.generalCategory == .control && !HTMLCharacters.isForbidden($0))
                || $0 == "\u{2028}" || $0 == "\u{2029}"
        }
    }

    static func mustacheValue(_ node: YAMLNode) -> MustacheValue {
        switch node.kind {
        case .scalar(let text, let isPlain):
            guard isPlain else { return .string(Fold.normalizeNFC(text)) }
            if node.isNull { return .null }
            switch text {
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            default: break
            }
            return number(text) ?? .string(Fold.normalizeNFC(text))
        case .sequence(let items):
            return .array(items.map(mustacheValue))
        case .mapping(let pairs):
            var object = MustacheObject()
            for (key, value) in pairs {
                object[Fold.normalizeNFC(key.scalarText ?? "")] = mustacheValue(value)
            }
            return .object(object)
        }
    }
}

extension FruitParser {
    /// The column where `node`'s scalar `text` starts when its line writes it as it reads
    /// (plain, or quoted without escapes), so that a piece of it can be placed by its offset;
    /// nil for a scalar written otherwise (folded over lines, escaped, an alias).
    /// - Parameter lines: `yaml`'s lines, split on first use.
    static func verbatimColumn(
        of text: String, at node: YAMLNode, in yaml: Substring, lines: inout [Substring]
    ) -> Int? {
        if lines.isEmpty { lines = yaml.split(separator: "\n", omittingEmptySubsequences: false) }
        guard node.line >= 1, node.line <= lines.count else { return nil }
        let line = lines[node.line - 1].unicodeScalars
        guard node.column >= 1, node.column <= line.count else { return nil }
        var rest = line.dropFirst(node.column - 1)
        var column = node.column
        if let quote = rest.first, quote == "\"" || quote == "'" {
            rest = rest.dropFirst()
            column += 1
        }
        return rest.starts(with: text.unicodeScalars) ? column : nil
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else {
            return ""
        }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[start...end])
    }
}
