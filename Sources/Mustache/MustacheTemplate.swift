/// One compiled template, for the simple case of rendering a single template string.
public struct MustacheTemplate: Sendable {
    private let template: CompiledTemplate

    /// Compiles a template.
    /// - Parameters:
    ///   - source: The template text.
    ///   - name: The name errors report the template under.
    /// - Throws: `MustacheError`, the first syntax error in the template; use
    ///   `MustacheLibrary` to get all of them.
    public init(_ source: String, name: String = "template") throws(MustacheError) {
        let result = Parser.parse(source, name: name)
        if let error = result.errors.first {
            throw error
        }
        template = result.template
    }

    /// Renders the template against a context, compiling the partials it may include.
    /// - Parameters:
    ///   - context: The data the template's names look up.
    ///   - partials: Templates `{{> name}}` and `{{< name}}` may include, keyed by name; a
    ///     missing one renders as the empty string, as the spec requires.
    /// - Returns: The rendered text.
    /// - Throws: `MustacheErrors` when a partial does not compile; `MustacheError` when
    ///   partials nest deeper than the bound. Compiling and rendering happen in one call here,
    ///   so the error is untyped; `MustacheLibrary` separates the two and types each.
    public func render(_ context: MustacheValue, partials: [String: String] = [:]) throws -> String
    {
        let (compiled, errors) = MustacheLibrary.compile(partials)
        guard errors.isEmpty else {
            throw MustacheErrors(errors: errors)
        }
        let bytes = try MustacheLibrary.render(
            template, with: context, templates: compiled, requiresKnownPartials: false)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension MustacheTemplate {
    /// `text` as `{{name}}` writes a value: what a sentence made outside a template, and
    /// written with `{{{name}}}`, escapes to read as the template's own text would.
    public static func escaped(_ text: String) -> String {
        var text = text
        var output = OutputBuffer(capacity: text.utf8.count)
        text.withUTF8 { output.appendEscaped($0) }
        return String(decoding: output.bytes(), as: UTF8.self)
    }
}
