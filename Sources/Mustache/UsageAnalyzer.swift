/// Walks compiled nodes the way `Renderer` renders them, recording the names they look up
/// instead of writing output; one analyzer serves one `usage(of:)` call.
///
/// Without data, every section is taken as rendering: its content is visited once, with the
/// section's name on the stack (an inverted section's without). Partials, parents and block
/// overrides follow `Renderer` step for step, so each lookup carries the sections around it
/// where it renders.
struct UsageAnalyzer {
    /// How many times one template, or one block's override, is expanded on one chain of
    /// inclusions with the same overrides in force.
    ///
    /// What an expansion visits depends only on the template (or override) and on the
    /// overrides in force, and along one chain the overrides only grow, never change (outer
    /// templates win), so their count tells them apart. A third expansion would visit the same
    /// nodes as the second with more sections around them: stopping there ends the walk of a
    /// recursive template, still reaches every name, and shows the sections of one round of
    /// recursion (`children` inside `children`).
    static let maximumExpansions = 2

    /// What an inclusion expands: a template, or the override of the block with that name.
    private enum Expansion: Hashable {
        case template(String)
        case override(String)
    }

    /// An expansion on the chain, told apart from earlier ones by the overrides in force.
    private struct ChainEntry: Hashable {
        var expansion: Expansion
        var overrideCount: Int
    }

    private let templates: [String: CompiledTemplate]
    private var usage = MustacheUsage(templates: [], hasDynamicInclusions: false, lookups: [])
    /// The names of the sections whose value the renderer has pushed, outermost first.
    private var sections: [[String]] = []
    /// The block overrides in force; outer templates win over the parents they name.
    private var overrides: [String: [Node]] = [:]
    /// How many times each expansion is on the current chain.
    private var chain: [ChainEntry: Int] = [:]

    private init(templates: [String: CompiledTemplate]) {
        self.templates = templates
    }

    /// What rendering `template` can look up, where `templates` are the ones it may include.
    static func usage(
        of template: CompiledTemplate, in templates: [String: CompiledTemplate]
    ) -> MustacheUsage {
        var analyzer = UsageAnalyzer(templates: templates)
        analyzer.usage.templates.insert(template.name)
        analyzer.expand(.template(template.name), template.nodes)
        return analyzer.usage
    }

    // MARK: - Nodes

    private mutating func visit(_ nodes: [Node]) {
        for node in nodes {
            switch node {
            case .text, .lineStart:
                break
            case .variable(let name, _):
                record(name)
            case .section(let name, let content, let isInverted):
                record(name)
                if isInverted {
                    visit(content)
                } else {
                    sections.append(name.parts)
                    visit(content)
                    sections.removeLast()
                }
            case .partial(let inclusion):
                include(inclusion, arguments: nil)
            case .parent(let inclusion, let arguments):
                include(inclusion, arguments: arguments)
            case .block(let block):
                // The override renders where the block stands, so with the sections around
                // the block in the parent, not those around the parent tag.
                if let override = overrides[block.name] {
                    expand(.override(block.name), override)
                } else {
                    visit(block.content)
                }
            }
        }
    }

    private mutating func include(_ inclusion: Node.Inclusion, arguments: [String: [Node]]?) {
        let name: String
        switch inclusion.name {
        case .fixed(let fixed):
            name = fixed
        case .dynamic(let path):
            // The target is known only at render time, so neither it nor the blocks a dynamic
            // parent overrides in it can be followed.
            record(path)
            usage.hasDynamicInclusions = true
            return
        }
        guard let template = templates[name] else { return }
        usage.templates.insert(name)
        let savedOverrides = overrides
        if let arguments, !arguments.isEmpty {
            overrides = arguments.merging(overrides) { _, outer in outer }
        }
        expand(.template(name), template.nodes)
        overrides = savedOverrides
    }

    /// Visits the nodes of an expansion, unless it is on the chain `maximumExpansions` times
    /// already with the same overrides in force.
    private mutating func expand(_ expansion: Expansion, _ nodes: [Node]) {
        let entry = ChainEntry(expansion: expansion, overrideCount: overrides.count)
        let count = chain[entry, default: 0]
        guard count < Self.maximumExpansions else { return }
        chain[entry] = count + 1
        visit(nodes)
        chain[entry] = count
    }

    private mutating func record(_ name: Node.Name) {
        usage.lookups.insert(MustacheUsage.Lookup(name: name.parts, sections: sections))
    }
}
