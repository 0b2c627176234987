extension FruitParser {
    /// The picture an entry's `image:` names, as written: the scan then reads the file
    /// (`ContentScanner`), and reports what is wrong with it at `location`.
    public struct ImageReference: Sendable, Equatable {
        /// The file's path from the entry's folder, as written: `lemon.jpg`,
        /// `photos/lemon.jpg`, `../shared/lemon.jpg`.
        public var source: String
        /// The text that stands for the picture; empty for a decorative one.
        public var alt: String
        /// Where `src:` is written.
        public var location: SourceLocation
    }

    /// The keys an `image:` map has.
    static let imageKeys = ["src", "alt"]
    private static let imageKeyCandidates = Suggestion.Candidates(imageKeys)

    /// How `image:` is written, for hints.
    static let imageExample = "image: {src: apple.jpg, alt: \"A red apple on a branch\"}"
}

extension FruitParser.FieldReader {
    /// `image`, a map of `src` and `alt`; nil when it is missing or wrong. `alt` is required,
    /// as a page must say what a picture shows to those who cannot see it; `alt: ""` marks
    /// a decorative picture, which says nothing.
    mutating func image() -> FruitParser.ImageReference? {
        guard let node = fields["image"], !node.isNull else { return nil }
        guard case .mapping(let pairs) = node.kind else {
            diagnostics.append(
                .error(
                    at: location(of: node),
                    "'image' must be a map of 'src' and 'alt', not \(node.kindDescription)",
                    hint: "write \(FruitParser.imageExample)"))
            return nil
        }
        var values: [String: YAMLNode] = [:]
        for (key, value) in pairs {
            let name = key.scalarText ?? ""
            guard FruitParser.imageKeys.contains(name) else {
                let guess = Suggestion.closest(to: name, in: FruitParser.imageKeyCandidates)
                diagnostics.append(
                    .error(
                        at: location(of: key), "unknown key '\(name)' in 'image'",
                        hint: guess.map { "did you mean '\($0)'?" }
                            ?? "'image' has 'src' and 'alt'"))
                continue
            }
            values[name] = values[name] ?? value
        }
        let source = imageText(values["src"], key: "src", in: node)
        let alt = imageText(values["alt"], key: "alt", in: node)
        guard let source, let alt else { return nil }
        if source.text.allSatisfy(\.isWhitespace) {
            diagnostics.append(
                .error(at: source.location, "'image.src' is blank", hint: "name the picture's file")
            )
            return nil
        }
        return FruitParser.ImageReference(
            source: source.text, alt: Fold.normalizeNFC(alt.text.trimmingWhitespace()),
            location: source.location)
    }

    /// The one-line string at `key` of the `image` map `node`, with where it is written.
    private mutating func imageText(_ value: YAMLNode?, key: String, in node: YAMLNode) -> (
        text: String, location: SourceLocation
    )? {
        guard let value, !value.isNull else {
            let hint =
                key == "alt"
                ? "say what the picture shows, or write alt: \"\" for a decorative picture"
                : "write \(FruitParser.imageExample)"
            diagnostics.append(
                .error(at: location(of: node), "'image' has no '\(key)'", hint: hint))
            return nil
        }
        guard let text = value.scalarText else {
            diagnostics.append(
                .error(
                    at: location(of: value),
                    "'image.\(key)' must be a string, not \(value.kindDescription)"))
            return nil
        }
        guard Self.isOneLine(text) else {
            diagnostics.append(
                .error(
                    at: location(of: value),
                    "'image.\(key)' must be one line, without line breaks, tabs or control characters"
                ))
            return nil
        }
        return (text, location(of: value))
    }
}
