/// A parsed template: the nodes to render, and the templates it names statically.
struct CompiledTemplate: Sendable {
    /// A `{{>name}}` or `{{<name}}` tag with a fixed name, checked against the library.
    struct Reference: Sendable {
        var name: String
        var isParent: Bool
        var position: MustacheError.Position
    }

    var name: String
    var nodes: [Node]
    var references: [Reference]
    /// The source size, a cheap guess at the output size for `reserveCapacity`.
    var sourceSize: Int
}
