import CCmark
import Foundation

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
        render(markdown).html
    }

    /// Renders `markdown` to an HTML fragment, turning `fruit:` and `category:` links into
    /// links to those pages (see `SiteLink`).
    /// - Returns: The HTML, and the site links with their positions in `markdown`.
    func render(_ markdown: String) -> (html: String, siteLinks: [SiteLink]) {
        var options = CMARK_OPT_SMART
        if allowsRawHTML { options |= CMARK_OPT_UNSAFE }
        var markdown = markdown
        return markdown.withUTF8 { bytes in
            let document = bytes.withMemoryRebound(to: CChar.self) { chars in
                cmark_parse_document(chars.baseAddress, chars.count, options)
            }
            guard let document else { return ("", []) }
            defer { cmark_node_free(document) }
            let siteLinks = Self.resolveSiteLinks(in: document, source: bytes)
            guard let html = cmark_render_html(document, options) else { return ("", siteLinks) }
            // cmark allocates with the default allocator, which is malloc.
            defer { free(html) }
            return (String(cString: html), siteLinks)
        }
    }

    /// Points each `fruit:` and `category:` link at its page and returns them: which fruit
    /// or category each names, and where (line and column in scalars, from 1).
    private static func resolveSiteLinks(
        in document: OpaquePointer, source: UnsafeBufferPointer<UInt8>
    ) -> [SiteLink] {
        guard let iterator = cmark_iter_new(document) else { return [] }
        defer { cmark_iter_free(iterator) }
        var links: [SiteLink] = []
        var lineStarts: [Int]?
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            // An image's source too: `![x](fruit:lemon)` is resolved and checked as a link is.
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                [CMARK_NODE_LINK, CMARK_NODE_IMAGE].contains(cmark_node_get_type(node)),
                let url = cmark_node_get_url(node).map({ String(cString: $0) }),
                let link = SiteLink(url: url)
            else { continue }
            cmark_node_set_url(node, link.address)
            // cmark counts columns in bytes; diagnostics count scalars.
            let line = Int(cmark_node_get_start_line(node))
            let byteColumn = Int(cmark_node_get_start_column(node))
            if lineStarts == nil {
                lineStarts = [0] + source.indices.filter { source[$0] == 0x0A }.map { $0 + 1 }
            }
            var column = byteColumn
            if let lineStarts, line >= 1, line <= lineStarts.count {
                let start = lineStarts[line - 1]
                let end = min(source.count, start + max(0, byteColumn - 1))
                column =
                    String(decoding: source[start..<end], as: UTF8.self).unicodeScalars.count + 1
            }
            links.append(link.at(line: line, column: column))
        }
        return links
    }
}

/// A link in a body that names a fruit or a category instead of an address:
/// `[Lemon](fruit:lemon)`, `[Citrus](category:Citrus)`. It becomes a link to that page, from
/// the fruit page the body is shown on, and a build fails when nothing has that name.
public struct SiteLink: Sendable, Hashable {
    public enum Kind: String, Sendable { case fruit, category }
    public var kind: Kind
    /// What the link names, as written (percent-escapes decoded: `category:Stone%20Fruits`
    /// or `<category:Stone Fruits>`): a fruit's slug or name, or a category's name.
    public var target: String
    /// A `#fragment` (or `?query`) written after the name, kept on the address.
    var suffix = ""
    /// Where the link is written: in the body while parsing, then in the file.
    public var line = 0
    public var column = 0

    init?(url: String) {
        for kind in [Kind.fruit, .category] where url.hasPrefix(kind.rawValue + ":") {
            var raw = url.dropFirst(kind.rawValue.count + 1)
            if let end = raw.firstIndex(where: { $0 == "#" || $0 == "?" }) {
                suffix = String(raw[end...])
                raw = raw[..<end]
            }
            self.kind = kind
            target = raw.removingPercentEncoding ?? String(raw)
            return
        }
        return nil
    }

    /// The slug of the fruit a `fruit:` link names: the target, or when it is a name
    /// (`fruit:Blood Orange`), the slug made from it the way file names' are.
    var slug: String { Slug.isValid(target) ? target : Slug.make(from: target) }

    init(kind: Kind, target: String, line: Int, column: Int) {
        self.kind = kind
        self.target = target
        self.line = line
        self.column = column
    }

    /// The link as written, percent-escapes decoded: `fruit:lemon#zest`.
    var written: String { "\(kind.rawValue):\(target)\(suffix)" }

    /// The page's address from a fruit page, two folders below the site root.
    var address: String {
        switch kind {
        case .fruit: "../../fruits/\(slug)/\(suffix)"
        case .category: "../../categories/\(Slug.make(from: target))/\(suffix)"
        }
    }

    func at(line: Int, column: Int) -> SiteLink {
        var moved = self
        (moved.line, moved.column) = (line, column)
        return moved
    }
}
