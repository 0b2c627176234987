/// A content file as read from disk, before any parsing.
public struct SourceFile: Sendable {
    /// The path shown in diagnostics, such as `Content/citrus/lemon.md`.
    public var path: String
    /// The raw bytes; decoding is the parser's job, so it can report bad UTF-8 by line.
    public var bytes: [UInt8]

    /// Creates a source file.
    /// - Parameters:
    ///   - path: The path shown in diagnostics.
    ///   - bytes: The file's contents.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// The file name without `.md`: the fruit's slug.
    public var slug: String { String(Self.slug(of: path)) }

    /// The slug of the file at `path`, from its name alone. Found in the path's contiguous
    /// bytes: walking its UTF-8 view index by index cost milliseconds over ten thousand
    /// paths, which the sitemap and the duplicate check look at in every rebuild that adds,
    /// removes or renames a file.
    static func slug(of path: String) -> Substring { path[slugIndices(in: path)] }

    /// Where the slug lies in `path`, as `slug(of:)` finds it, for a type that keeps it.
    static func slugIndices(in path: String) -> Range<String.Index> {
        var contiguous = path
        let range = contiguous.withUTF8(slugRange)
        let utf8 = path.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return from..<utf8.index(from, offsetBy: range.count)
    }

    /// Where the slug lies in a path's UTF-8 bytes: after the last `/`, without `.md` and
    /// without the language's code before it (`apple.fr.md`, see `languageRange(in:)`).
    static func slugRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let name = nameRange(in: bytes)
        guard let language = languageRange(in: bytes) else { return name }
        return name.lowerBound..<(language.lowerBound - 1)
    }

    /// The file name's bytes without `.md`.
    private static func nameRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = bytes.count
        while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
        let isMarkdown = Self.isMarkdown(UnsafeBufferPointer(rebasing: bytes[start...]))
        return start..<(isMarkdown ? bytes.count - 3 : bytes.count)
    }

    /// Where a language's code lies in a Markdown file's name: after the name's last `.`
    /// before `.md`, when what follows has a language tag's shape (`fr`, `pt-br`; see
    /// `LanguageTag`) and something comes before it. Nil for `apple.md`.
    static func languageRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let name = nameRange(in: bytes)
        guard name.upperBound == bytes.count - 3,
            let dot = bytes[name].lastIndex(of: UInt8(ascii: ".")), dot > name.lowerBound
        else { return nil }
        let code = (dot + 1)..<name.upperBound
        return LanguageTag.isWellFormed(bytes[code]) ? code : nil
    }

    /// The language code of the file at `path` (`fr` of `apple.fr.md`), or nil.
    static func language(of path: String) -> Substring? {
        var contiguous = path
        guard let range = contiguous.withUTF8(languageRange) else { return nil }
        let utf8 = path.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return path[from..<utf8.index(from, offsetBy: range.count)]
    }

    /// The key that ties an entry's translations together: its slug, which every
    /// translation's file name shares (`apple.md`, `apple.fr.md`).
    static func translationKey(of path: String) -> Substring { slug(of: path) }

    /// Whether a file name's UTF-8 bytes end in `.md`. Byte by byte: comparing with
    /// `".md".utf8` as a collection cost 700 instructions a name, more than listing it.
    static func isMarkdown(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = name.count
        return count >= 3 && name[count - 3] == UInt8(ascii: ".")
            && name[count - 2] == UInt8(ascii: "m") && name[count - 1] == UInt8(ascii: "d")
    }
}
