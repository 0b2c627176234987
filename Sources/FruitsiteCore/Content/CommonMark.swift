import CCmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renders CommonMark to HTML with libcmark.
///
/// All unsafe libcmark calls live in this file.
public struct CommonMark: Sendable {
    /// Whether raw HTML and unsafe links (`javascript:` and the like) pass through.
    /// Off by default: libcmark's safe mode then omits raw HTML and neutralises such links.
    public var allowsRawHTML: Bool

    /// Creates a renderer.
    /// - Parameter allowsRawHTML: Let raw HTML and any link scheme through.
    public init(allowsRawHTML: Bool = false) {
        self.allowsRawHTML = allowsRawHTML
    }

    /// Renders `markdown` to an HTML fragment.
    /// - Parameter markdown: CommonMark text.
    /// - Returns: HTML; Markdown has no syntax errors, so this cannot fail.
    public func renderHTML(_ markdown: String) -> String {
        var options = CMARK_OPT_SMART
        if allowsRawHTML { options |= CMARK_OPT_UNSAFE }
        var markdown = markdown
        return markdown.withUTF8 { bytes in
            guard
                let html = bytes.withMemoryRebound(
                    to: CChar.self,
                    { chars in
                        cmark_markdown_to_html(chars.baseAddress, chars.count, options)
                    })
            else { return "" }
            // cmark allocates with the default allocator, which is malloc.
            defer { free(html) }
            return String(cString: html)
        }
    }
}
