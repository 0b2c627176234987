/// The `href` and `src` values, the `id`s and the hreflang alternates of an HTML page,
/// entities decoded: enough of HTML to check links in pages fruitsite rendered.
///
/// Names are compared as bytes, whatever their case: `check` reads every page of the site,
/// and a string made for every tag and attribute name was most of its time.
enum HTMLAttributes {
    /// An attribute that matters to links.
    enum Kind {
        /// `href` or `src`: a link.
        case link
        /// `id`, or `name` on an `a`: what a `#fragment` can name.
        case id
        /// The `href` of a `<link rel="alternate" hreflang="…">` in the head: the page in the
        /// language `hreflang` names. Not a `.link`: `AlternateChecker` judges it.
        case alternate(language: String)
    }

    /// The page's links, in page order, and its ids.
    static func scan(_ bytes: [UInt8]) -> (links: [String], ids: Set<String>) {
        var links: [String] = []
        var ids: Set<String> = []
        scan(bytes) { kind, value in
            switch kind {
            case .link: links.append(value)
            case .id: ids.insert(value)
            case .alternate: break
            }
        }
        return (links, ids)
    }

    /// Calls `found` with each link, id and alternate of the page, in page order.
    static func scan(_ page: [UInt8], _ found: (Kind, String) -> Void) {
        page.withUnsafeBufferPointer { scan($0, headOnly: false, found) }
    }

    /// Calls `found` with each link, id and alternate of the page's head, in page order: up to
    /// `</head>` or `<body>`, or the whole page when it has neither. Alternates belong there,
    /// and a head is a small part of a page.
    static func scanHead(_ page: [UInt8], _ found: (Kind, String) -> Void) {
        page.withUnsafeBufferPointer { scan($0, headOnly: true, found) }
    }

    private static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, headOnly: Bool, _ found: (Kind, String) -> Void
    ) {
        var index = 0
        let count = bytes.count
        // Past the head, a `<link>` is no alternate: search engines read those in the head.
        var isInHead = true
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            index += 1
            // Comments, doctype and closing tags have no attributes to check.
            if index < count, bytes[index] == UInt8(ascii: "!") || bytes[index] == UInt8(ascii: "/")
            {
                if bytes[index...].starts(with: "!--".utf8) {
                    index = find("-->", in: bytes, from: index) ?? count
                } else if isInHead, bytes[index] == UInt8(ascii: "/") {
                    let nameStart = index + 1
                    var nameEnd = nameStart
                    while nameEnd < count, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
                    if named(nameStart..<nameEnd, "head", in: bytes) {
                        if headOnly { return }
                        isInHead = false
                    }
                }
                continue
            }
            let tagStart = index
            while index < count, isNameByte(bytes[index]) { index += 1 }
            let tag = tagStart..<index
            if tag.isEmpty { continue }
            let isAnchor = named(tag, "a", in: bytes)
            if isInHead, named(tag, "body", in: bytes) {
                if headOnly { return }
                isInHead = false
            }
            // A `<link>` in the head: its `href` is an alternate or a link by its other
            // attributes, which may come after it, so it is reported once the tag ends.
            let isHeadLink = isInHead && named(tag, "link", in: bytes)
            var rel: Range<Int>?
            var hreflang: Range<Int>?
            var href: Range<Int>?
            // Attributes until the tag ends.
            while index < count, bytes[index] != UInt8(ascii: ">") {
                while index < count, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") {
                    index += 1
                }
                let start = index
                while index < count, isNameByte(bytes[index]) { index += 1 }
                if index == start {
                    if index < count, bytes[index] != UInt8(ascii: ">") { index += 1 }
                    continue
                }
                let name = start..<index
                var value: Range<Int>?
                // Blanks may stand around the `=`.
                var equals = index
                while equals < count, isSpace(bytes[equals]) { equals += 1 }
                if equals < count, bytes[equals] == UInt8(ascii: "=") {
                    index = equals + 1
                    while index < count, isSpace(bytes[index]) { index += 1 }
                    if index < count,
                        bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
                    {
                        let quote = bytes[index]
                        let valueStart = index + 1
                        index = valueStart
                        while index < count, bytes[index] != quote { index += 1 }
                        value = valueStart..<min(index, count)
                        index += 1
                    } else {
                        let valueStart = index
                        while index < count, !isSpace(bytes[index]),
                            bytes[index] != UInt8(ascii: ">")
                        {
                            index += 1
                        }
                        value = valueStart..<index
                    }
                }
                guard let value else { continue }
                if isHeadLink {
                    // The first of an attribute written twice counts, as browsers read it.
                    if named(name, "rel", in: bytes) {
                        rel = rel ?? value
                        continue
                    } else if named(name, "hreflang", in: bytes) {
                        hreflang = hreflang ?? value
                        continue
                    } else if named(name, "href", in: bytes) {
                        href = href ?? value
                        continue
                    }
                }
                let kind: Kind
                if named(name, "id", in: bytes) || (isAnchor && named(name, "name", in: bytes)) {
                    kind = .id
                } else if named(name, "href", in: bytes) || named(name, "src", in: bytes) {
                    kind = .link
                } else {
                    continue
                }
                found(kind, text(bytes[value]))
            }
            if isHeadLink, let href {
                if let hreflang, let rel, hasToken("alternate", in: rel, of: bytes) {
                    found(.alternate(language: text(bytes[hreflang])), text(bytes[href]))
                } else {
                    found(.link, text(bytes[href]))
                }
            }
            // The text of scripts and styles is not HTML.
            if named(tag, "script", in: bytes) {
                index = find("</script", in: bytes, from: index) ?? count
            } else if named(tag, "style", in: bytes) {
                index = find("</style", in: bytes, from: index) ?? count
            }
        }
    }

    /// An attribute's value as text, its character references decoded.
    private static func text(_ value: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let text = String(decoding: value, as: UTF8.self)
        return value.contains(UInt8(ascii: "&")) ? decodeEntities(text) : text
    }

    /// Whether the space-separated list at `range` (a `rel`) holds `token`, in any case.
    private static func hasToken(
        _ token: StaticString, in range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        var start = range.lowerBound
        while start < range.upperBound {
            while start < range.upperBound, isSpace(bytes[start]) { start += 1 }
            var end = start
            while end < range.upperBound, !isSpace(bytes[end]) { end += 1 }
            if named(start..<end, token, in: bytes) { return true }
            start = end
        }
        return false
    }

    /// Whether the bytes at `range` spell `name` (lowercase ASCII) in any case.
    private static func named(
        _ range: Range<Int>, _ name: StaticString, in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        let letters = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        return zip(bytes[range], letters).allSatisfy { byte, letter in
            // ASCII letters differ from their capitals by one bit.
            (byte | 0x20) == letter
        }
    }

    private static func find(
        _ needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> Int? {
        let needle = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle)
            {
                return index + needle.count
            }
            index += 1
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
            || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
    }

    /// The character references fruitsite's escaping and Markdown produce.
    static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let tail = rest[ampersand...]
            guard let semicolon = tail.firstIndex(of: ";"),
                tail.distance(from: ampersand, to: semicolon) <= 10
            else {
                result += "&"
                rest = rest[rest.index(after: ampersand)...]
                continue
            }
            let entity = tail[tail.index(after: ampersand)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let character = named[String(entity)] {
                result += character
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X"),
                let value = UInt32(entity.dropFirst(2), radix: 16),
                let scalar = Unicode.Scalar(value)
            {
                result.unicodeScalars.append(scalar)
            } else if entity.hasPrefix("#"), let value = UInt32(entity.dropFirst()),
                let scalar = Unicode.Scalar(value)
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += tail[...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
