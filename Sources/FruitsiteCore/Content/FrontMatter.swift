/// The YAML block between the `---` lines and the Markdown body after it.
struct FrontMatter {
    /// The YAML text, without the delimiter lines.
    var yaml: String
    /// The 1-based line of the first YAML line in the file (the line after `---`).
    var yamlFirstLine: Int
    /// The Markdown body.
    var body: String
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
    /// - Throws: `SplitError` when the file is empty or a delimiter is missing.
    init(splitting text: String) throws(SplitError) {
        if text.allSatisfy(\.isWhitespace) { throw .empty }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard let first = lines.first, Self.isDelimiter(first, closing: false) else {
            throw .missingOpeningDelimiter
        }
        lines = lines.dropFirst()
        guard let closing = lines.firstIndex(where: { Self.isDelimiter($0, closing: true) }) else {
            throw .missingClosingDelimiter(openingLine: 1)
        }
        yaml = lines[..<closing].joined(separator: "\n")
        yamlFirstLine = 2
        bodyFirstLine = closing + 2
        body = lines[(closing + 1)...].joined(separator: "\n")
    }

    private static func isDelimiter(_ line: Substring, closing: Bool) -> Bool {
        let trimmed = line.reversed().drop(while: { $0 == " " || $0 == "\t" })
        let word = String(trimmed.reversed())
        return word == "---" || (closing && word == "...")
    }
}
