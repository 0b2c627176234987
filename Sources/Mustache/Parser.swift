/// Compiles template source into nodes: tokenize, mark standalone lines, dedent blocks,
/// then build the tree, collecting every error on the way rather than stopping at the first.
struct Parser {
    /// How deep sections, parents and blocks may nest in one template. Rendering recurses
    /// once per level, so without a bound a long enough run of opening tags overflows the
    /// stack; no real template comes near it.
    static let maximumNesting = 100

    /// A line of the template as a run of whole tokens.
    struct Line {
        var first: Int
        var last: Int
        /// The spaces and tabs the line starts with, minus any block dedent.
        var leadingWhitespace: [UInt8]
        /// Whether the line holds a standalone tag, so that only the tag is left of it.
        var isStandalone = false
    }

    /// A section, inverted section, parent or block whose closing tag is still to come.
    struct Frame {
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

    let source: SourceText
    let templateName: String
    var tokens: [Token]
    var lines: [Line] = []
    var lineOfToken: [Int] = []
    /// The indentation each standalone block's content takes where it is expanded.
    var blockIndentation: [Int: [UInt8]] = [:]
    var frames: [Frame] = []
    var references: [CompiledTemplate.Reference] = []
    var errors: [MustacheError] = []

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

    init(source: SourceText, templateName: String, tokens: [Token]) {
        self.source = source
        self.templateName = templateName
        self.tokens = tokens
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

    // MARK: - Errors

    mutating func report(
        _ reason: MustacheError.Reason, at index: Int, openedAt: Int? = nil
    ) {
        report(reason, atOffset: tokens[index].range.lowerBound, openedAt: openedAt)
    }

    mutating func report(
        _ reason: MustacheError.Reason, atOffset offset: Int, openedAt: Int? = nil
    ) {
        let position = source.position(at: offset)
        errors.append(
            MustacheError(
                reason, template: templateName, line: position.line, column: position.column,
                openedAt: openedAt.map { source.position(at: tokens[$0].range.lowerBound) }))
    }
}
