import Mustache

/// What only a fruit's own page shows: read from its file when that page is rendered, and
/// never kept in the site model.
public struct FruitDetails: Sendable, Equatable {
    /// The body rendered from CommonMark to HTML.
    public var bodyHTML: String
    /// Every front-matter key fruitsite does not read itself, passed to templates as
    /// `fruit.params`.
    public var params: MustacheObject

    public init(bodyHTML: String = "", params: MustacheObject = [:]) {
        self.bodyHTML = bodyHTML
        self.params = params
    }
}
