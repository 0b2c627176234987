/// Splits a template into text and tags, following set-delimiter tags as it goes.
struct Tokenizer {
    /// A problem found while tokenizing, at a byte offset.
    struct Issue {
        var reason: MustacheError.Reason
        var offset: Int
    }

    private let bytes: [UInt8]
    private(set) var tokens: [Token] = []
    private(set) var issues: [Issue] = []
    private var opening: [UInt8] = Array("{{".utf8)
    private var closing: [UInt8] = Array("}}".utf8)

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func tokenize() {
        var index = 0
        var textStart = 0
        while index < bytes.count {
            guard matches(opening, at: index) else {
                index += 1
                continue
            }
            appendText(textStart..<index)
            guard let end = readTag(at: index) else {
                // Without its closing delimiter the rest of the template cannot be split
                // reliably, so stop here; the error makes the template fail anyway.
                textStart = bytes.count
                break
            }
            index = end
            textStart = end
        }
        appendText(textStart..<bytes.count)
    }

    // MARK: - Tags

    /// Reads the tag starting at `start` and returns the offset after it, or nil if unclosed.
    private mutating func readTag(at start: Int) -> Int? {
        var contentStart = start + opening.count
        let sigil = contentStart < bytes.count ? bytes[contentStart] : 0
        var kind = Token.Kind.variable
        var terminator = closing
        switch sigil {
        case UInt8(ascii: "{"):
            kind = .unescapedVariable
            terminator = Array("}".utf8) + closing
        case UInt8(ascii: "&"): kind = .unescapedVariable
        case UInt8(ascii: "#"): kind = .section
        case UInt8(ascii: "^"): kind = .invertedSection
        case UInt8(ascii: "/"): kind = .closing
        case UInt8(ascii: "!"): kind = .comment
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "<"): kind = .parent
        case UInt8(ascii: "$"): kind = .block
        case UInt8(ascii: "="):
            kind = .setDelimiters
            terminator = Array("=".utf8) + closing
        default: break
        }
        if kind != .variable {
            contentStart += 1
        }
        guard let contentEnd = firstIndex(of: terminator, from: contentStart) else {
            let expected = String(decoding: terminator, as: UTF8.self)
            issues.append(Issue(reason: .unclosedTag(expected: expected), offset: start))
            return nil
        }
        let end = contentEnd + terminator.count
        var token = Token(kind: kind, range: start..<end)
        if kind != .comment {
            token.content = trimmed(contentStart..<contentEnd)
        }
        if token.content.hasPrefix("*"), [.partial, .parent, .closing].contains(kind) {
            // `{{> * name }}` and `{{/*name}}` must match, so drop the padding after `*` too.
            let name = token.content.dropFirst().trimmingPrefix(while: \.isWhitespace)
            token.content = "*" + name
        }
        if kind == .setDelimiters {
            setDelimiters(token.content, at: start)
        }
        tokens.append(token)
        return end
    }

    private mutating func setDelimiters(_ content: String, at offset: Int) {
        let parts = content.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
            issues.append(Issue(reason: .invalidDelimiters(content), offset: offset))
            return
        }
        opening = Array(parts[0].utf8)
        closing = Array(parts[1].utf8)
    }

    // MARK: - Text

    /// Appends text as one token per line, each ending after its line break.
    private mutating func appendText(_ range: Range<Int>) {
        var lineStart = range.lowerBound
        for index in range where bytes[index] == .newline {
            tokens.append(Token(kind: .text, range: lineStart..<index + 1))
            lineStart = index + 1
        }
        if lineStart < range.upperBound {
            tokens.append(Token(kind: .text, range: lineStart..<range.upperBound))
        }
    }

    // MARK: - Byte matching

    private func matches(_ pattern: [UInt8], at index: Int) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for offset in pattern.indices where bytes[index + offset] != pattern[offset] {
            return false
        }
        return true
    }

    private func firstIndex(of pattern: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + pattern.count <= bytes.count {
            if matches(pattern, at: index) {
                return index
            }
            index += 1
        }
        return nil
    }

    private func trimmed(_ range: Range<Int>) -> String {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower].isWhitespace { lower += 1 }
        while upper > lower, bytes[upper - 1].isWhitespace { upper -= 1 }
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }
}
