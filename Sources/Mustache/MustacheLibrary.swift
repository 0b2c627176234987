/// A set of named, compiled templates; each can be rendered and used as partial or parent
/// of the others.
///
/// Templates are compiled once in `init`; `render` only walks the compiled nodes, so one
/// library can render many pages, from many threads at once.
public struct MustacheLibrary: Sendable {
    /// The compiled templates keyed by name; internal for the extensions in other files.
    let templates: [String: CompiledTemplate]
    private let requiresKnownPartials: Bool

    /// Compiles every template, collecting the errors of all of them.
    /// - Parameters:
    ///   - templates: The template sources keyed by name, such as `fruit` or `partials/card`.
    ///   - requiresKnownPartials: Whether a `{{> name}}` or `{{< name}}` naming a template not
    ///     in the library is an error, at compile time for fixed names and at render time for
    ///     dynamic ones (`{{> *name}}`). The default follows the spec: such a partial renders
    ///     as the empty string.
    /// - Throws: `MustacheErrors` holding every syntax error of every template and, with
    ///   `requiresKnownPartials`, every fixed partial or parent name that names no template.
    public init(
        templates: [String: String], requiresKnownPartials: Bool = false
    ) throws(MustacheErrors) {
        let (compiled, syntaxErrors) = Self.compile(templates)
        let errors =
            syntaxErrors + (requiresKnownPartials ? Self.unknownReferences(in: compiled) : [])
        guard errors.isEmpty else {
            throw MustacheErrors(errors: errors)
        }
        self.templates = compiled
        self.requiresKnownPartials = requiresKnownPartials
    }

    /// The names of the templates, sorted.
    public var names: [String] {
        templates.keys.sorted()
    }

    /// Renders a template against a context.
    /// - Parameters:
    ///   - name: The name of the template to render.
    ///   - context: The data the template's names look up.
    /// - Returns: The rendered text.
    /// - Throws: `MustacheError` when no template has that name, when partials nest deeper
    ///   than the bound (a partial including itself unconditionally), or, with
    ///   `requiresKnownPartials`, when a dynamic partial names an unknown template, or when
    ///   the output grows past `sizeLimit` bytes.
    public func render(
        _ name: String, with context: MustacheValue, sizeLimit: Int = .max
    ) throws(MustacheError) -> String {
        String(decoding: try renderUTF8(name, with: context, sizeLimit: sizeLimit), as: UTF8.self)
    }

    /// Renders a template against a context into UTF-8 bytes, as `render(_:with:sizeLimit:)`
    /// does, for a caller that writes them out and needs no `String`.
    public func renderUTF8(
        _ name: String, with context: MustacheValue, sizeLimit: Int = .max
    ) throws(MustacheError) -> [UInt8] {
        guard let template = templates[name] else {
            throw MustacheError(.unknownTemplate(name), template: name, line: 0, column: 0)
        }
        return try Self.render(
            template, with: context, templates: templates,
            requiresKnownPartials: requiresKnownPartials, sizeLimit: sizeLimit)
    }

    // MARK: - Shared with MustacheTemplate

    /// Compiles each source under its name; the templates are only meaningful when `errors`
    /// is empty, which holds the syntax errors of all of them.
    static func compile(
        _ sources: [String: String]
    ) -> (templates: [String: CompiledTemplate], errors: [MustacheError]) {
        var compiled: [String: CompiledTemplate] = [:]
        var errors: [MustacheError] = []
        for (name, source) in sources {
            let result = Parser.parse(source, name: name)
            compiled[name] = result.template
            errors += result.errors
        }
        return (compiled, errors)
    }

    static func render(
        _ template: CompiledTemplate, with context: MustacheValue,
        templates: [String: CompiledTemplate], requiresKnownPartials: Bool,
        sizeLimit: Int = .max
    ) throws(MustacheError) -> [UInt8] {
        var renderer = Renderer(
            templates: templates, requiresKnownPartials: requiresKnownPartials, context: context,
            capacity: template.sourceSize * 2, rootTemplate: template.name, sizeLimit: sizeLimit)
        try renderer.render(template)
        return renderer.finish()
    }

    private static func unknownReferences(in templates: [String: CompiledTemplate])
        -> [MustacheError]
    {
        var errors: [MustacheError] = []
        for template in templates.values {
            for reference in template.references where templates[reference.name] == nil {
                let reason: MustacheError.Reason =
                    reference.isParent
                    ? .unknownParent(reference.name) : .unknownPartial(reference.name)
                errors.append(
                    MustacheError(
                        reason, template: template.name, line: reference.position.line,
                        column: reference.position.column,
                        hint: suggestion(for: reference.name, among: templates.keys)))
            }
        }
        return errors
    }

    /// "did you mean 'x'?" for the closest name, when it is close enough to be a typo.
    private static func suggestion(
        for name: String, among names: Dictionary<String, CompiledTemplate>.Keys
    ) -> String? {
        let best = names.map { ($0, editDistance(name, $0)) }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let best, best.1 <= max(1, name.count / 3) else { return nil }
        return "did you mean '\(best.0)'?"
    }

    private static func editDistance(_ first: String, _ second: String) -> Int {
        let first = Array(first)
        let second = Array(second)
        var previous = Array(0...second.count)
        for (row, character) in first.enumerated() {
            var current = [row + 1]
            for (column, other) in second.enumerated() {
                let substitution = previous[column] + (character == other ? 0 : 1)
                current.append(min(substitution, previous[column + 1] + 1, current[column] + 1))
            }
            previous = current
        }
        return previous[second.count]
    }
}
