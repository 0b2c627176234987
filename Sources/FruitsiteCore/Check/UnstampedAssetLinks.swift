/// Finds where the templates write an asset's address by its own name
/// (`href="{{root}}assets/site.css"`) rather than by the `assets` variable: what `fruitsite
/// check` warns about. The file the address names is the one published under its own name,
/// which a host cannot cache for long, and which a page open across a deploy may load from
/// the next build.
///
/// An address is looked for where one starts: `assets/` at the start of the text or after
/// `}}`, `/`, a quote, `=` or `(`, up to a quote, white space, `?`, `#`, `)`, `,`, `;`, `<`,
/// `>`, `{` or `}`; not in a Mustache comment (`{{! … }}`) or an HTML one (`<!-- … -->`),
/// which load nothing. Only assets that have a stamped name and a variable are named.
struct UnstampedAssetLinks {
    /// The variable's name of each asset that has a stamped name, by the asset's path.
    private let variables: [String: String]
    private let templatesDirectory: String

    init(theme: TemplateLoader.Theme, templatesDirectory: String) {
        let names = Set(theme.assetNames.variables.map(\.name))
        var variables: [String: String] = [:]
        for asset in theme.assets where theme.assetNames.linked[asset.path] != asset.path {
            let name = AssetNames.variableName(of: asset.path)
            if names.contains(name) {
                variables[asset.path] = "assets." + name.joined(separator: ".")
            }
        }
        self.variables = variables
        self.templatesDirectory = templatesDirectory
    }

    /// A warning for each such address in `sources` (templates' texts by name), in the order
    /// of their files, lines and columns.
    func warnings(in sources: [String: String]) -> [Diagnostic] {
        guard !variables.isEmpty else { return [] }
        var warnings: [Diagnostic] = []
        for name in sources.keys.sorted() {
            let text = Array(sources[name]!.utf8)
            for (offset, path) in addresses(in: text) {
                let (line, column) = AssetReference.position(of: offset, in: text)
                warnings.append(
                    .warning(
                        at: SourceLocation(
                            path: "\(templatesDirectory)/\(name).mustache", line: line,
                            column: column),
                        "'\(path)' is the asset's unstamped name, published as well: a "
                            + "host cannot cache it for long, and a page open across a deploy "
                            + "may load it from another build",
                        hint: "write {{\(variables[path]!)}} in its place: the URL of its "
                            + "stamped name from the page, the way to the root included"))
            }
        }
        return warnings
    }

    /// The byte offset and the path of each address of an asset `variables` names in `text`.
    private func addresses(in text: [UInt8]) -> [(offset: Int, path: String)] {
        let folder = Array(AssetNames.folder.utf8)
        let starts = Set("}/\"'=(".utf8)
        let ends = Set("\"' \t\r\n?#),;<>{}".utf8)
        var found: [(offset: Int, path: String)] = []
        var index = 0
        while index < text.count {
            if let end = commentEnd(in: text, at: index) {
                index = end
                continue
            }
            guard text[index...].starts(with: folder),
                index == 0 || starts.contains(text[index - 1])
            else {
                index += 1
                continue
            }
            let end = text[index...].firstIndex(where: ends.contains) ?? text.count
            let path = String(decoding: text[index..<end], as: UTF8.self)
            if variables[path] != nil { found.append((index, path)) }
            index = end
        }
        return found
    }

    /// Just past the Mustache or HTML comment that starts at `index`, if one does.
    private func commentEnd(in text: [UInt8], at index: Int) -> Int? {
        for (open, close) in [("{{!", "}}"), ("<!--", "-->")]
        where text[index...].starts(with: open.utf8) {
            let close = Array(close.utf8)
            var end = index + open.utf8.count
            while end < text.count, !text[end...].starts(with: close) { end += 1 }
            return min(end + close.count, text.count)
        }
        return nil
    }
}
