/// The `href` and `src` values and the `id`s of an HTML page, entities decoded: enough of
/// HTML to check links in pages fruitsite rendered.
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
    }

    /// The page's links, in page order, and its ids.
    static func scan(_ bytes: [UInt8]) -> (links: [String], ids: Set<String>) {
        var links: [String] = []
        var ids: Set<String> = []
        scan(bytes) { kind, value in
            switch kind {
            case .link: links.append(value)
            case .id: ids.insert(value)
            }
        }
        return (links, ids)
    }

    /// Calls `found` with each link and id of the page, in page order.
    static func scan(_ page: [UInt8], _ found: (Kind, String) -> Void) {
        page.withUnsafeBufferPointer { scan($0, found) }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ found: (Kind, String) -> Void) {
        var index = 0
        let count = bytes.count
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
                }
                continue
            }
            let tagStart = index
            while index < count, isNameByte(bytes[index]) { index += 1 }
            let tag = tagStart..<index
            if tag.isEmpty { continue }
            let isAnchor = named(tag, "a", in: bytes)
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
                let kind: Kind
                if named(name, "id", in: bytes) || (isAnchor && named(name, "name", in: bytes)) {
                    kind = .id
                } else if named(name, "href", in: bytes) || named(name, "src", in: bytes) {
                    kind = .link
                } else {
                    continue
                }
                let text = String(decoding: bytes[value], as: UTF8.self)
                found(kind, bytes[value].contains(UInt8(ascii: "&")) ? decodeEntities(text) : text)
            }
            // The text of scripts and styles is not HTML.
            if named(tag, "script", in: bytes) {
                index = find("</script", in: bytes, from: index) ?? count
            } else if named(tag, "style", in: bytes) {
                index = find("</style", in: bytes, from: index) ?? count
            }
        }
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
