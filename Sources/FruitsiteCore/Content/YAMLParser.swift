import CYAML

/// Parses one YAML document with libyaml's event API into `YAMLNode`s.
///
/// All unsafe libyaml calls live in this file.
struct YAMLParser {
    /// A syntax error, with libyaml's 0-based mark already made 1-based.
    struct SyntaxError: Error {
        var line: Int
        var column: Int
        var message: String
    }

    /// Aliases can make a few lines stand for billions of nodes ("billion laughs");
    /// front matter never needs more than this many.
    static let maximumExpandedNodes = 100_000
    /// Lists and maps nested deeper than this are an error: fruitsite walks the tree
    /// recursively, and libyaml slows down quadratically with the depth of flow collections.
    static let maximumDepth = 100

    /// Parses `text` as one YAML document.
    /// - Parameter text: The YAML text, without the `---` delimiters.
    /// - Returns: The root node, or nil for an empty document.
    /// - Throws: `SyntaxError` with a 1-based position within `text`.
    func parse(_ text: String) throws(SyntaxError) -> YAMLNode? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw SyntaxError(line: 1, column: 1, message: "could not start the YAML parser")
        }
        defer { yaml_parser_delete(&parser) }

        var utf8 = Array(text.utf8)
        return try utf8.withUnsafeMutableBufferPointer { buffer throws(SyntaxError) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var builder = TreeBuilder()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    throw Self.syntaxError(
                        from: parser, in: UnsafeBufferPointer(buffer),
                        isAfterDocument: builder.hasDocument)
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                // A later document would silently replace the first.
                if event.type == YAML_DOCUMENT_START_EVENT, builder.hasDocument {
                    throw SyntaxError(
                        line: Int(event.start_mark.line) + 1,
                        column: Int(event.start_mark.column) + 1,
                        message: Self.secondDocument)
                }
                try builder.handle(event)
            }
            return builder.root
        }
    }

    /// What a second document in one text is, however libyaml meets it.
    private static let secondDocument = "a second YAML document starts here, where one is read"

    /// The error libyaml reports, at its problem mark; or, when the problem is that the text
    /// ended (a quote or a bracket never closed, a key without its colon), where the unfinished
    /// part starts, which is where it needs fixing: the end of the text is the front matter's
    /// closing line. So is a bracket whose list or map meets a problem on a later line
    /// (`name: [x` above `category: X`): a key there means the bracket was left open.
    private static func syntaxError(
        from parser: yaml_parser_t, in text: UnsafeBufferPointer<UInt8>, isAfterDocument: Bool
    ) -> SyntaxError {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        // After a document's `...` line libyaml reads more text only as a document of its own.
        if isAfterDocument, problem == "did not find expected <document start>" {
            return SyntaxError(
                line: Int(parser.problem_mark.line) + 1,
                column: Int(parser.problem_mark.column) + 1,
                message: Self.secondDocument)
        }
        var message = problem
        // The reader (a control character, say) reports a byte offset and leaves the mark
        // at the start.
        var mark =
            parser.error == YAML_READER_ERROR
            ? readerMark(at: min(parser.problem_offset, text.count), in: text) : parser.problem_mark
        if let context = parser.context.map({ String(cString: $0) }) {
            message += " \(context)"
            let isFlow = context.hasSuffix("flow sequence") || context.hasSuffix("flow mapping")
            if mark.index >= text.count
                || isFlow && parser.problem_mark.line > parser.context_mark.line
            {
                mark = parser.context_mark
                if isFlow || context.hasSuffix("quoted scalar") {
                    message += " that is never closed"
                }
            }
        }
        // libyaml marks are 0-based.
        return SyntaxError(
            line: Int(mark.line) + 1, column: Int(mark.column) + 1, message: message)
    }

    /// The mark of byte `offset` of `text`, counted as libyaml counts: a line break is
    /// `\n`, `\r\n` or a lone `\r`, and a column is a code point.
    private static func readerMark(at offset: Int, in text: UnsafeBufferPointer<UInt8>)
        -> yaml_mark_t
    {
        var mark = yaml_mark_t(index: offset, line: 0, column: 0)
        for (index, byte) in text[..<offset].enumerated() {
            if byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r")
                    && (index + 1 == text.count || text[index + 1] != UInt8(ascii: "\n"))
            {
                (mark.line, mark.column) = (mark.line + 1, 0)
            } else if byte & 0xC0 != 0x80, byte != UInt8(ascii: "\r") {
                mark.column += 1
            }
        }
        return mark
    }
}

// MARK: - Building the tree from events

/// Turns the flat event stream into nested nodes, resolving anchors and aliases.
private struct TreeBuilder {
    private enum Open {
        case sequence([YAMLNode], line: Int, column: Int, anchor: String?)
        case mapping([YAMLNode], line: Int, column: Int, anchor: String?)
    }

    private var stack: [Open] = []
    private var anchors: [String: YAMLNode] = [:]
    private var totalNodes = 0
    private(set) var root: YAMLNode?
    /// Whether a document has started.
    private(set) var hasDocument = false
    /// Whether an alias has been met: it may stand for a great many values.
    private var hasAliases = false

    mutating func handle(_ event: yaml_event_t) throws(YAMLParser.SyntaxError) {
        let line = Int(event.start_mark.line) + 1
        let column = Int(event.start_mark.column) + 1
        switch event.type {
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = String(
                decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length),
                as: UTF8.self)
            let isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE && scalar.tag == nil
            let node = YAMLNode(
                kind: .scalar(text, isPlain: isPlain), line: line, column: column, expandedSize: 1)
            try add(node, anchor: Self.string(scalar.anchor), cost: 1)
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard var node = anchors[name] else {
                throw .init(line: line, column: column, message: "unknown alias '*\(name)'")
            }
            node.line = line
            node.column = column
            hasAliases = true
            // An alias materializes a whole copy of what it names.
            try add(node, anchor: nil, cost: node.expandedSize)
        case YAML_SEQUENCE_START_EVENT where stack.count >= YAMLParser.maximumDepth,
            YAML_MAPPING_START_EVENT where stack.count >= YAMLParser.maximumDepth:
            throw .init(
                line: line, column: column,
                message: "lists and maps nest deeper than \(YAMLParser.maximumDepth) levels")
        case YAML_SEQUENCE_START_EVENT:
            let anchor = Self.string(event.data.sequence_start.anchor)
            stack.append(.sequence([], line: line, column: column, anchor: anchor))
        case YAML_MAPPING_START_EVENT:
            let anchor = Self.string(event.data.mapping_start.anchor)
            stack.append(.mapping([], line: line, column: column, anchor: anchor))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let open = stack.popLast() else { return }
            switch open {
            case .sequence(let items, let line, let column, let anchor):
                let size = items.reduce(1) { $0 + $1.expandedSize }
                try add(
                    YAMLNode(
                        kind: .sequence(items), line: line, column: column, expandedSize: size),
                    anchor: anchor, cost: 1)
            case .mapping(let items, let line, let column, let anchor):
                let size = items.reduce(1) { $0 + $1.expandedSize }
                let pairs = stride(from: 0, to: items.count - 1, by: 2).map {
                    (key: items[$0], value: items[$0 + 1])
                }
                try add(
                    YAMLNode(kind: .mapping(pairs), line: line, column: column, expandedSize: size),
                    anchor: anchor, cost: 1)
            }
        case YAML_DOCUMENT_START_EVENT:
            hasDocument = true
        default:
            break
        }
    }

    /// Adds `node` to the open collection; `cost` is how many values it newly materializes.
    private mutating func add(_ node: YAMLNode, anchor: String?, cost: Int)
        throws(YAMLParser.SyntaxError)
    {
        totalNodes += cost
        if totalNodes > YAMLParser.maximumExpandedNodes {
            let limit = YAMLParser.maximumExpandedNodes
            throw .init(
                line: node.line, column: node.column,
                message: hasAliases
                    ? "aliases expand to more than \(limit) values"
                    : "more than \(limit) values, the most fruitsite reads")
        }
        if let anchor { anchors[anchor] = node }
        switch stack.popLast() {
        case nil:
            root = node
        case .sequence(var items, let line, let column, let anchor)?:
            items.append(node)
            stack.append(.sequence(items, line: line, column: column, anchor: anchor))
        case .mapping(var items, let line, let column, let anchor)?:
            items.append(node)
            stack.append(.mapping(items, line: line, column: column, anchor: anchor))
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
