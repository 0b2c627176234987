// MARK: - Literals

// Literals keep hand-written contexts in tests and callers close to the JSON they stand for.

extension MustacheValue: ExpressibleByStringLiteral {
    /// Creates a string value from a literal.
    /// - Parameter value: The string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    /// Creates a boolean value from a literal.
    /// - Parameter value: The boolean.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    /// Creates an integer value from a literal.
    /// - Parameter value: The integer.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    /// Creates a floating-point value from a literal.
    /// - Parameter value: The number.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    /// Creates a list from a literal.
    /// - Parameter elements: The items of the list.
    public init(arrayLiteral elements: MustacheValue...) {
        self = .array(elements)
    }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    /// Creates a hash from a literal; a repeated key keeps its last value.
    /// - Parameter elements: The key-value pairs.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(MustacheObject(pairs: elements))
    }
}

extension MustacheValue: ExpressibleByNilLiteral {
    /// Creates the null value from `nil`.
    /// - Parameter nilLiteral: Unused.
    public init(nilLiteral: ()) {
        self = .null
    }
}
