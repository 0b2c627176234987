extension FruitParser {
    /// Reads the known keys of one entry's front matter, one key at a time, and checks each
    /// value: a reader notes every problem in `diagnostics` and gives nil or an empty value, so
    /// that the parse goes on to find the next problem.
    struct FieldReader {
        /// A value as written, with its line and column in the file.
        typealias Written = (text: String, place: (line: Int, column: Int))

        /// The known keys' values, by key.
        let fields: [String: YAMLNode]
        let path: String
        /// The front matter's YAML, for the columns of a string's pieces.
        let yaml: Substring
        /// The lines before the YAML's first: libyaml counts lines from the block.
        let lineOffset: Int
        /// Every problem found, in the order the keys are read.
        var diagnostics: [Diagnostic] = []
        /// Where each of `yaml`'s lines starts, found on first use.
        private var lineStarts: [Substring.Index] = []

        init(fields: [String: YAMLNode], path: String, yaml: Substring, lineOffset: Int) {
            (self.fields, self.path, self.yaml, self.lineOffset) = (fields, path, yaml, lineOffset)
        }

        func location(of node: YAMLNode) -> SourceLocation {
            SourceLocation(path: path, line: node.line + lineOffset, column: node.column)
        }

        /// The one-line string at `key`, trimmed and composed (NFC), with where it is
        /// written; nil when it is missing, empty, blank or not one line.
        mutating func requiredString(_ key: String) -> (String, SourceLocation)? {
            guard let node = fields[key], !node.isNull else {
                diagnostics.append(
                    .error(
                        at: fields[key].map(location(of:))
                            ?? SourceLocation(path: path, line: 1, column: 1),
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

        /// `emoji`, trimmed and composed (NFC); empty when it is missing or wrong.
        mutating func emoji() -> String {
            guard let node = fields["emoji"], !node.isNull else { return "" }
            guard let text = node.scalarText else {
                diagnostics.append(
                    .error(
                        at: location(of: node),
                        "'emoji' must be a string, not \(node.kindDescription)"
                    ))
                return ""
            }
            let emoji = Fold.normalizeNFC(text.trimmingWhitespace())
            // Shown beside the name on one line, as the name is.
            guard Self.isOneLine(emoji) else {
                diagnostics.append(
                    .error(
                        at: location(of: node),
                        "'emoji' must be one line, without line breaks, tabs or control "
                            + "characters"))
                return ""
            }
            return emoji
        }

        /// The values of `vitamins`, as `strings(at:of:misfit:)` reads them.
        mutating func vitamins() -> [Written] {
            guard let node = fields["vitamins"], !node.isNull else { return [] }
            return strings(at: node, of: "vitamins") { misfit, inList in
                inList
                    ? ("each vitamin must be a string, not \(misfit.kindDescription)", nil)
                    : ("'vitamins' must be a string like 'C, B6' or a list, not a map", nil)
            }
        }

        /// `draft`; false when it is missing or wrong.
        /// `translationKey`, the slug of the default language's entry that a translation whose
        /// file is named otherwise translates (`pomme.fr.md` of `apple.md`); nil when missing
        /// or wrong. Only a translation has one: the default language's entry is what it names.
        mutating func translationKey(inTranslation: Bool, isMultilingual: Bool) -> (
            slug: String, location: SourceLocation
        )? {
            guard let node = fields["translationKey"], !node.isNull,
                let (slug, location) = requiredString("translationKey")
            else { return nil }
            guard inTranslation else {
                diagnostics.append(
                    .error(
                        at: location, "only a translation has a 'translationKey'",
                        hint: isMultilingual
                            ? "this is the default language's entry, which a translation names "
                                + "by its slug: 'translationKey: \(SourceFile.slug(of: path))'"
                            : "list the site's languages under 'languages' in fruitsite.yml"))
                return nil
            }
            guard Slug.isValid(slug) else {
                diagnostics.append(
                    .error(
                        at: location,
                        "'translationKey' must be the slug of the default language's entry",
                        hint: "the slug of 'apple.md' is 'apple'"))
                return nil
            }
            return (slug, location)
        }

        mutating func isDraft() -> Bool {
            guard let node = fields["draft"], !node.isNull else { return false }
            guard case .bool(let value) = FruitParser.mustacheValue(node) else {
                diagnostics.append(
                    .error(at: location(of: node), "'draft' must be true or false"))
                return false
            }
            return value
        }

        /// The values of each of `facets` the entry has, in the order of `facets`, and where
        /// each value is written, one after another.
        /// - Parameters:
        ///   - nodes: The values of the facets other than `vitamins`, by key.
        ///   - vitamins: `vitamins()`, which the `vitamins` facet takes as they are.
        ///   - vitaminTexts: Their texts, the array the fruit keeps too.
        mutating func facets(
            _ facets: [String], nodes: [String: YAMLNode], vitamins: [Written],
            vitaminTexts: [String]
        ) -> ([FacetValues], [FacetPlace]) {
            var facetValues: [FacetValues] = []
            var facetPlaces: [FacetPlace] = []
            for key in facets {
                let written: [Written]
                if key == "vitamins", fields["vitamins"] != nil {
                    written = vitamins
                } else if key != "vitamins", let node = nodes[key], !node.isNull {
                    written = strings(at: node, of: key) { misfit, _ in
                        (
                            "'\(key)' is a facet: its values must be strings, not "
                                + misfit.kindDescription,
                            "write a string like 'red, green' or a list like [red, green]"
                        )
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
            return (facetValues, facetPlaces)
        }

        /// Checks that the category and every facet value make a folder name a file system
        /// takes: each one's slug names a folder of the output.
        /// - Parameter places: Where each of the facet values is written, one after another.
        mutating func checkAddresses(
            category: (String, SourceLocation)?, facetValues: [FacetValues], places: [FacetPlace]
        ) {
            if let (text, location) = category { checkAddress(of: text, at: location, "category") }
            var places = places.makeIterator()
            for values in facetValues {
                for value in values.values {
                    guard let place = places.next() else { break }
                    checkAddress(
                        of: value,
                        at: SourceLocation(path: path, line: place.line, column: place.column),
                        "'\(values.key)' value")
                }
            }
        }

        private mutating func checkAddress(
            of value: String, at location: SourceLocation, _ what: String
        ) {
            // No scalar makes more bytes of slug than it has (`ß` is `ss`, `é` is `e`), and a
            // slug of none is 10 bytes: a value no longer than a folder name needs no slug
            // made, which for a word of another script cost 2% of a clean build.
            guard value.utf8.count > Slug.maximumLength else { return }
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

        /// `date`; nil when it is missing or wrong.
        mutating func date() -> EntryDate? {
            guard let node = fields["date"], !node.isNull else { return nil }
            let date = node.scalarText.flatMap { EntryDate(yaml: $0.trimmingWhitespace()) }
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
            return date
        }

        // MARK: - Lists of strings

        /// The strings written at `node`, a comma-separated string or a list of strings, each
        /// with where it is written: a list's item at its own line and column, a string's
        /// pieces each at its own column where the string is written on its line as it reads,
        /// else at the string's. Trimmed and composed (NFC), the empty ones left out.
        /// - Parameter misfit: The message and hint of the error for an item of the list that
        ///   is no string (`inList`), or for a map in its place.
        private mutating func strings(
            at node: YAMLNode, of key: String,
            misfit: (YAMLNode, _ inList: Bool) -> (message: String, hint: String?)
        ) -> [Written] {
            func place(of node: YAMLNode) -> (line: Int, column: Int) {
                (node.line + lineOffset, node.column)
            }
            func report(_ node: YAMLNode, inList: Bool) {
                let (message, hint) = misfit(node, inList)
                diagnostics.append(.error(at: location(of: node), message, hint: hint))
            }
            var written: [Written] = []
            switch node.kind {
            case .scalar(let text, _):
                let start = verbatimColumn(of: text, at: node)
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
                        report(item, inList: true)
                        continue
                    }
                    written.append((text, place(of: item)))
                }
            case .mapping:
                report(node, inList: false)
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
                            at: SourceLocation(path: path, line: place.line, column: place.column),
                            "each value of '\(key)' must be one line, without line breaks, tabs "
                                + "or control characters"))
                    return nil
                }
                return text.isEmpty || !seen.insert(text).inserted ? nil : (text, place)
            }
        }

        /// The column where `node`'s scalar `text` starts when its line writes it as it reads
        /// (plain, or quoted without escapes), so that a piece of it can be placed by its
        /// offset; nil for a scalar written otherwise (folded over lines, escaped, an alias).
        private mutating func verbatimColumn(of text: String, at node: YAMLNode) -> Int? {
            // By bytes: splitting the YAML into lines of Characters had cost 34,000
            // instructions an entry, a tenth of parsing it.
            if lineStarts.isEmpty {
                let bytes = yaml.utf8
                lineStarts = [bytes.startIndex]
                for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
                    lineStarts.append(bytes.index(after: index))
                }
            }
            guard node.line >= 1, node.line <= lineStarts.count, node.column >= 1 else {
                return nil
            }
            let end =
                node.line < lineStarts.count
                ? yaml.utf8.index(before: lineStarts[node.line]) : yaml.endIndex
            let line = yaml[lineStarts[node.line - 1]..<end].unicodeScalars
            var rest = line.dropFirst(node.column - 1)
            guard line.count >= node.column else { return nil }
            var column = node.column
            if let quote = rest.first, quote == "\"" || quote == "'" {
                rest = rest.dropFirst()
                column += 1
            }
            return rest.starts(with: text.unicodeScalars) ? column : nil
        }

        /// Whether `text` has no line break, tab or control character: shown on one line
        /// everywhere. (Characters HTML cannot hold are reported apart, as in any value.)
        static func isOneLine(_ text: String) -> Bool {
            // The control characters (Cc) are C0, DEL and C1, by Unicode's stability policy:
            // compared by value, since looking up each scalar's category cost an Arabic
            // catalog's parse 2% of its build.
            !text.unicodeScalars.contains {
                ($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
                    && !HTMLCharacters.isForbidden($0) || $0 == "\u{2028}" || $0 == "\u{2029}"
            }
        }
    }
}
