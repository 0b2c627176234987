import Foundation

/// A content file decoded for parsing: valid UTF-8, no byte order mark, `\n` line endings.
struct SourceText {
    var text: String

    /// Where a file's bytes stop being valid UTF-8.
    struct DecodingError: Error {
        var line: Int
        var column: Int
    }

    /// Decodes `bytes` as UTF-8, dropping a leading BOM and turning CRLF into LF.
    ///
    /// Line numbers stay the same, since each CRLF becomes one LF.
    /// - Throws: `DecodingError` at the first byte that is not valid UTF-8.
    init(bytes: some Collection<UInt8>) throws(DecodingError) {
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw Self.firstInvalidByte(in: bytes)
        }
        // Look for CR in the raw bytes, with memchr: far cheaper than searching the String's
        // UTF-8 view, or the bytes one by one, which took 0.9% of a clean build.
        let hasCarriageReturn =
            bytes.withContiguousStorageIfAvailable { bytes in
                guard let base = bytes.baseAddress else { return false }
                return memchr(base, 0x0D, bytes.count) != nil
            } ?? bytes.contains(0x0D)
        if text.utf8.first == 0xEF, text.unicodeScalars.first == "\u{FEFF}" {
            text.unicodeScalars.removeFirst()
        }
        if hasCarriageReturn {
            text = text.replacingOccurrences(of: "\r\n", with: "\n")
        }
        self.text = text
    }

    static func firstInvalidByte(in bytes: some Collection<UInt8>) -> DecodingError {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var line = 1
        var column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput, .error:
                return DecodingError(line: line, column: column)
            }
        }
    }
}
