import Foundation

/// Finds the links and `#anchors` of a rendered site that point to nothing in it: what
/// `fruitsite check` adds to rendering. Links with a scheme (`https:`, `mailto:`) or a host
/// (`//cdn…`) leave the site and are not followed.
struct LinkChecker {
    /// A link that leads nowhere: on which page, and as written there.
    struct Broken: Equatable {
        var page: String
        var link: String
        var reason: String
    }

    /// The site's files by path inside the output folder.
    let files: [String: [UInt8]]
    /// Where the site is served (`/`, or the base URL's path): root-relative links (`/x`)
    /// count from there.
    let basePath: String

    init(files: [RenderedPage], basePath: String) {
        self.files = Dictionary(files.map { ($0.path, $0.bytes) }) { first, _ in first }
        // Compared with links whose escapes are decoded: `/my%20fruits/` is `/my fruits/`.
        self.basePath = basePath.removingPercentEncoding ?? basePath
    }

    /// Every broken link of every HTML page, by page and then in page order.
    func brokenLinks() -> [Broken] {
        var ids: [String: Set<String>] = [:]
        var links: [String: [String]] = [:]
        for (path, bytes) in files where path.hasSuffix(".html") {
            let scan = HTMLAttributes.scan(bytes)
            ids[path] = scan.ids
            links[path] = scan.links
        }
        var broken: [Broken] = []
        for page in links.keys.sorted() {
            for link in links[page]! {
                if let reason = problem(with: link, on: page, ids: ids) {
                    broken.append(Broken(page: page, link: link, reason: reason))
                }
            }
        }
        return broken
    }

    /// Why `link` on `page` leads nowhere, or nil when it leads somewhere (or off the site).
    private func problem(with link: String, on page: String, ids: [String: Set<String>])
        -> String?
    {
        if link.hasPrefix("//") || Self.hasScheme(link) { return nil }
        var reference = Substring(link)
        var fragment: Substring?
        if let hash = reference.firstIndex(of: "#") {
            fragment = reference[reference.index(after: hash)...]
            reference = reference[..<hash]
        }
        if let question = reference.firstIndex(of: "?") { reference = reference[..<question] }
        let target: String
        if reference.isEmpty {
            target = page
        } else {
            guard let resolved = resolve(String(reference), from: page) else {
                return "it leads outside the site"
            }
            guard let file = existingFile(resolved) else { return "no such page in the site" }
            target = file
        }
        if let fragment, !fragment.isEmpty, target.hasSuffix(".html") {
            let id = String(fragment).removingPercentEncoding ?? String(fragment)
            if ids[target]?.contains(id) != true {
                return "no element has the id '\(id)' there"
            }
        }
        return nil
    }

    /// The path inside the site a link points to, or nil when it climbs above the root or
    /// is root-relative outside the base path.
    private func resolve(_ reference: String, from page: String) -> String? {
        var segments: [Substring]
        var path = reference.removingPercentEncoding ?? reference
        if path.hasPrefix("/") {
            guard path.hasPrefix(basePath) else { return nil }
            path = String(path.dropFirst(basePath.count))
            segments = []
        } else {
            segments = page.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        }
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case ".": continue
            case "..":
                guard !segments.isEmpty else { return nil }
                segments.removeLast()
            default: segments.append(part)
            }
        }
        return segments.joined(separator: "/")
    }

    /// The file a resolved path serves: itself, or the `index.html` of a folder.
    private func existingFile(_ path: String) -> String? {
        if path.isEmpty || path.hasSuffix("/") {
            return files[path + "index.html"] != nil ? path + "index.html" : nil
        }
        if files[path] != nil { return path }
        // A folder without its final slash: servers redirect to it.
        return files[path + "/index.html"] != nil ? path + "/index.html" : nil
    }

    private static func hasScheme(_ link: String) -> Bool {
        guard let colon = link.firstIndex(of: ":") else { return false }
        let scheme = link[..<colon]
        return scheme.first?.isLetter == true
            && scheme.allSatisfy {
                $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0))
            }
    }
}

/// The `href` and `src` values and the `id`s of an HTML page, entities decoded: enough of
/// HTML to check links in pages fruitsite rendered.
enum HTMLAttributes {
    static func scan(_ bytes: [UInt8]) -> (links: [String], ids: Set<String>) {
        var links: [String] = []
        var ids: Set<String> = []
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
                if bytes[index...].starts(with: Array("!--".utf8)) {
                    index = find(Array("-->".utf8), in: bytes, from: index) ?? count
                }
                continue
            }
            let nameStart = index
            while index < count, isNameByte(bytes[index]) { index += 1 }
            let tag = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
            if tag.isEmpty { continue }
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
                let name = String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
                var value: String?
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
                        value = String(
                            decoding: bytes[valueStart..<min(index, count)], as: UTF8.self)
                        index += 1
                    } else {
                        let valueStart = index
                        while index < count, !isSpace(bytes[index]),
                            bytes[index] != UInt8(ascii: ">")
                        {
                            index += 1
                        }
                        value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                    }
                }
                guard let value else { continue }
                let decoded = decodeEntities(value)
                if name == "id" || (name == "name" && tag == "a") {
                    ids.insert(decoded)
                } else if name == "href" || name == "src" {
                    links.append(decoded)
                }
            }
            // The text of scripts and styles is not HTML.
            if tag == "script" || tag == "style" {
                index = find(Array("</\(tag)".utf8), in: bytes, from: index) ?? count
            }
        }
        return (links, ids)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
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
        guard text.contains("&") else { return text }
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
