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

    /// A short noun for error messages: "a list", "a map", "a string".
    var kindDescription: String {
        switch kind {
        case .scalar: isNull ? "null" : "a string"
        case .sequence: "a list"
        case .mapping: "a map"
        }
    }
}
