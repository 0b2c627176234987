/// The markup of an SVG file as XML tokens, each with the offset of its first byte.
///
/// It reads the constructs a browser's XML parser reads, the same way, so that nothing a
/// browser takes for markup is skipped as text, a comment or a quoted value. What is not
/// well-formed stops it, as it stops a browser. Entities other than the five predefined ones
/// are left as written: a browser expands only those its internal DTD subset declares.
struct SVGTokenizer {
    /// One piece of markup, and where it starts.
    struct Token {
        enum Kind {
            case startTag(Tag)
            case endTag(name: String)
            /// Character data or a CDATA section.
            case text(Text)
            /// `<?target content?>`.
            case processingInstruction(target: String, content: [UInt8])
            /// `<!DOCTYPE …>`, and where its internal subset `[…]` is, if it has one.
            case doctype(internalSubset: Range<Int>?)
        }

        var kind: Kind
        /// The offset of its `<`, or of its first character.
        var offset: Int
    }

    /// `<name attribute="value"…>`, or `…/>` when `isEmpty`.
    struct Tag {
        var name: String
        var attributes: [Attribute]
        var isEmpty = false
    }

    struct Attribute {
        var name: String
        /// The value with its character references decoded.
        var value: [UInt8]
        /// The offset of its name.
        var offset: Int
    }

    /// Text with its character references decoded, and the offset of each byte's source.
    struct Text {
        var bytes: [UInt8] = []
        var origins: [Int] = []
    }

    let bytes: [UInt8]
    /// Where the markup starts: after the byte order mark, if there is one.
    let start: Int
    private var offset: Int

    /// Reads `bytes` as UTF-8 that holds no control characters XML forbids.
    /// - Throws: A problem at the first byte that is not.
    init(_ bytes: [UInt8]) throws(SVGSource.Problem) {
        self.bytes = bytes
        start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        offset = start
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[start...].makeIterator()
        var position = start
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if let byte = encoded.first, byte < 0x20, ![0x09, 0x0A, 0x0D].contains(byte) {
                    throw problem(
                        "not an SVG document: it holds a control character XML does not allow",
                        at: position)
                }
                position += encoded.count
            case .error:
                throw problem("not an SVG document: it is not UTF-8 text", at: position)
            case .emptyInput:
                return
            }
        }
    }

    /// The next token, or nil at the end.
    /// - Throws: A problem where what is not well-formed starts.
    mutating func next() throws(SVGSource.Problem) -> Token? {
        let begin = offset
        guard begin < bytes.count else { return nil }
        if bytes[begin] != UInt8(ascii: "<") {
            offset = bytes[begin...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
            return Token(kind: .text(decoded(begin..<offset)), offset: begin)
        }
        if has("<!--", at: begin) {
            offset = try end(of: "-->", from: begin + 4, "a comment", startingAt: begin)
            return try next()
        }
        if has("<![CDATA[", at: begin) {
            offset = try end(of: "]]>", from: begin + 9, "a CDATA section", startingAt: begin)
            let range = begin + 9..<offset - 3
            return Token(
                kind: .text(Text(bytes: Array(bytes[range]), origins: Array(range))), offset: begin)
        }
        if has("<!DOCTYPE", at: begin) { return try doctype() }
        if has("<!", at: begin) {
            throw problem(
                "not an SVG document: `<!` starts no comment, CDATA section or DOCTYPE", at: begin)
        }
        if has("<?", at: begin) {
            offset += 2
            let target = name()
            let contentStart = offset
            offset = try end(of: "?>", from: offset, "a processing instruction", startingAt: begin)
            let content = Array(bytes[contentStart..<offset - 2])
            return Token(
                kind: .processingInstruction(target: target, content: content), offset: begin)
        }
        if has("</", at: begin) {
            offset += 2
            let name = name()
            skipWhitespace()
            guard offset < bytes.count else {
                throw problem("the tag </\(name)> is not closed", at: begin)
            }
            guard !name.isEmpty, bytes[offset] == UInt8(ascii: ">") else {
                throw problem("not an SVG document: the end tag </\(name)> is malformed", at: begin)
            }
            offset += 1
            return Token(kind: .endTag(name: name), offset: begin)
        }
        return try startTag()
    }

    /// A problem at byte `offset`, with its line and column counted after the byte order mark.
    func problem(_ message: String, at offset: Int) -> SVGSource.Problem {
        let (line, column) = AssetReference.position(of: offset - start, in: Array(bytes[start...]))
        return SVGSource.Problem(line: line, column: column, message: message)
    }

    // MARK: - Tags

    private mutating func startTag() throws(SVGSource.Problem) -> Token {
        let begin = offset
        offset += 1
        var tag = Tag(name: name(), attributes: [])
        guard !tag.name.isEmpty else {
            throw problem("not an SVG document: `<` starts no tag", at: begin)
        }
        while true {
            skipWhitespace()
            guard offset < bytes.count else {
                throw problem("the tag <\(tag.name)> is not closed", at: begin)
            }
            if bytes[offset] == UInt8(ascii: ">") || has("/>", at: offset) {
                tag.isEmpty = bytes[offset] == UInt8(ascii: "/")
                offset += tag.isEmpty ? 2 : 1
                return Token(kind: .startTag(tag), offset: begin)
            }
            let nameOffset = offset
            let name = name()
            skipWhitespace()
            let equals = offset
            offset += 1
            skipWhitespace()
            guard offset < bytes.count else {
                throw problem("the tag <\(tag.name)> is not closed", at: begin)
            }
            let quote = bytes[offset]
            guard !name.isEmpty, bytes[equals] == UInt8(ascii: "="),
                quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
            else {
                throw problem(
                    "not an SVG document: the tag <\(tag.name)> is malformed here", at: nameOffset)
            }
            guard let close = bytes[(offset + 1)...].firstIndex(of: quote) else {
                throw problem("the value of `\(name)` is not closed", at: offset)
            }
            tag.attributes.append(
                Attribute(name: name, value: decoded(offset + 1..<close).bytes, offset: nameOffset))
            offset = close + 1
        }
    }

    /// The name at the offset, up to what cannot be part of one; empty if there is none.
    private mutating func name() -> String {
        let begin = offset
        while offset < bytes.count, !Self.isWhitespace(bytes[offset]),
            !"<>/=?\"'".utf8.contains(bytes[offset])
        {
            offset += 1
        }
        return String(decoding: bytes[begin..<offset], as: UTF8.self)
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count, Self.isWhitespace(bytes[offset]) { offset += 1 }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { " \t\n\r".utf8.contains(byte) }

    // MARK: - DOCTYPE

    /// `<!DOCTYPE name "external ID" [internal subset]>`; quoted strings may hold `[` and `>`.
    private mutating func doctype() throws(SVGSource.Problem) -> Token {
        let begin = offset
        var subset: Range<Int>?
        var index = begin + 9
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                index = (bytes[(index + 1)...].firstIndex(of: bytes[index]) ?? bytes.count) + 1
            } else if bytes[index] == UInt8(ascii: "["), subset == nil {
                let end = internalSubsetEnd(from: index + 1) ?? bytes.count
                subset = index..<end + 1
                index = end + 1
            } else {
                index += 1
            }
        }
        guard index < bytes.count else { throw problem("a DOCTYPE is not closed", at: begin) }
        offset = index + 1
        return Token(kind: .doctype(internalSubset: subset), offset: begin)
    }

    /// The offset of the `]` that closes an internal subset, past the comments, processing
    /// instructions and quoted strings that may hold one.
    private func internalSubsetEnd(from begin: Int) -> Int? {
        var index = begin
        while index < bytes.count {
            if has("<!--", at: index) {
                guard let close = self.index(of: "-->", from: index + 4) else { return nil }
                index = close + 3
            } else if has("<?", at: index) {
                guard let close = self.index(of: "?>", from: index + 2) else { return nil }
                index = close + 2
            } else if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                guard let close = bytes[(index + 1)...].firstIndex(of: bytes[index]) else {
                    return nil
                }
                index = close + 1
            } else if bytes[index] == UInt8(ascii: "]") {
                return index
            } else {
                index += 1
            }
        }
        return nil
    }

    // MARK: - Bytes

    private func has(_ marker: String, at index: Int) -> Bool {
        bytes[index...].starts(with: marker.utf8)
    }

    func index(of marker: String, from begin: Int) -> Int? {
        (begin..<max(begin, bytes.count)).first { has(marker, at: $0) }
    }

    /// The offset just past `marker`, which closes what `kind` names.
    private func end(of marker: String, from begin: Int, _ kind: String, startingAt construct: Int)
        throws(SVGSource.Problem) -> Int
    {
        guard let index = index(of: marker, from: begin) else {
            throw problem("\(kind) is not closed", at: construct)
        }
        return index + marker.utf8.count
    }

    /// `range` with its character references (`&#106;`, `&#x6A;`, `&lt;`) decoded; a
    /// reference this cannot decode stays as written.
    private func decoded(_ range: Range<Int>) -> Text {
        guard bytes[range].contains(UInt8(ascii: "&")) else {
            return Text(bytes: Array(bytes[range]), origins: Array(range))
        }
        var text = Text()
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == UInt8(ascii: "&"),
                case let (scalar, end)? = reference(at: index, before: range.upperBound)
            {
                let encoded = Array(String(scalar).utf8)
                text.bytes += encoded
                text.origins += repeatElement(index, count: encoded.count)
                index = end
            } else {
                text.bytes.append(bytes[index])
                text.origins.append(index)
                index += 1
            }
        }
        return text
    }

    /// The character the reference at `index` stands for, and the offset past its `;`.
    private func reference(at index: Int, before limit: Int) -> (Unicode.Scalar, end: Int)? {
        let name = bytes[(index + 1)..<limit].prefix {
            $0 == UInt8(ascii: "#") || Self.isAlphanumeric($0)
        }
        guard name.endIndex < limit, bytes[name.endIndex] == UInt8(ascii: ";") else { return nil }
        let predefined: [String: Unicode.Scalar] = [
            "lt": "<", "gt": ">", "amp": "&", "apos": "'", "quot": "\"",
        ]
        let text = String(decoding: name, as: UTF8.self)
        if let scalar = predefined[text] { return (scalar, name.endIndex + 1) }
        guard text.hasPrefix("#") else { return nil }
        // Any number of leading zeros is allowed: `&#0000106;` is a `j` too. (`&#X6A;` is not
        // well-formed, but reading more than a browser reads is the safe side.)
        let isHex = text.dropFirst().first?.lowercased() == "x"
        guard let value = UInt32(text.dropFirst(isHex ? 2 : 1), radix: isHex ? 16 : 10),
            let scalar = Unicode.Scalar(value)
        else { return nil }
        return (scalar, name.endIndex + 1)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20)
    }
}
