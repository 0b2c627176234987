/// Finds the module specifiers a JavaScript file imports and re-exports from, by a scan of
/// its tokens rather than a parse: what `AssetReference` lists, and nothing inside a comment,
/// a string, a template literal's text or a regular expression literal.
///
/// A `/` starts a regular expression literal after a punctuator other than `)` and `]`, or
/// after a keyword that precedes an expression (`return /x/`); else it divides. Like other
/// tokenizers that do not parse, it takes a `/` after a block's `}` for a regular expression:
/// an object literal's `}` divided by something is not seen in module code.
struct JavaScriptScanner {
    private let bytes: [UInt8]
    private var index = 0
    /// The last token, which tells a regular expression's `/` from a division's.
    private var previous = Token.punctuator(UInt8(ascii: ";"))
    private var specifiers: [Range<Int>] = []
    /// How deep template literals' substitutions nest: past `maximumNesting` the scan stops,
    /// so that a hostile file cannot exhaust the stack.
    private var nesting = 0
    private static let maximumNesting = 64

    private enum Token: Equatable {
        case punctuator(UInt8)
        /// An identifier or keyword, by its bytes' range.
        case word(Range<Int>)
        /// What ends an operand: a literal, `)` or `]`.
        case operand
    }

    /// Keywords after which an expression, and so a regular expression, may start.
    private static let keywordsBeforeExpressions: Set<[UInt8]> = Set(
        [
            "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
            "case", "do", "else", "yield", "await",
        ].map { Array($0.utf8) })

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The byte ranges of the specifiers' text, inside their quotes, in file order.
    mutating func moduleSpecifiers() -> [Range<Int>] {
        if bytes.starts(with: "#!".utf8) {
            index = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        }
        scanCode(closingBrace: false)
        return specifiers
    }

    // MARK: - Code

    /// Scans code to the end, or with `closingBrace` to the `}` that closes a template
    /// literal's substitution.
    private mutating func scanCode(closingBrace: Bool) {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "/") where isCommentStart(at: index):
                index = skipComment(at: index)
            case UInt8(ascii: "/") where isExpressionStart:
                skipRegularExpression()
                previous = .operand
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                index = bytes.stringEnd(at: index) ?? bytes.count
                previous = .operand
            case UInt8(ascii: "`"):
                skipTemplate()
                previous = .operand
            case UInt8(ascii: "{"):
                depth += 1
                index += 1
                previous = .punctuator(byte)
            case UInt8(ascii: "}"):
                index += 1
                if closingBrace && depth == 0 { return }
                depth -= 1
                previous = .punctuator(byte)
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                index += 1
                previous = .operand
            case _ where Self.isWordStart(byte):
                let word = index..<wordEnd(at: index)
                index = word.upperBound
                if previous != .punctuator(UInt8(ascii: ".")) {
                    if bytes[word].elementsEqual("import".utf8) {
                        findImportSpecifier(after: word.upperBound)
                    } else if bytes[word].elementsEqual("export".utf8) {
                        findExportSpecifier(after: word.upperBound)
                    }
                }
                previous = .word(word)
            case _ where Self.isDigit(byte):
                index = wordEnd(at: index)
                previous = .operand
            default:
                index += 1
                previous = .punctuator(byte)
            }
        }
    }

    /// Whether a `/` here starts a regular expression literal rather than a division.
    private var isExpressionStart: Bool {
        switch previous {
        case .punctuator: true
        case .operand: false
        case .word(let range):
            Self.keywordsBeforeExpressions.contains(Array(bytes[range]))
        }
    }

    private mutating func skipRegularExpression() {
        index += 1
        var isInClass = false
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 1
            case UInt8(ascii: "["): isInClass = true
            case UInt8(ascii: "]"): isInClass = false
            case UInt8(ascii: "/") where !isInClass:
                index = wordEnd(at: index + 1)  // the flags
                return
            case UInt8(ascii: "\n"): return
            default: break
            }
            index += 1
        }
    }

    /// Skips a template literal, scanning the code of its substitutions (`${…}`), which may
    /// hold imports and template literals of their own.
    private mutating func skipTemplate() {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "`"):
                index += 1
                return
            case UInt8(ascii: "$")
            where index + 1 < bytes.count
                && bytes[index + 1] == UInt8(ascii: "{"):
                index += 2
                nesting += 1
                guard nesting <= Self.maximumNesting else {
                    index = bytes.count
                    return
                }
                previous = .punctuator(UInt8(ascii: "{"))
                scanCode(closingBrace: true)
                nesting -= 1
            default: index += 1
            }
        }
    }

    // MARK: - Specifiers

    /// After `import`: `import '…'`, `import(…)` with a string alone, or `import … from '…'`.
    /// `import.meta` has none.
    private mutating func findImportSpecifier(after start: Int) {
        let next = skipTrivia(from: start)
        guard next < bytes.count else { return }
        switch bytes[next] {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            record(stringAt: next)
        case UInt8(ascii: "("):
            let argument = skipTrivia(from: next + 1)
            guard argument < bytes.count, isQuote(bytes[argument]),
                let end = bytes.stringEnd(at: argument)
            else { return }
            let after = skipTrivia(from: end)
            // `import('./a.js', {with: …})` has options; `import('./' + name)` is not one
            // literal, and is left alone.
            if after < bytes.count,
                bytes[after] == UInt8(ascii: ")") || bytes[after] == UInt8(ascii: ",")
            {
                record(stringAt: argument)
            }
        case UInt8(ascii: "."): return
        default: findSpecifier(ofClauseAt: next)
        }
    }

    /// After `export`: `export {…} from '…'` and `export * (as x) from '…'`; any other
    /// export declares something here.
    private mutating func findExportSpecifier(after start: Int) {
        let next = skipTrivia(from: start)
        guard next < bytes.count,
            bytes[next] == UInt8(ascii: "*") || bytes[next] == UInt8(ascii: "{")
        else { return }
        findSpecifier(ofClauseAt: next)
    }

    /// Reads an import or export clause (names, `as`, `*`, braces, commas, and the strings of
    /// names such as `{"a-b" as ab}`) up to `from` and its string; anything else ends it
    /// without one.
    private mutating func findSpecifier(ofClauseAt start: Int) {
        var position = start
        while true {
            position = skipTrivia(from: position)
            guard position < bytes.count else { return }
            let byte = bytes[position]
            if Self.isWordStart(byte) {
                let end = wordEnd(at: position)
                if bytes[position..<end].elementsEqual("from".utf8) {
                    let string = skipTrivia(from: end)
                    if string < bytes.count, isQuote(bytes[string]) {
                        record(stringAt: string)
                        return
                    }
                }
                position = end
            } else if isQuote(byte) {
                guard let end = bytes.stringEnd(at: position) else { return }
                position = end
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
                || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "*")
            {
                position += 1
            } else {
                return
            }
        }
    }

    /// Records the text inside the quotes of the string literal at `start`, if it ends.
    private mutating func record(stringAt start: Int) {
        guard let end = bytes.stringEnd(at: start) else { return }
        specifiers.append(start + 1..<end - 1)
    }

    // MARK: - Pieces

    private func isCommentStart(at position: Int) -> Bool {
        position + 1 < bytes.count
            && (bytes[position + 1] == UInt8(ascii: "/")
                || bytes[position + 1] == UInt8(ascii: "*"))
    }

    /// Just past the comment at `position`, which `isCommentStart(at:)`.
    private func skipComment(at position: Int) -> Int {
        if bytes[position + 1] == UInt8(ascii: "/") {
            return bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        }
        var end = position + 2
        while end + 1 < bytes.count {
            if bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/") {
                return end + 2
            }
            end += 1
        }
        return bytes.count
    }

    /// The first position from `start` that is not white space or a comment.
    private func skipTrivia(from start: Int) -> Int {
        var position = start
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                position += 1
            case UInt8(ascii: "/") where isCommentStart(at: position):
                position = skipComment(at: position)
            default:
                return position
            }
        }
        return position
    }

    /// The end of the identifier, keyword or number at `start`.
    private func wordEnd(at start: Int) -> Int {
        var end = start
        while end < bytes.count, Self.isWordStart(bytes[end]) || Self.isDigit(bytes[end]) {
            end += 1
        }
        return end
    }

    private func isQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"")
    }

    /// Letters, `_`, `$` and every byte of a non-ASCII character, which identifiers may hold.
    private static func isWordStart(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte | 0x20) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }
}

extension [UInt8] {
    /// Just past the closing quote of the quoted string at `start` (JavaScript's or CSS's,
    /// where a backslash escapes the next byte); nil when the line or the text ends first.
    func stringEnd(at start: Int) -> Int? {
        let quote = self[start]
        var position = start + 1
        while position < count {
            switch self[position] {
            case UInt8(ascii: "\\"): position += 2
            case quote: return position + 1
            case UInt8(ascii: "\n"): return nil
            default: position += 1
            }
        }
        return nil
    }
}
