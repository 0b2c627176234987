/// Checking the names in tags and where each tag is.
extension Parser {
    // MARK: - Names

    mutating func makeName(_ content: String, at index: Int) -> Node.Name? {
        guard !content.isEmpty else {
            report(.emptyTagName, at: index)
            return nil
        }
        if content == "." {
            return Node.Name(parts: [])
        }
        // Split as UTF-8 (a dot is never inside a longer character): splitting Characters,
        // as a `String` splits, was nearly half of compiling a theme, which every build does.
        let parts = content.utf8.split(
            separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard !Self.hasWhitespace(content), !parts.contains(where: \.isEmpty) else {
            report(.invalidTagName(content), at: index)
            return nil
        }
        return Node.Name(parts: parts.map { String(decoding: $0, as: UTF8.self) })
    }

    /// Whether `text` holds a White_Space code point; ASCII ones (tab to carriage return, and
    /// space) are told apart without looking up the property, which cost 3,400 instructions
    /// a tag name.
    static func hasWhitespace(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar.isASCII
                ? scalar == " " || (0x09...0x0D).contains(scalar.value)
                : scalar.properties.isWhitespace
        }
    }

    mutating func makeTemplateName(
        _ content: String, at index: Int, isParent: Bool
    ) -> Node.TemplateName? {
        if content.hasPrefix("*") {
            return makeName(String(content.dropFirst()), at: index).map { .dynamic($0) }
        }
        guard !content.isEmpty else {
            report(.emptyTagName, at: index)
            return nil
        }
        guard !Self.hasWhitespace(content) else {
            report(.invalidTagName(content), at: index)
            return nil
        }
        let position = source.position(at: tokens[index].range.lowerBound)
        references.append(
            CompiledTemplate.Reference(name: content, isParent: isParent, position: position))
        return .fixed(content)
    }

    mutating func isValidBlockName(_ content: String, at index: Int) -> Bool {
        if content.isEmpty {
            report(.emptyTagName, at: index)
        } else if Self.hasWhitespace(content) {
            report(.invalidTagName(content), at: index)
        } else {
            return true
        }
        return false
    }

    func makeInclusion(_ name: Node.TemplateName, at index: Int) -> Node.Inclusion {
        let indentation = tokens[index].isStandalone ? leadingWhitespace(ofTagAt: index) : nil
        return Node.Inclusion(name: name, indentation: indentation, location: location(of: index))
    }

    func leadingWhitespace(ofTagAt index: Int) -> [UInt8] {
        Array(lines[lineOfToken[index]].leadingWhitespace)
    }

    func location(of index: Int) -> Node.Location {
        Node.Location(
            template: templateName, position: source.position(at: tokens[index].range.lowerBound))
    }

}
