/// What rendering a template can look up, found from its compiled nodes without any data.
///
/// A caller uses it to tell which parts of its data a template's output can depend on. Data
/// decides which sections render, so every section is taken as rendering: each lookup is one
/// that some data makes, not one that every render makes.
public struct MustacheUsage: Sendable, Equatable {
    /// Every template the render can reach through fixed partial and parent tags, the
    /// template itself included.
    public var templates: Set<String>
    /// Whether a dynamic partial or parent (`{{>*name}}`, `{{<*name}}`) can be reached: its
    /// target is known only at render time, so `templates` and `lookups` are then incomplete
    /// and a careful caller assumes everything is used.
    public var hasDynamicInclusions: Bool
    /// Every lookup a render can make; for a template that includes itself, every name it
    /// looks up, but with the sections of one round of recursion only (see
    /// `MustacheLibrary.usage(of:)`).
    public var lookups: Set<Lookup>

    /// Creates a usage.
    /// - Parameters:
    ///   - templates: The templates the render can reach, the template itself included.
    ///   - hasDynamicInclusions: Whether a dynamic partial or parent can be reached.
    ///   - lookups: Every lookup a render can make.
    public init(templates: Set<String>, hasDynamicInclusions: Bool, lookups: Set<Lookup>) {
        self.templates = templates
        self.hasDynamicInclusions = hasDynamicInclusions
        self.lookups = lookups
    }

    /// One name a tag looks up, with the sections around the tag where it renders.
    ///
    /// Variables, sections, inverted sections and the names of dynamic partials and parents
    /// look names up. Mustache resolves a name's first part in the innermost section value
    /// that has it, then in the enclosing ones, so the sections tell where the value can come
    /// from.
    public struct Lookup: Sendable, Hashable {
        /// The tag's name split at dots (`["fruit", "name"]`); empty for the implicit
        /// iterator `.`.
        public var name: [String]
        /// The names of the sections whose value is on the context stack around the tag when
        /// it renders, outermost first. Inverted sections push nothing, so they are not
        /// listed.
        public var sections: [[String]]

        /// Creates a lookup.
        /// - Parameters:
        ///   - name: The tag's name split at dots; empty for the implicit iterator `.`.
        ///   - sections: The names of the sections around the tag, outermost first.
        public init(name: [String], sections: [[String]] = []) {
            self.name = name
            self.sections = sections
        }
    }
}
