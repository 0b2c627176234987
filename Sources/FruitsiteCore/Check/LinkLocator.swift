/// Where each link that leads nowhere, or hreflang alternate that is wrong, is written, for
/// `check`'s warnings: the entry whose page it is on, or the template, at its line and column.
struct LinkLocator {
    /// The templates folder as the user named it, for locations.
    let templatesDirectory: String
    /// Where entries are read again, for the place of a link in a body.
    let fileSystem: FileSystem
    let theme: TemplateLoader.Theme
    let model: SiteModel
    /// The folder of the model's pages in the output folder, which the pages' paths start
    /// with (`LanguageScope.prefix`).
    var prefix = ""

    /// A warning for each link of `broken`, at the content file or template that holds it,
    /// with the pages it breaks on, in the order of their locations.
    func warnings(for broken: [LinkChecker.Broken]) -> [Diagnostic] {
        Self.warnings(for: broken) { _ in self }
    }

    /// `warnings(for:)` of the pages of several models, each page's links looked for by the
    /// locator `locator` gives for it (its language's, in a site of several): one warning for
    /// each place and message, whichever language's pages it is found on.
    static func warnings(
        for broken: [LinkChecker.Broken], locating locator: (_ page: String) -> LinkLocator
    ) -> [Diagnostic] {
        // How many times each link has been met on each page so far: the third use of a
        // link on a page is looked for as the third place it is written.
        var uses: [String: Int] = [:]
        let placed = broken.map { broken in
            let use = uses["\(broken.page)\u{0}\(broken.link)", default: 0]
            uses["\(broken.page)\u{0}\(broken.link)"] = use + 1
            let (location, written) = locator(broken.page).source(
                of: broken.link, on: broken.page, use: use)
            return Placed(
                location: location, page: broken.page,
                message: "link '\(written)' leads nowhere: \(broken.reason)")
        }
        return Self.warnings(for: placed)
    }

    /// A warning for each problem of the pages' hreflang alternates, at the content file or
    /// template that writes the alternate it is about, with the pages it is found on, in the
    /// order of their locations.
    func warnings(for problems: [AlternateChecker.Problem]) -> [Diagnostic] {
        Self.warnings(for: problems) { _ in self }
    }

    /// `warnings(for:)` of the alternates of the pages of several models, as
    /// `warnings(for:locating:)` places links.
    static func warnings(
        for problems: [AlternateChecker.Problem],
        locating locator: (_ page: String) -> LinkLocator
    ) -> [Diagnostic] {
        // A page's problems are often about one alternate: it is looked for once.
        var sources: [String: SourceLocation] = [:]
        let placed = problems.map { problem in
            let key = "\(problem.page)\u{0}\(problem.link)\u{0}\(problem.use)"
            let location =
                sources[key]
                ?? locator(problem.page).source(
                    of: problem.link, on: problem.page, use: problem.use
                ).0
            sources[key] = location
            return Placed(
                location: location, page: problem.page, message: problem.message,
                hint: problem.hint)
        }
        return Self.warnings(for: placed)
    }

    /// A problem found on a page, and where it is written.
    private struct Placed {
        var location: SourceLocation
        var page: String
        var message: String
        var hint: String?
    }

    /// One warning for each place and message, which names the pages it was found on, in
    /// the order of their locations.
    private static func warnings(for placed: [Placed]) -> [Diagnostic] {
        var pagesOf: [String: [String]] = [:]
        var order: [Placed] = []
        for placed in placed {
            let key = "\(placed.location)\u{0}\(placed.message)"
            if pagesOf[key] == nil { order.append(placed) }
            if pagesOf[key]?.last != placed.page { pagesOf[key, default: []].append(placed.page) }
        }
        return order.sorted { $0.location < $1.location }.map { placed in
            let pages = pagesOf["\(placed.location)\u{0}\(placed.message)"]!
            let more = pages.count > 1 ? " and \(pages.count - 1) more" : ""
            return .warning(
                at: placed.location, placed.message + " (on \(pages[0])\(more))",
                hint: placed.hint)
        }
    }

    /// Where a link of a page is written, and how: the fruit's own body for a link on its page,
    /// else the templates (a template writes `{{root}}about/` where the page shows
    /// `../../about/`); else, unlocated, the fruit's file or the templates folder. `use`
    /// counts the uses of the link on the page before this one: it picks that place among
    /// those where the link is written, or the last.
    private func source(of link: String, on page: String, use: Int) -> (
        SourceLocation, written: String
    ) {
        var candidates: [(path: String, text: Substring, firstLine: Int, isMarkdown: Bool)] = []
        var fallback = SourceLocation(path: templatesDirectory)
        let parts = page.dropFirst(page.hasPrefix(prefix) ? prefix.count : 0).split(separator: "/")
        if parts.count == 3, parts[0] == "fruits",
            let position = model.catalogPositions.first(where: {
                model[position: $0].fruit.slug == parts[1]
            })
        {
            let path = model[position: position].path
            fallback = SourceLocation(path: path)
            // The body alone: the front matter's text is data, which writes no link.
            // Decoded as the parser decodes it: without a BOM, with `\n` line endings.
            if let bytes = try? fileSystem.read(path, .max),
                let text = try? SourceText(bytes: bytes).text,
                let split = try? FrontMatter(splitting: text)
            {
                if let place = Self.siteLink(
                    link, use: use, in: split.body, from: split.bodyFirstLine, of: path)
                {
                    return place
                }
                candidates.append((path, split.body, split.bodyFirstLine, isMarkdown: true))
            }
        }
        for name in theme.sources.keys.sorted() {
            let text = theme.sources[name]![...]
            candidates.append(
                (templatesDirectory + "/" + name + ".mustache", text, 1, isMarkdown: false))
        }
        var relative = Substring(link)
        while relative.hasPrefix("../") || relative.hasPrefix("./") {
            relative = relative.drop { $0 == "." }.dropFirst()
        }
        let spellings = relative.isEmpty ? [link] : [link, String(relative)]
        for spelling in spellings {
            var places: [SourceLocation] = []
            for candidate in candidates {
                places += Self.places(
                    of: spelling, in: candidate.text, isMarkdown: candidate.isMarkdown
                ).map {
                    SourceLocation(
                        path: candidate.path, line: $0.line + candidate.firstLine - 1,
                        column: $0.column)
                }
            }
            if let place = places.isEmpty ? nil : places[min(use, places.count - 1)] {
                return (place, spelling)
            }
        }
        return (fallback, link)
    }

    /// Where a body writes the `fruit:` or `category:` link whose address is `address`, and
    /// how: such a link is written otherwise than the page shows it (`fruit:lemon#zest`, shown
    /// as `../../fruits/lemon/#zest`), so libcmark finds it, placed at its address.
    private static func siteLink(
        _ address: String, use: Int, in body: Substring, from firstLine: Int, of path: String
    ) -> (SourceLocation, written: String)? {
        let links = CommonMark().render(String(body)).siteLinks.filter { $0.address == address }
        guard !links.isEmpty else { return nil }
        let link = links[min(use, links.count - 1)]
        let place = SourceLocation(
            path: path, line: link.line + firstLine - 1, column: link.column)
        return (place, link.written)
    }

    /// The lines and columns where `link` is written whole in `text` as an address: where a
    /// Markdown link (`](`, `](<`, `]: `), an HTML attribute (`=`, `="`, `='`) or a template
    /// tag (`}}`) puts one, and not followed by more of an address, so that `../a` is not
    /// found in `../apple/`, nor an address in prose or a template comment. In Markdown, not
    /// in code either: an inline code span (after an odd number of backticks on its line) or
    /// a fenced code block.
    static func places(of link: String, in text: Substring, isMarkdown: Bool = false)
        -> [(line: Int, column: Int)]
    {
        let scalars = text.unicodeScalars
        let ends: Set<Unicode.Scalar> = [")", "\"", "'", " ", "\t", "\n", "\r", "<", ">"]
        let openers = ["](", "](<", "}}"]
        let fenced = isMarkdown ? fencedLines(in: text) : []
        var places: [(line: Int, column: Int)] = []
        var (line, lineStart, searched) = (1, scalars.startIndex, scalars.startIndex)
        while let range = text[searched...].range(of: link) {
            searched = range.upperBound
            guard range.upperBound == text.endIndex || ends.contains(scalars[range.upperBound])
            else { continue }
            let preceding = text[..<range.lowerBound]
            // A reference definition: `[x]:`, blanks, then the address.
            let blanks = preceding.reversed().prefix { $0 == " " || $0 == "\t" }.count
            let isDefinition = blanks > 0 && preceding.dropLast(blanks).hasSuffix("]:")
            // An attribute's value: `=`, maybe blanks, maybe a quote.
            var attribute = preceding
            if attribute.hasSuffix("\"") || attribute.hasSuffix("'") { attribute.removeLast() }
            let spaces = attribute.reversed().prefix { $0 == " " || $0 == "\t" }.count
            let isAttribute = attribute.dropLast(spaces).hasSuffix("=")
            guard openers.contains(where: preceding.hasSuffix) || isDefinition || isAttribute
            else { continue }
            let before = scalars[lineStart..<range.lowerBound]
            line += before.count { $0 == "\n" }
            if let newline = before.lastIndex(of: "\n") {
                lineStart = scalars.index(after: newline)
            }
            if isMarkdown {
                if fenced.contains(line) { continue }
                let line = preceding.reversed().prefix { !$0.isNewline }
                if line.count(where: { $0 == "`" }) % 2 == 1 { continue }
            }
            places.append((line, scalars.distance(from: lineStart, to: range.lowerBound) + 1))
        }
        return places
    }

    /// The lines (from 1) of Markdown `text` inside a fenced code block, fences included: from
    /// a line of three or more backticks or tildes to one of at least as many of the same, or
    /// to the end. Indented fences count too, as a list item's are.
    private static func fencedLines(in text: Substring) -> Set<Int> {
        var fenced: Set<Int> = []
        var fence: (mark: Character, length: Int)?
        // "\r\n" is one Character: split on it too, as lines are counted by their "\n".
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            let mark = trimmed.first ?? " "
            let length = trimmed.prefix { $0 == mark }.count
            if let open = fence {
                fenced.insert(index + 1)
                if mark == open.mark, length >= open.length,
                    trimmed.dropFirst(length).allSatisfy(\.isWhitespace)
                {
                    fence = nil
                }
            } else if (mark == "`" || mark == "~"), length >= 3,
                mark == "~" || !trimmed.dropFirst(length).contains("`")
            {
                fenced.insert(index + 1)
                fence = (mark, length)
            }
        }
        return fenced
    }
}
