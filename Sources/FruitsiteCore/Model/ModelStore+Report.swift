extension ModelStore {
    /// What the build that saved a model reported, and a hash of what it read besides the
    /// content: a build that finds the content, the config and the theme as that one found
    /// them has the same site, and reports the same without decoding the model, applying or
    /// rendering anything (`SiteBuilder.build()`).
    struct Report: Sendable, Equatable {
        /// The hash of the config file and the theme (`SiteBuilder.inputs(config:theme:)`).
        var inputs: UInt64
        var htmlPageCount: Int
        var fruitCount: Int
        var categoryCount: Int
        /// The warnings of the content and of what was made of it, which every build repeats
        /// until they are fixed. The config's and the theme's are not among them: each build
        /// reads those anew.
        var warnings: [Diagnostic]

        func encode(into writer: inout ByteWriter) {
            writer.word(inputs)
            writer.integer(htmlPageCount)
            writer.integer(fruitCount)
            writer.integer(categoryCount)
            writer.integer(warnings.count)
            for warning in warnings { writer.diagnostic(warning) }
        }

        /// What `encode(into:)` wrote; nil when it is damaged.
        static func decode(_ reader: inout ByteReader) -> Report? {
            guard let inputs = reader.word(), let htmlPageCount = reader.integer(),
                let fruitCount = reader.integer(), let categoryCount = reader.integer(),
                let count = reader.integer(), count >= 0, count <= reader.buffer.count
            else { return nil }
            var warnings: [Diagnostic] = []
            for _ in 0..<count {
                guard let warning = reader.diagnostic() else { return nil }
                warnings.append(warning)
            }
            return Report(
                inputs: inputs, htmlPageCount: htmlPageCount, fruitCount: fruitCount,
                categoryCount: categoryCount, warnings: warnings)
        }
    }
}
