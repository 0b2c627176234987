/// One element of a compiled template, rendered in order by `Renderer`.
indirect enum Node: Sendable {
    /// Literal text, with standalone lines and block indentation already removed, and whether
    /// it starts a line of the template. A line break inside it (not at its end) is followed
    /// by the start of a template line. UTF-8, as the renderer's output is.
    case text([UInt8], startsLine: Bool)
    /// Where a line of the template that starts with a tag starts: a standalone partial's
    /// indentation is emitted here.
    case lineStart
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (verbatim).
    case variable(Name, isEscaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(Name, [Node], isInverted: Bool)
    /// `{{>name}}` or `{{>*name}}`.
    case partial(Inclusion)
    /// `{{<name}}…{{/name}}`, with the blocks it overrides keyed by block name.
    case parent(Inclusion, arguments: [String: [Node]])
    /// `{{$name}}…{{/name}}`: overridable content with its default.
    case block(Block)

    // MARK: - Names

    /// A dotted name, split once at compile time; no parts means the implicit iterator `.`.
    struct Name: Sendable {
        var parts: [String]
    }

    /// The template a partial or parent tag names: fixed, or looked up in the context.
    enum TemplateName: Sendable {
        case fixed(String)
        /// `{{>*name}}`: the value at `name` is the template name.
        case dynamic(Name)
    }

    // MARK: - Inclusions

    /// Where a tag stands, for errors raised while rendering it.
    struct Location: Sendable {
        var template: String
        var position: MustacheError.Position
    }

    /// A partial or parent tag.
    struct Inclusion: Sendable {
        var name: TemplateName
        /// The whitespace before a standalone tag, prepended to each line of the template.
        var indentation: [UInt8]?
        var location: Location
    }

    /// A block tag and its default content.
    struct Block: Sendable {
        var name: String
        var content: [Node]
        /// For a standalone block, the indentation its content takes where it is expanded.
        var indentation: [UInt8]?
        var location: Location
    }
}
