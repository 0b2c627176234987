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
        String(decoding: render(markdown).html, as: UTF8.self)
    }

    /// Renders `markdown` to an HTML fragment, turning `fruit:` and `category:` links into
    /// links to those pages (see `SiteLink`).
    /// - Returns: The HTML as UTF-8, which libcmark writes from the valid UTF-8 of
    ///   `markdown`, and the site links with their positions in `markdown`.
    func render(_ markdown: String) -> (html: [UInt8], siteLinks: [SiteLink]) {
        var options = CMARK_OPT_SMART
        if allowsRawHTML { options |= CMARK_OPT_UNSAFE }
        var markdown = markdown
        return markdown.withUTF8 { bytes in
            let document = bytes.withMemoryRebound(to: CChar.self) { chars in
                cmark_parse_document(chars.baseAddress, chars.count, options)
            }
            guard let document else { return ([], []) }
            defer { cmark_node_free(document) }
            let siteLinks = Self.resolveSiteLinks(in: document, source: bytes)
            Self.identifyHeadings(in: document)
            guard let html = cmark_render_html(document, options) else { return ([], siteLinks) }
            // cmark allocates with the default allocator, which is malloc.
            defer { free(html) }
            let count = strlen(html)
            let bytes = html.withMemoryRebound(to: UInt8.self, capacity: count) {
                Array(UnsafeBufferPointer(start: $0, count: count))
            }
            return (bytes, siteLinks)
        }
    }

    /// Points each `fruit:` and `category:` link at its page and returns them: which fruit
    /// or category each names, and where its address is written (line and column in
    /// scalars, from 1), as other links are placed.
    private static func resolveSiteLinks(
        in document: OpaquePointer, source: UnsafeBufferPointer<UInt8>
    ) -> [SiteLink] {
        guard let iterator = cmark_iter_new(document) else { return [] }
        defer { cmark_iter_free(iterator) }
        var links: [SiteLink] = []
        var lineStarts: [Int] = []
        // libcmark places an inline by a line count that misses the line breaks inside
        // earlier inlines of its block (a wrapped link text or code span, a backslash break),
        // so each address is looked for in its block's lines instead, after the last found.
        var block: OpaquePointer?
        var searchStart = 0
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            // An image's source too: `![x](fruit:lemon)` is resolved and checked as a link is.
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                [CMARK_NODE_LINK, CMARK_NODE_IMAGE].contains(cmark_node_get_type(node)),
                let url = cmark_node_get_url(node).map({ String(cString: $0) }),
                let link = SiteLink(url: url)
            else { continue }
            cmark_node_set_url(node, link.address)
            if lineStarts.isEmpty {
                lineStarts = [0] + source.indices.filter { source[$0] == 0x0A }.map { $0 + 1 }
            }
            func offset(ofLine line: Int32) -> Int {
                line < 1 ? 0 : line > lineStarts.count ? source.count : lineStarts[Int(line) - 1]
            }
            let enclosing = Self.enclosingBlock(of: node)
            if enclosing != block {
                block = enclosing
                searchStart = offset(ofLine: cmark_node_get_start_line(enclosing))
            }
            let blockEnd = offset(ofLine: cmark_node_get_end_line(enclosing) + 1)
            let place: Int
            if let found = Self.address(of: link, in: source, from: searchStart, to: blockEnd) {
                place = found.lowerBound
                searchStart = found.upperBound
            } else if let found = Self.address(
                of: link, in: source, from: 0, to: source.count, inDefinition: true)
            {
                // Not in its block: a reference link's address is in its definition, anywhere
                // in the body (libcmark keeps no node for it).
                place = found.lowerBound
            } else {
                // Written otherwise (with escapes): placed at the link, where libcmark puts
                // it. libcmark counts columns in bytes.
                let line = cmark_node_get_start_line(node)
                place = min(
                    offset(ofLine: line) + max(0, Int(cmark_node_get_start_column(node)) - 1),
                    offset(ofLine: line + 1))
            }
            // The last line that starts at or before the place.
            var (low, high) = (0, lineStarts.count - 1)
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= place { low = middle } else { high = middle - 1 }
            }
            let text = String(decoding: source[lineStarts[low]..<place], as: UTF8.self)
            links.append(link.at(line: low + 1, column: text.unicodeScalars.count + 1))
        }
        return links
    }

    /// Gives each heading an id made from its text (see `HeadingIDs`) and a permalink to it:
    /// `<h2 id="zest">Zest<a class="anchor" href="#zest" aria-label="Permalink: Zest">#</a></h2>`.
    /// Each heading becomes a custom block around a custom inline that writes the opening and
    /// closing tags and holds the heading's inlines, which the page's rendering then writes
    /// as it writes a heading's (a custom block alone would put line breaks inside the tags).
    /// Rendering each heading apart, to wrap its HTML, had cost 35,000 instructions a heading.
    private static func identifyHeadings(in document: OpaquePointer) {
        guard let iterator = cmark_iter_new(document) else { return }
        var headings: [OpaquePointer] = []
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                cmark_node_get_type(node) == CMARK_NODE_HEADING
            {
                headings.append(node)
            }
        }
        cmark_iter_free(iterator)
        guard !headings.isEmpty else { return }
        var ids = HeadingIDs()
        for heading in headings {
            guard let block = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { continue }
            guard let tags = cmark_node_new(CMARK_NODE_CUSTOM_INLINE) else {
                cmark_node_free(block)
                continue
            }
            let level = cmark_node_get_heading_level(heading)
            let text = Self.text(of: heading)
            let id = MarkupText.escaped(ids.makeID(for: text))
            let label = MarkupText.escaped(HeadingIDs.collapsingWhitespace(text))
            cmark_node_set_on_enter(tags, "<h\(level) id=\"\(id)\">")
            cmark_node_set_on_exit(
                tags,
                "<a class=\"anchor\" href=\"#\(id)\" aria-label=\"Permalink: \(label)\">#</a>"
                    + "</h\(level)>")
            while let child = cmark_node_first_child(heading) {
                cmark_node_append_child(tags, child)
            }
            cmark_node_append_child(block, tags)
            cmark_node_replace(heading, block)
            cmark_node_free(heading)
        }
    }

    /// A heading's text as a reader sees it: its text and code, without raw HTML or images.
    private static func text(of heading: OpaquePointer) -> String {
        guard let iterator = cmark_iter_new(heading) else { return "" }
        defer { cmark_iter_free(iterator) }
        var text = ""
        var imageDepth = 0
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_IMAGE:
                imageDepth += event == CMARK_EVENT_ENTER ? 1 : -1
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if imageDepth == 0, let literal = cmark_node_get_literal(node) {
                    text += String(cString: literal)
                }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                if imageDepth == 0 { text += " " }
            default:
                break
            }
        }
        return text
    }

    /// The block that holds an inline node: a paragraph or a heading.
    private static func enclosingBlock(of node: OpaquePointer) -> OpaquePointer {
        var block = node
        while cmark_node_get_type(block).rawValue > CMARK_NODE_LAST_BLOCK.rawValue,
            let parent = cmark_node_parent(block)
        {
            block = parent
        }
        return block
    }

    /// The bytes of the first address in `source[start..<end]` that is written as `link`'s:
    /// its scheme in any case, up to a blank, `)` or `>`, after `](` (and blanks) or `<`
    /// (then maybe blanks, which libcmark trims off); or, `inDefinition`, after `]:` (and
    /// blanks, maybe a `<`), as a reference definition writes it, up to a blank or `>`.
    private static func address(
        of link: SiteLink, in source: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
        inDefinition: Bool = false
    ) -> Range<Int>? {
        let scheme = Array((link.kind.rawValue + ":").utf8)
        let (space, tab, newline) = (UInt8(0x20), UInt8(0x09), UInt8(0x0A))
        guard end - start >= scheme.count else { return nil }
        for index in start...(end - scheme.count) {
            let isScheme = scheme.indices.allSatisfy { offset in
                let byte = source[index + offset]
                let wanted = scheme[offset]
                // Its letters in either case.
                return byte == wanted || (wanted >= 0x61 && byte == wanted - 0x20)
            }
            guard isScheme else { continue }
            var before = index - 1
            while before >= start, [space, tab].contains(source[before]) { before -= 1 }
            let isBracketed = before >= start && source[before] == UInt8(ascii: "<")
            if isBracketed { before -= 1 }
            while before >= start, [space, tab, newline].contains(source[before]) { before -= 1 }
            let opener = inDefinition ? [UInt8(ascii: "]"), 0x3A] : [UInt8(ascii: "]"), 0x28]
            let isOpened =
                before > start && source[before] == opener[1] && source[before - 1] == opener[0]
            // An autolink (`<fruit:kiwi>`) has no opener, and no blanks inside.
            let isAutolink = !inDefinition && isBracketed && source[index - 1] == UInt8(ascii: "<")
            guard isOpened || isAutolink else { continue }
            var stop = index
            while stop < end,
                isBracketed
                    ? ![UInt8(ascii: ">"), newline].contains(source[stop])
                    : ![space, tab, newline].contains(source[stop])
                        && (inDefinition || source[stop] != UInt8(ascii: ")"))
            {
                stop += 1
            }
            var written = String(decoding: source[index..<stop], as: UTF8.self)
            while written.last == " " || written.last == "\t" { written.removeLast() }
            if let found = SiteLink(url: written), found.kind == link.kind,
                found.target == link.target, found.suffix == link.suffix
            {
                return index..<stop
            }
        }
        return nil
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

    /// The scheme in any case, as URL schemes are: `Fruit:lemon` too.
    init?(url: String) {
        for kind in [Kind.fruit, .category]
        where url.prefix(kind.rawValue.count + 1).lowercased() == kind.rawValue + ":" {
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
