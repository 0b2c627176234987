/// A fruit's values of one facet: a front-matter key the config lists in `facets`, such as
/// `vitamins: C, B6`, whose values (`C`, `B6`) filter the search and get pages of their own.
public struct FacetValues: Sendable, Equatable {
    public var key: String
    /// In the order written, each once, NFC.
    public var values: [String]

    public init(key: String, values: [String]) {
        self.key = key
        self.values = values
    }
}

/// Where one facet value is written in its entry's file.
public struct FacetPlace: Sendable, Equatable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
