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
