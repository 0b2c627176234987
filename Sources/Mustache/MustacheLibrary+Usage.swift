extension MustacheLibrary {
    /// What rendering a template can look up, found from the compiled nodes alone.
    ///
    /// The walk follows `render` without data: every section's content is visited, partials
    /// and parents are expanded, and each block takes the override in force or its default.
    /// A template or block override already expanded twice on the current chain of
    /// inclusions, with the same overrides in force, is not expanded again: a recursive
    /// template (a partial including itself inside a section, to render a tree) yields every
    /// name it looks up, with the sections of one round of recursion but not of every depth
    /// the data may reach.
    /// - Parameter name: The name of the template.
    /// - Returns: The templates and lookups a render can reach, or nil when no template has
    ///   that name.
    public func usage(of name: String) -> MustacheUsage? {
        templates[name].map { UsageAnalyzer.usage(of: $0, in: templates) }
    }
}
