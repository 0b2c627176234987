/// A template's UTF-8 bytes, with a table of line starts for turning offsets into positions.
///
/// The parser works on bytes because every delimiter match and standalone check is a byte
/// comparison; positions are only worked out for errors and for tags that may report one.
struct SourceText {
    let bytes: [UInt8]
    /// The byte offset where each line starts; `lineStarts[0] == 0`.
    let lineStarts: [Int]
    /// Whether each line is ASCII only, so that its columns are byte counts. Counting
    /// `Character`s costs a scan of the line, once per tag on it, which made templates with
    /// thousands of tags on one line take seconds to compile.
    let isASCIILine: [Bool]

    init(_ source: String) {
        bytes = Array(source.utf8)
        var starts = [0]
        var isASCII = [true]
        for (offset, byte) in bytes.enumerated() {
            if byte == .newline {
                starts.append(offset + 1)
                isASCII.append(true)
            } else if byte >= 0x80 {
                isASCII[isASCII.count - 1] = false
            }
        }
        lineStarts = starts
        isASCIILine = isASCII
    }

    /// The 1-based line and `Character` column of a byte offset.
    func position(at offset: Int) -> MustacheError.Position {
        // Binary search for the last line start at or before the offset.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset {
                low = middle
            } else {
                high = middle - 1
            }
        }
        let prefix = lineStarts[low]..<min(offset, bytes.count)
        // Within a line every ASCII byte is one `Character`: `\r\n` cannot occur before its end.
        let column = isASCIILine[low] ? prefix.count : string(prefix).count
        return MustacheError.Position(line: low + 1, column: column + 1)
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }
}

// MARK: - Byte constants

extension UInt8 {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// Spaces and tabs: the only characters a standalone line may hold besides its tags.
    var isInlineWhitespace: Bool { self == .space || self == .tab }

    /// Any whitespace that may pad a tag's content, including line breaks.
    var isWhitespace: Bool { isInlineWhitespace || self == .newline || self == .carriageReturn }
}
