/// An SVG file as a site publishes it: untouched, so first read for its size and for what
/// could run script where it is opened.
///
/// Opened at its own address, an SVG is a document of the site's origin, and a script in it
/// runs with the site's cookies and storage. A page that shows it with `<img>` runs none, but
/// anyone can link to the file itself.
struct SVGSource: Equatable, Sendable {
    /// The width in CSS pixels, rounded, at least 1.
    var width: Int
    /// The height in CSS pixels, rounded, at least 1.
    var height: Int

    /// Reads an SVG file.
    /// - Parameters:
    ///   - bytes: The file.
    ///   - allowsScripts: The config's `rawHTML`: true skips the script checks; the size is
    ///     still required.
    /// - Throws: The first problem in the file.
    init(_ bytes: [UInt8], allowsScripts: Bool) throws(Problem) {
        var tokenizer = try SVGTokenizer(bytes)
        var size: (width: Int, height: Int)?
        var openElements: [(name: String, offset: Int)] = []
        // The text of the `<style>` element open, CDATA sections included, read whole at its
        // end tag: a CDATA section can split a word.
        var style: SVGTokenizer.Text?
        func problem(_ message: String, at offset: Int) -> Problem {
            tokenizer.problem(message, at: offset)
        }
        func unsafe(_ what: String, at offset: Int) -> Problem {
            problem(
                "\(what) could run script when the SVG is opened at its own address; "
                    + "`rawHTML: true` in the config allows it", at: offset)
        }
        while let token = try tokenizer.next() {
            switch token.kind {
            case .startTag(let tag):
                if size == nil {
                    guard Self.localName(tag.name) == "svg" else {
                        throw problem(
                            "not an SVG document: its root element is <\(tag.name)>",
                            at: token.offset)
                    }
                    guard let rootSize = Self.size(of: tag) else {
                        throw problem(
                            "an SVG needs a width and height, or a viewBox", at: token.offset)
                    }
                    size = rootSize
                }
                if !allowsScripts, case let (what, offset)? = Self.scriptHazard(in: tag) {
                    throw unsafe(what, at: offset ?? token.offset)
                }
                if !tag.isEmpty { openElements.append((tag.name, token.offset)) }
                if !tag.isEmpty, Self.localName(tag.name) == "style" { style = .init() }
            case .endTag(let name):
                guard let open = openElements.popLast() else {
                    throw problem(
                        "not an SVG document: </\(name)> closes no element", at: token.offset)
                }
                guard open.name == name else {
                    throw problem(
                        "not an SVG document: </\(name)> stands where </\(open.name)> belongs",
                        at: token.offset)
                }
                if let text = style, Self.localName(name) == "style" {
                    if !allowsScripts, case let (hazard, index)? = Self.styleHazard(in: text.bytes)
                    {
                        throw unsafe("`\(hazard)` in a <style> element", at: text.origins[index])
                    }
                    style = nil
                }
            case .text(let text):
                style?.bytes += text.bytes
                style?.origins += text.origins
                if size == nil, !text.bytes.allSatisfy(SVGTokenizer.isWhitespace) {
                    throw problem(
                        "not an SVG document: text stands before its root element",
                        at: token.offset)
                }
            case .processingInstruction(let target, let content):
                if token.offset == tokenizer.start, target == "xml" {
                    if let encoding = Self.encoding(declaredIn: content),
                        !["utf-8", "utf8"].contains(encoding.lowercased())
                    {
                        throw problem(
                            "not an SVG document: it declares the encoding \(encoding), "
                                + "and only UTF-8 is read", at: token.offset)
                    }
                } else if target.lowercased() == "xml" {
                    throw problem(
                        "not an SVG document: the XML declaration must start the file",
                        at: token.offset)
                } else if !allowsScripts {
                    // `<?xml-stylesheet?>` can apply an XSLT style sheet, which can write
                    // a script element.
                    throw unsafe("the processing instruction <?\(target)?>", at: token.offset)
                }
            case .doctype(let subset?) where !allowsScripts:
                // An entity can stand for markup, a script element included, that no check
                // here sees.
                if let entity = tokenizer.index(of: "<!ENTITY", from: subset.lowerBound),
                    entity < subset.upperBound
                {
                    throw unsafe("an entity declaration", at: entity)
                }
                throw unsafe("a DOCTYPE's internal subset", at: subset.lowerBound)
            case .doctype:
                break
            }
        }
        if let open = openElements.last {
            throw problem("the element <\(open.name)> is not closed", at: open.offset)
        }
        guard let size else {
            throw problem("not an SVG document: it has no root element", at: tokenizer.start)
        }
        (width, height) = size
    }

    /// Why an SVG file cannot be published, and where.
    struct Problem: Error, Equatable, CustomStringConvertible {
        /// The 1-based line in the file.
        var line: Int
        /// The 1-based column, in Unicode scalars as `SourceLocation` counts them.
        var column: Int
        var message: String

        var description: String { "\(line):\(column): \(message)" }
    }

    /// The name without its namespace prefix, lowercased: browsers read XML names as
    /// written, but catching `<SCRIPT>` costs nothing.
    private static func localName(_ name: String) -> String {
        String(name.split(separator: ":").last ?? "").lowercased()
    }
}

// MARK: - Script

extension SVGSource {
    /// Elements that run script, hold HTML, or load or redirect to another document.
    private static let scriptElements: Set = [
        "script", "handler", "listener", "foreignobject", "iframe", "frame", "embed", "object",
        "applet", "base", "meta",
    ]
    private static let scriptSchemes = ["javascript:", "vbscript:", "data:text/html"]
    private static let styleHazards = ["javascript:", "expression(", "@import"]

    /// What in `tag` could run script, and the offset of the attribute it is in (nil for the
    /// element itself).
    private static func scriptHazard(in tag: SVGTokenizer.Tag) -> (String, Int?)? {
        if scriptElements.contains(localName(tag.name)) { return ("<\(tag.name)>", nil) }
        for attribute in tag.attributes {
            let name = localName(attribute.name)
            if isEventHandler(name) {
                return ("the event handler attribute `\(attribute.name)`", attribute.offset)
            }
            // `<animate>` and `<set>` give an attribute each value of a `;`-separated list.
            let values =
                ["values", "to", "from"].contains(name)
                ? attribute.value.split(separator: UInt8(ascii: ";")) : [attribute.value[...]]
            if let scheme = values.lazy.compactMap({ scriptScheme(of: $0) }).first {
                return ("a `\(scheme)` address in `\(attribute.name)`", attribute.offset)
            }
            if name == "attributename",
                isEventHandler(
                    String(decoding: attribute.value.filter { $0 > 0x20 }, as: UTF8.self))
            {
                return ("an animation of an event handler attribute", attribute.offset)
            }
            if name == "style", case let (hazard, _)? = styleHazard(in: attribute.value) {
                return ("`\(hazard)` in a style attribute", attribute.offset)
            }
        }
        return nil
    }

    /// Whether an attribute's name is an event handler's: `onload`, `xlink:ONclick`.
    private static func isEventHandler(_ name: String) -> Bool {
        localName(name).hasPrefix("on")
    }

    /// The scheme of `scriptSchemes` that `value` starts with, in any case.
    private static func scriptScheme(of value: ArraySlice<UInt8>) -> String? {
        let address = value.lazy.filter { !isDroppedFromAddresses($0) }.map(lowercased)
        return scriptSchemes.first { address.starts(with: $0.utf8) }
    }

    /// ASCII whitespace and control characters, which browsers drop anywhere in an address:
    /// `java\tscript:` is `javascript:`.
    private static func isDroppedFromAddresses(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F
    }

    /// The first of `styleHazards` in CSS, in any case, and its index.
    private static func styleHazard(in css: [UInt8]) -> (String, Int)? {
        let lowered = css.map(lowercased)
        for index in lowered.indices {
            if let hazard = styleHazards.first(where: { lowered[index...].starts(with: $0.utf8) }) {
                return (hazard, index)
            }
        }
        return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// The encoding an XML declaration's content names, if it names one.
    private static func encoding(declaredIn content: [UInt8]) -> String? {
        let text = String(decoding: content, as: UTF8.self)
        return text.firstMatch(of: #/encoding\s*=\s*["']([^"']*)["']/#).map { String($0.1) }
    }
}

// MARK: - Size

extension SVGSource {
    /// The root's size: its `width` and `height` when both are plain or `px` numbers, else
    /// the `viewBox`'s, scaled to the one of them that is.
    private static func size(of root: SVGTokenizer.Tag) -> (width: Int, height: Int)? {
        func attribute(_ name: String) -> String? {
            root.attributes.first { $0.name == name }.map {
                String(decoding: $0.value, as: UTF8.self)
            }
        }
        let width = attribute("width").flatMap(pixels)
        let height = attribute("height").flatMap(pixels)
        let box = attribute("viewBox").flatMap(viewBoxSize)
        let size: (Double, Double)? =
            switch (width, height, box) {
            case (let width?, let height?, _): (width, height)
            case (let width?, nil, let box?): (width, width * box.height / box.width)
            case (nil, let height?, let box?): (height * box.width / box.height, height)
            case (nil, nil, let box?): (box.width, box.height)
            default: nil
            }
        guard let size, let width = rounded(size.0), let height = rounded(size.1) else {
            return nil
        }
        return (width, height)
    }

    /// A length in CSS pixels: a positive number, perhaps followed by `px`.
    private static func pixels(_ length: String) -> Double? {
        let words = length.split(whereSeparator: \.isWhitespace)
        guard words.count == 1, let word = words.first else { return nil }
        let digits = word.lowercased().hasSuffix("px") ? word.dropLast(2) : word
        return number(digits).flatMap { $0 > 0 ? $0 : nil }
    }

    /// The width and height of a `viewBox`, its third and fourth numbers, when positive.
    private static func viewBoxSize(_ viewBox: String) -> (width: Double, height: Double)? {
        let numbers = viewBox.split { $0 == "," || $0.isWhitespace }.map(number)
        guard numbers.count == 4, let width = numbers[2], let height = numbers[3],
            numbers.allSatisfy({ $0 != nil }), width > 0, height > 0
        else { return nil }
        return (width, height)
    }

    /// A number as SVG writes one (`12`, `-0.5`, `.5`, `1e3`), and not what else `Double`
    /// reads (`inf`, `0x1p3`).
    private static func number(_ text: Substring) -> Double? {
        text.wholeMatch(of: #/[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?/#) == nil
            ? nil : Double(text)
    }

    /// Whole pixels, rounded half up, at least 1; nil past any size a picture could have.
    private static func rounded(_ pixels: Double) -> Int? {
        pixels < 1e9 ? max(1, Int((pixels + 0.5).rounded(.down))) : nil
    }
}
