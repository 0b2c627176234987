/// The YAML block between the `---` lines and the Markdown body after it.
struct FrontMatter {
    /// The YAML text, without the delimiter lines.
    var yaml: Substring
    /// The 1-based line of the first YAML line in the file (the line after `---`).
    var yamlFirstLine: Int
    /// The Markdown body.
    var body: Substring
    /// The 1-based line of the body's first line in the file.
    var bodyFirstLine: Int

    /// Why a file has no usable front matter.
    enum SplitError: Error {
        case empty
        case missingOpeningDelimiter
        case missingClosingDelimiter(openingLine: Int)
    }

    /// Splits a decoded file at its `---` lines.
    ///
    /// The block ends at the next line that is exactly `---` or `...` (trailing spaces allowed).
    /// Works on UTF-8 bytes: every build splits every entry, and Character-level splitting
    /// was most of the cost of loading.
    /// - Throws: `SplitError` when the file is empty or a delimiter is missing.
    init(splitting text: String) throws(SplitError) {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw .empty
        }
        var lineStart = utf8.startIndex
        var lineNumber = 1
        var yamlStart: String.Index?
        while lineStart < utf8.endIndex {
            let lineEnd = utf8[lineStart...].firstIndex(of: 0x0A) ?? utf8.endIndex
            let line = utf8[lineStart..<lineEnd]
            let next = lineEnd == utf8.endIndex ? lineEnd : utf8.index(after: lineEnd)
            if let start = yamlStart {
                if Self.isDelimiter(line, closing: true) {
                    yaml = text[start..<lineStart]
                    yamlFirstLine = 2
                    body = text[next...]
                    bodyFirstLine = lineNumber + 1
                    return
                }
            } else {
                guard Self.isDelimiter(line, closing: false) else { throw .missingOpeningDelimiter }
                yamlStart = next
            }
            lineStart = next
            lineNumber += 1
        }
        throw .missingClosingDelimiter(openingLine: 1)
    }

    /// `---` (or, closing, `...`) followed by nothing but spaces and tabs.
    private static func isDelimiter(_ line: Substring.UTF8View, closing: Bool) -> Bool {
        var bytes = line[...]
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        guard bytes.count == 3 else { return false }
        return bytes.allSatisfy { $0 == 0x2D } || (closing && bytes.allSatisfy { $0 == 0x2E })
    }
}
