/// Compiles template source into nodes: tokenize, mark standalone lines, dedent blocks,
/// then build the tree, collecting every error on the way rather than stopping at the first.
struct Parser {
    /// How deep sections, parents and blocks may nest in one template. Rendering recurses
    /// once per level, so without a bound a long enough run of opening tags overflows the
    /// stack; no real template comes near it.
    static let maximumNesting = 100

    /// A line of the template as a run of whole tokens.
    private struct Line {
        var first: Int
        var last: Int
        /// The spaces and tabs the line starts with, minus any block dedent.
        var leadingWhitespace: [UInt8]
        /// Whether the line holds a standalone tag, so that only the tag is left of it.
        var isStandalone = false
    }

    /// A section, inverted section, parent or block whose closing tag is still to come.
    private struct Frame {
        enum Opening {
            case root
            case section(Node.Name, isInverted: Bool)
            case parent(Node.TemplateName)
            case block(String)
            /// An opening tag with an invalid name: kept so its closing tag still matches.
            case invalid
        }

        var opening: Opening
        var tokenIndex: Int
        var nodes: [Node] = []
    }

    private let source: SourceText
    private let templateName: String
    private var tokens: [Token]
    private var lines: [Line] = []
    private var lineOfToken: [Int] = []
    /// The indentation each standalone block's content takes where it is expanded.
    private var blockIndentation: [Int: [UInt8]] = [:]
    private var frames: [Frame] = []
    private var references: [CompiledTemplate.Reference] = []
    private var errors: [MustacheError] = []

    /// Compiles `text`; the template is only meaningful when `errors` is empty.
    static func parse(
        _ text: String, name: String
    ) -> (template: CompiledTemplate, errors: [MustacheError]) {
        let source = SourceText(text)
        var tokenizer = Tokenizer(bytes: source.bytes)
        tokenizer.tokenize()
        var parser = Parser(source: source, templateName: name, tokens: tokenizer.tokens)
        for issue in tokenizer.issues {
            parser.report(issue.reason, atOffset: issue.offset)
        }
        parser.groupLines()
        parser.markStandaloneLines()
        parser.dedentBlocks()
        let nodes = parser.buildTree()
        let template = CompiledTemplate(
            name: name, nodes: nodes, references: parser.references,
            sourceSize: source.bytes.count)
        return (template, parser.errors)
    }

    private init(source: SourceText, templateName: String, tokens: [Token]) {
        self.source = source
        self.templateName = templateName
        self.tokens = tokens
    }

    // MARK: - Lines

    private mutating func groupLines() {
        lineOfToken = Array(repeating: 0, count: tokens.count)
        var first = 0
        for index in tokens.indices {
            lineOfToken[index] = lines.count
            let token = tokens[index]
            if token.kind == .text, source.bytes[token.range.upperBound - 1] == .newline {
                lines.append(makeLine(first: first, last: index))
                first = index + 1
            }
        }
        if first < tokens.count {
            lines.append(makeLine(first: first, last: tokens.count - 1))
        }
    }

    private func makeLine(first: Int, last: Int) -> Line {
        var whitespace: [UInt8] = []
        if tokens[first].kind == .text {
            whitespace = Array(
                source.bytes[tokens[first].range].prefix(while: \.isInlineWhitespace))
        }
        return Line(first: first, last: last, leadingWhitespace: whitespace)
    }

    /// Whether a text token holds only spaces and tabs, apart from a final line break.
    private func isWhitespace(_ token: Token) -> Bool {
        source.bytes[token.range.lowerBound..<contentEnd(of: token)].allSatisfy(
            \.isInlineWhitespace)
    }

    /// Where a text token's line break (`\n` or `\r\n`) starts, or its end if it has none.
    private func contentEnd(of token: Token) -> Int {
        var end = token.range.upperBound
        if end > token.range.lowerBound, source.bytes[end - 1] == .newline {
            end -= 1
            if end > token.range.lowerBound, source.bytes[end - 1] == .carriageReturn {
                end -= 1
            }
        }
        return end
    }

    /// Whether a line is left in the output and has more than its line break, so that a
    /// standalone partial's indentation goes before it.
    private func isIndentable(_ line: Line) -> Bool {
        guard !line.isStandalone else { return false }
        let first = tokens[line.first]
        return first.kind != .text || first.isRemoved
            || contentEnd(of: first) > first.range.lowerBound
    }

    private func isBlank(_ line: Line) -> Bool {
        (line.first...line.last).allSatisfy { tokens[$0].kind == .text && isWhitespace(tokens[$0]) }
    }

    // MARK: - Standalone lines

    /// Removes the whitespace and line break around a tag that stands alone on its line.
    ///
    /// A standalone line holds one tag, as the spec defines it: `{{#a}}{{/a}}` alone on a
    /// line is not standalone and leaves its line break. The one exception is a run of
    /// adjacent parent and block tags (`{{<parent}}{{$block}}`, `{{/block}}{{/parent}}`),
    /// which the inheritance spec's tests require to be standalone together.
    private mutating func markStandaloneLines() {
        let openingKinds = openingKindOfClosingTags()
        for lineIndex in lines.indices {
            let line = lines[lineIndex]
            var tagIndices: [Int] = []
            var isCandidate = true
            for index in line.first...line.last {
                let token = tokens[index]
                if token.kind == .text {
                    isCandidate = isWhitespace(token)
                } else if token.kind.canBeStandalone {
                    tagIndices.append(index)
                } else {
                    isCandidate = false
                }
                if !isCandidate { break }
            }
            guard isCandidate, let firstTag = tagIndices.first, let lastTag = tagIndices.last else {
                continue
            }
            if tagIndices.count > 1 {
                let isAdjacent = lastTag - firstTag + 1 == tagIndices.count
                let isInheritanceRun = tagIndices.allSatisfy { index in
                    let kind =
                        tokens[index].kind == .closing ? openingKinds[index] : tokens[index].kind
                    return kind == .parent || kind == .block
                }
                guard isAdjacent, isInheritanceRun else { continue }
            }
            lines[lineIndex].isStandalone = true
            for index in tagIndices {
                tokens[index].isStandalone = true
            }
            if firstTag > line.first {
                tokens[line.first].isRemoved = true
            }
            if lastTag < line.last {
                let trailing = tokens[line.last]
                let lineBreak = contentEnd(of: trailing)..<trailing.range.upperBound
                if opensAndClosesBlock(tagIndices), !lineBreak.isEmpty {
                    // The spec keeps the line break after a block opened and closed on one
                    // line (`  {{$block}}{{/block}}`), so an override without a final line
                    // break still ends its line.
                    tokens[line.last].range = lineBreak
                } else {
                    tokens[line.last].isRemoved = true
                }
            }
        }
    }

    /// The kind of tag each closing tag closes, keyed by the closing tag's index, matching
    /// them as `buildTree` does.
    private func openingKindOfClosingTags() -> [Int: Token.Kind] {
        pairSections().reduce(into: [:]) { kinds, pair in
            kinds[pair.value] = tokens[pair.key].kind
        }
    }

    private func opensAndClosesBlock(_ tagIndices: [Int]) -> Bool {
        tagIndices.enumerated().contains { position, index in
            tokens[index].kind == .block
                && tagIndices[(position + 1)...].contains {
                    tokens[$0].kind == .closing && tokens[$0].content == tokens[index].content
                }
        }
    }

    // MARK: - Block indentation

    /// Removes the common indentation of each standalone block's content, and records the
    /// indentation the content takes where the block is expanded.
    ///
    /// The inheritance spec defines this on text: indentation is removed at the site of
    /// definition and added at the site of expansion, where it is the indentation of the
    /// block's default content (or of its tag when the default is empty). Lines of a nested
    /// block lose the nested block's own indentation, which includes the outer one.
    private mutating func dedentBlocks() {
        let closingIndices = pairSections()
        var lineDedent: [[UInt8]] = Array(repeating: [], count: lines.count)
        for openIndex in closingIndices.keys.sorted()
        where tokens[openIndex].kind == .block && tokens[openIndex].isStandalone {
            guard let closeIndex = closingIndices[openIndex] else { continue }
            let openLine = lineOfToken[openIndex]
            var contentLines: [Int] = []
            var common: [UInt8]?
            var lineIndex = openLine + 1
            while lineIndex < lines.count, lines[lineIndex].first < closeIndex {
                let line = lines[lineIndex]
                lineIndex += 1
                if line.last >= closeIndex, tokens[closeIndex].isStandalone { continue }
                contentLines.append(lineIndex - 1)
                if !isBlank(line) {
                    common =
                        common.map { commonPrefix($0, line.leadingWhitespace) }
                        ?? line.leadingWhitespace
                }
            }
            let expansion = common ?? lines[openLine].leadingWhitespace
            let outer = lineDedent[openLine]
            blockIndentation[openIndex] = Array(
                expansion.dropFirst(commonPrefix(expansion, outer).count))
            if let common {
                for contentLine in contentLines {
                    lineDedent[contentLine] = common
                }
            }
        }
        for lineIndex in lines.indices where !lineDedent[lineIndex].isEmpty {
            let line = lines[lineIndex]
            let stripped = commonPrefix(line.leadingWhitespace, lineDedent[lineIndex]).count
            guard stripped > 0 else { continue }
            lines[lineIndex].leadingWhitespace.removeFirst(stripped)
            if tokens[line.first].kind == .text {
                let range = tokens[line.first].range
                tokens[line.first].range = (range.lowerBound + stripped)..<range.upperBound
                if tokens[line.first].range.isEmpty {
                    tokens[line.first].isRemoved = true
                }
            }
        }
    }

    /// Maps each section's, parent's and block's opening tag to its closing tag, matching them
    /// as `buildTree` does.
    private func pairSections() -> [Int: Int] {
        var open: [Int] = []
        var closingIndices: [Int: Int] = [:]
        for index in tokens.indices {
            let token = tokens[index]
            if token.kind.opensSection {
                open.append(index)
            } else if token.kind == .closing,
                let depth = open.lastIndex(where: { tokens[$0].content == token.content })
                    ?? open.indices.last
            {
                closingIndices[open[depth]] = index
                open.removeSubrange(depth...)
            }
        }
        return closingIndices
    }

    private func commonPrefix(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
        Array(zip(first, second).prefix(while: { $0 == $1 }).map(\.0))
    }

    // MARK: - Tree

    /// Builds the nodes, marking where each line of the template starts.
    ///
    /// A standalone partial's indentation goes at the start of each of its lines, as if
    /// prepended to its source: a text node says whether it starts a line, a `.lineStart`
    /// marks a line that starts with a tag, and a line break inside a text node ends one line
    /// and starts the next. Standalone lines are gone and leave no line start; empty lines get
    /// none either, so that indenting them adds no trailing whitespace.
    private mutating func buildTree() -> [Node] {
        frames = [Frame(opening: .root, tokenIndex: -1)]
        var text: [UInt8] = []
        var textStartsLine = false
        // Set at the first token of an indentable line, until the line's first token that
        // is not removed.
        var isAtLineStart = false
        for index in tokens.indices {
            let token = tokens[index]
            let lineIndex = lineOfToken[index]
            if lines[lineIndex].first == index {
                isAtLineStart = isIndentable(lines[lineIndex])
            }
            if token.kind == .text {
                guard !token.isRemoved else { continue }
                if text.isEmpty {
                    textStartsLine = isAtLineStart
                }
                isAtLineStart = false
                text += source.bytes[token.range]
                continue
            }
            if !text.isEmpty {
                append(.text(text, startsLine: textStartsLine))
                text = []
            }
            if isAtLineStart {
                append(.lineStart)
                isAtLineStart = false
            }
            if token.kind.opensSection, frames.count > Self.maximumNesting {
                // Stop here, as the tokenizer does at an unclosed tag: the error fails the
                // template, and the closing tags further on could not be matched reliably.
                report(.nestingTooDeep, at: index)
                return []
            }
            switch token.kind {
            case .text, .comment, .setDelimiters:
                break
            case .variable, .unescapedVariable:
                if let name = makeName(token.content, at: index) {
                    append(.variable(name, isEscaped: token.kind == .variable))
                }
            case .section, .invertedSection:
                let name = makeName(token.content, at: index)
                let opening = name.map {
                    Frame.Opening.section($0, isInverted: token.kind == .invertedSection)
                }
                frames.append(Frame(opening: opening ?? .invalid, tokenIndex: index))
            case .parent:
                let name = makeTemplateName(token.content, at: index, isParent: true)
                frames.append(
                    Frame(opening: name.map { .parent($0) } ?? .invalid, tokenIndex: index))
            case .block:
                let isValid = isValidBlockName(token.content, at: index)
                frames.append(
                    Frame(opening: isValid ? .block(token.content) : .invalid, tokenIndex: index))
            case .partial:
                if let name = makeTemplateName(token.content, at: index, isParent: false) {
                    append(.partial(makeInclusion(name, at: index)))
                }
            case .closing:
                close(at: index)
            }
        }
        if !text.isEmpty {
            append(.text(text, startsLine: textStartsLine))
        }
        while frames.count > 1 {
            let frame = frames[frames.count - 1]
            report(
                .unclosedSection(tokens[frame.tokenIndex].content), atOffset: source.bytes.count,
                openedAt: frame.tokenIndex)
            closeFrame()
        }
        return frames[0].nodes
    }

    private mutating func append(_ node: Node) {
        frames[frames.count - 1].nodes.append(node)
    }

    private mutating func close(at index: Int) {
        let name = tokens[index].content
        guard !name.isEmpty else {
            report(.emptyTagName, at: index)
            return
        }
        guard frames.count > 1 else {
            report(.unexpectedClosingTag(name), at: index)
            return
        }
        let top = frames[frames.count - 1]
        let expected = tokens[top.tokenIndex].content
        if expected == name {
            closeFrame()
            return
        }
        report(
            .mismatchedClosingTag(expected: expected, found: name), at: index,
            openedAt: top.tokenIndex)
        // Recover so one slip gives one error: close the sections left open inside the named
        // one, or, when no open section has the name (a typo), close the innermost.
        let depth =
            frames.lastIndex(where: { $0.tokenIndex >= 0 && tokens[$0.tokenIndex].content == name })
            ?? frames.count - 1
        while frames.count > depth {
            closeFrame()
        }
    }

    private mutating func closeFrame() {
        let frame = frames.removeLast()
        let index = frame.tokenIndex
        switch frame.opening {
        case .root, .invalid:
            break
        case .section(let name, let isInverted):
            append(.section(name, frame.nodes, isInverted: isInverted))
        case .parent(let name):
            // Only blocks matter inside a parent: any other text or tag there is ignored.
            var arguments: [String: [Node]] = [:]
            for case .block(let block) in frame.nodes {
                arguments[block.name] = block.content
            }
            append(.parent(makeInclusion(name, at: index), arguments: arguments))
        case .block(let name):
            let indentation =
                tokens[index].isStandalone
                ? blockIndentation[index] ?? leadingWhitespace(ofTagAt: index) : nil
            let block = Node.Block(
                name: name, content: frame.nodes, indentation: indentation,
                location: location(of: index))
            append(.block(block))
        }
    }

    // MARK: - Names

    private mutating func makeName(_ content: String, at index: Int) -> Node.Name? {
        guard !content.isEmpty else {
            report(.emptyTagName, at: index)
            return nil
        }
        if content == "." {
            return Node.Name(parts: [])
        }
        // Split as UTF-8 (a dot is never inside a longer character): splitting Characters,
        // as a `String` splits, was nearly half of compiling a theme, which every build does.
        let parts = content.utf8.split(
            separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard !Self.hasWhitespace(content), !parts.contains(where: \.isEmpty) else {
            report(.invalidTagName(content), at: index)
            return nil
        }
        return Node.Name(parts: parts.map { String(decoding: $0, as: UTF8.self) })
    }

    /// Whether `text` holds a White_Space code point; ASCII ones (tab to carriage return, and
    /// space) are told apart without looking up the property, which cost 3,400 instructions
    /// a tag name.
    private static func hasWhitespace(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar.isASCII
                ? scalar == " " || (0x09...0x0D).contains(scalar.value)
                : scalar.properties.isWhitespace
        }
    }

    private mutating func makeTemplateName(
        _ content: String, at index: Int, isParent: Bool
    ) -> Node.TemplateName? {
        if content.hasPrefix("*") {
            return makeName(String(content.dropFirst()), at: index).map { .dynamic($0) }
        }
        guard !content.isEmpty else {
            report(.emptyTagName, at: index)
            return nil
        }
        guard !Self.hasWhitespace(content) else {
            report(.invalidTagName(content), at: index)
            return nil
        }
        let position = source.position(at: tokens[index].range.lowerBound)
        references.append(
            CompiledTemplate.Reference(name: content, isParent: isParent, position: position))
        return .fixed(content)
    }

    private mutating func isValidBlockName(_ content: String, at index: Int) -> Bool {
        if content.isEmpty {
            report(.emptyTagName, at: index)
        } else if Self.hasWhitespace(content) {
            report(.invalidTagName(content), at: index)
        } else {
            return true
        }
        return false
    }

    private func makeInclusion(_ name: Node.TemplateName, at index: Int) -> Node.Inclusion {
        let indentation = tokens[index].isStandalone ? leadingWhitespace(ofTagAt: index) : nil
        return Node.Inclusion(name: name, indentation: indentation, location: location(of: index))
    }

    private func leadingWhitespace(ofTagAt index: Int) -> [UInt8] {
        Array(lines[lineOfToken[index]].leadingWhitespace)
    }

    private func location(of index: Int) -> Node.Location {
        Node.Location(
            template: templateName, position: source.position(at: tokens[index].range.lowerBound))
    }

    // MARK: - Errors

    private mutating func report(
        _ reason: MustacheError.Reason, at index: Int, openedAt: Int? = nil
    ) {
        report(reason, atOffset: tokens[index].range.lowerBound, openedAt: openedAt)
    }

    private mutating func report(
        _ reason: MustacheError.Reason, atOffset offset: Int, openedAt: Int? = nil
    ) {
        let position = source.position(at: offset)
        errors.append(
            MustacheError(
                reason, template: templateName, line: position.line, column: position.column,
                openedAt: openedAt.map { source.position(at: tokens[$0].range.lowerBound) }))
    }
}
