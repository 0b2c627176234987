/// A YAML value as libyaml parsed it, with the 1-based position of its first character.
struct YAMLNode: Sendable {
    enum Kind: Sendable {
        /// `isPlain` is true for an untagged, unquoted scalar, the only kind YAML resolves
        /// to booleans, numbers and null.
        case scalar(String, isPlain: Bool)
        case sequence([YAMLNode])
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    var kind: Kind
    /// Line and column within the YAML text, both 1-based.
    var line: Int
    var column: Int
    /// Nodes this value stands for once aliases are expanded; bounds alias bombs.
    var expandedSize: Int

    /// The scalar's text, or nil for a collection.
    var scalarText: String? {
        if case .scalar(let text, _) = kind { return text }
        return nil
    }

    /// Whether this is a plain scalar that YAML's core schema reads as null (`~`, `null`, empty).
    var isNull: Bool {
        guard case .scalar(let text, true) = kind else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// Every key, at any depth, that its map has already, with the key it repeats: YAML
    /// allows no such key, though libyaml lets it through. Keys are compared as text in NFC.
    var repeatedKeys: [(key: YAMLNode, first: YAMLNode)] {
        var repeated: [(key: YAMLNode, first: YAMLNode)] = []
        func visit(_ node: YAMLNode) {
            switch node.kind {
            case .scalar: break
            case .sequence(let items): items.forEach(visit)
            case .mapping(let pairs):
                // Front matter's maps are small: compared pair by pair, with a table only
                // for a large map, where that would take quadratic time.
                let names = pairs.map { $0.key.scalarText.map(Fold.normalizeNFC) }
                var table: [String: Int] = [:]
                for (index, name) in names.enumerated() {
                    guard let name else { continue }
                    let first: Int?
                    if names.count <= 32 {
                        first = names[..<index].firstIndex(of: name)
                    } else {
                        first = table[name]
                        if first == nil { table[name] = index }
                    }
                    if let first { repeated.append((pairs[index].key, pairs[first].key)) }
                }
                pairs.forEach { visit($0.value) }
            }
        }
        visit(self)
        return repeated
    }

    /// An error for each scalar, key or value at any depth, that holds a code point HTML
    /// pages cannot (`HTMLCharacters`), at `location(of:)` the scalar.
    func forbiddenCharacterErrors(at location: (YAMLNode) -> SourceLocation) -> [Diagnostic] {
        var errors: [Diagnostic] = []
        func visit(_ node: YAMLNode) {
            switch node.kind {
            case .scalar(let text, _):
                if let first = HTMLCharacters.firstForbidden(in: text[...]) {
                    errors.append(
                        HTMLCharacters.error(
                            at: location(node), in: "the value", first.scalar, count: first.count))
                }
            case .sequence(let items): items.forEach(visit)
            case .mapping(let pairs):
                for (key, value) in pairs {
                    visit(key)
                    visit(value)
                }
            }
        }
        visit(self)
        return errors
    }

    /// A short noun for error messages: "a list", "a map", "a number", "a string", as YAML's
    /// core schema reads a plain scalar.
    var kindDescription: String {
        switch kind {
        case .scalar:
            switch FruitParser.mustacheValue(self) {
            case .null: "null"
            case .bool: "a boolean"
            case .int, .double: "a number"
            default: "a string"
            }
        case .sequence: "a list"
        case .mapping: "a map"
        }
    }
}
