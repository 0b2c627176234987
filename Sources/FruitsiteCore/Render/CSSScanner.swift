/// Finds the addresses a stylesheet loads: every `url(…)`, quoted or not, and the string of
/// an `@import "…"`, outside comments and other strings. A scan of its tokens, as
/// `AssetReference` describes, not a parse.
struct CSSScanner {
    private let bytes: [UInt8]
    private var found: [Range<Int>] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The byte ranges of the addresses, inside their quotes or `url(…)`, in file order.
    mutating func addresses() -> [Range<Int>] {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/"), isCommentStart(at: index) {
                index = commentEnd(at: index)
            } else if isQuote(byte) {
                index = bytes.stringEnd(at: index) ?? bytes.count
            } else if byte == UInt8(ascii: "@") {
                let name = index + 1..<nameEnd(at: index + 1)
                index = name.upperBound
                guard lowercased(name) == "import" else { continue }
                let string = skipTrivia(from: index)
                if string < bytes.count, isQuote(bytes[string]),
                    let end = bytes.stringEnd(at: string)
                {
                    found.append(string + 1..<end - 1)
                    index = end
                }
            } else if Self.isNameByte(byte) {
                let end = nameEnd(at: index)
                if end < bytes.count, bytes[end] == UInt8(ascii: "("),
                    lowercased(index..<end) == "url"
                {
                    index = url(at: end + 1)
                } else {
                    index = end
                }
            } else {
                index += 1
            }
        }
        return found
    }

    // MARK: - Pieces

    /// Records the address of a `url(` whose content starts at `start`, and returns where the
    /// scan goes on: past its `)`, or where it stopped being one.
    private mutating func url(at start: Int) -> Int {
        var position = start
        while position < bytes.count, isWhiteSpace(bytes[position]) { position += 1 }
        guard position < bytes.count else { return position }
        if isQuote(bytes[position]) {
            guard let end = bytes.stringEnd(at: position) else { return bytes.count }
            found.append(position + 1..<end - 1)
            return end
        }
        let address = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: ")") || isWhiteSpace(byte) { break }
            // Not an address a browser reads: the `url(` is a bad one.
            if isQuote(byte) || byte == UInt8(ascii: "(") { return position }
            position += 1
        }
        let end = position
        while position < bytes.count, isWhiteSpace(bytes[position]) { position += 1 }
        guard position < bytes.count, bytes[position] == UInt8(ascii: ")") else {
            return position
        }
        if end > address { found.append(address..<end) }
        return position + 1
    }

    private func lowercased(_ range: Range<Int>) -> String {
        String(decoding: bytes[range].map { $0 | 0x20 }, as: UTF8.self)
    }

    /// The first position from `start` that is not white space or a comment.
    private func skipTrivia(from start: Int) -> Int {
        var position = start
        while position < bytes.count {
            if isWhiteSpace(bytes[position]) {
                position += 1
            } else if bytes[position] == UInt8(ascii: "/"), isCommentStart(at: position) {
                position = commentEnd(at: position)
            } else {
                break
            }
        }
        return position
    }

    private func isCommentStart(at position: Int) -> Bool {
        position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "*")
    }

    private func commentEnd(at start: Int) -> Int {
        var end = start + 2
        while end + 1 < bytes.count {
            if bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/") {
                return end + 2
            }
            end += 1
        }
        return bytes.count
    }

    /// The end of the name at `start`; an escape (`\72`) is part of it, so that `u\72l(`
    /// is not taken for `url(`.
    private func nameEnd(at start: Int) -> Int {
        var end = start
        while end < bytes.count {
            if bytes[end] == UInt8(ascii: "\\") {
                end += 2
            } else if Self.isNameByte(bytes[end]) {
                end += 1
            } else {
                break
            }
        }
        return min(end, bytes.count)
    }

    private func isQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"")
    }

    private func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r") || byte == 0x0C
    }

    /// Letters, digits, `-`, `_` and every byte of a non-ASCII character.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte | 0x20) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte >= 0x80
    }
}
