/// A parsed template: its nodes, which the usage analysis walks, lowered once to the program
/// the renderer walks, and the templates it names statically.
struct CompiledTemplate: Sendable {
    /// A `{{>name}}` or `{{<name}}` tag with a fixed name, checked against the library.
    struct Reference: Sendable {
        var name: String
        var isParent: Bool
        var position: MustacheError.Position
    }

    var name: String
    let nodes: [Node]
    let program: Program
    var references: [Reference]
    /// The source size, a cheap guess at the output size for `reserveCapacity`.
    var sourceSize: Int

    init(name: String, nodes: [Node], references: [Reference], sourceSize: Int) {
        (self.name, self.nodes, self.references) = (name, nodes, references)
        self.sourceSize = sourceSize
        program = Program(nodes)
    }
}
