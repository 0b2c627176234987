/// What to build from where: the command line's options.
public struct BuildOptions: Sendable {
    public var contentDirectory = "Content"
    public var templatesDirectory = "Templates"
    public var outputDirectory = "Output"
    /// The config file; when nil, `fruitsite.yml` is read if it exists.
    public var configPath: String?
    public var includeDrafts = false
    public var force = false
    /// Ignore the previous build: render every page and write a whole new output folder.
    public var clean = false

    public init() {}
}

/// The whole pipeline: load → parse → catalog → render → write.
///
/// `check` stops before writing; `build` writes. Every stage's diagnostics are collected so a
/// build reports all its content and template errors together, like a compiler.
public struct SiteBuilder: Sendable {
    public var options: BuildOptions
    public var fileSystem: FileSystem
    /// Called with (pages rendered, pages in all) while rendering; see `PageRenderer`.
    public var onProgress: (@Sendable (Int, Int) -> Void)?

    /// Creates a builder.
    /// - Parameters:
    ///   - options: Folders and flags.
    ///   - fileSystem: Where sources are read from.
    public init(options: BuildOptions, fileSystem: FileSystem = .local) {
        self.options = options
        self.fileSystem = fileSystem
    }

    /// The rendered site and what was found on the way.
    public struct Rendering: Sendable {
        public var pages: [RenderedPage]
        public var catalog: Catalog
        /// Warnings only; errors throw.
        public var warnings: [Diagnostic]
        /// What writing changed; nil when nothing was written (`check`).
        public var written: OutputWriter.Summary?
    }

    // MARK: - Stages

    /// Reads `fruitsite.yml` (or the config named in the options), or the defaults.
    public func loadConfig() throws(BuildFailure) -> SiteConfig {
        let path = options.configPath ?? "fruitsite.yml"
        guard let bytes = try? fileSystem.read(path) else {
            if options.configPath != nil {
                throw BuildFailure([
                    .error(at: SourceLocation(path: path), "cannot read the config file")
                ])
            }
            return SiteConfig()
        }
        guard let text = try? SourceText(bytes: bytes).text else {
            throw BuildFailure([
                .error(at: SourceLocation(path: path), "the config is not valid UTF-8")
            ])
        }
        return try SiteConfig(yaml: text, path: path)
    }

    /// Loads and parses every entry into a catalog, drafts left out unless asked for.
    /// - Parameter config: Decides whether raw HTML passes through Markdown.
    /// - Returns: The catalog (nil when any entry has an error) and every diagnostic.
    public func loadCatalog(config: SiteConfig) -> (catalog: Catalog?, diagnostics: [Diagnostic]) {
        let loaded = SiteLoader(contentDirectory: options.contentDirectory, fileSystem: fileSystem)
            .load()
        let parser = FruitParser(markdown: CommonMark(allowsRawHTML: config.rawHTML))
        let files = loaded.files
        let results = files.concurrentMap(parser.parse)
        var diagnostics = loaded.diagnostics
        var fruits: [Fruit] = []
        fruits.reserveCapacity(files.count)
        for result in results {
            diagnostics += result.diagnostics
            if let fruit = result.fruit, options.includeDrafts || !fruit.isDraft {
                fruits.append(fruit)
            }
        }
        let catalog = Catalog(fruits: fruits)
        diagnostics += catalog.problems()
        if !diagnostics.containsErrors && files.isEmpty && loaded.diagnostics.isEmpty {
            diagnostics.append(
                .warning(
                    at: SourceLocation(path: options.contentDirectory),
                    "no .md files found; the site will list no fruits"))
        }
        return (diagnostics.containsErrors ? nil : catalog, diagnostics.sortedByLocation())
    }

    /// Everything `build` does except writing: what `fruitsite check` runs.
    /// - Parameter previous: The last build's manifest: pages made from the same inputs are
    ///   not rendered again.
    /// - Throws: `BuildFailure` with every content and template error found.
    public func render(previous: BuildManifest? = nil) throws(BuildFailure) -> Rendering {
        let config = try loadConfig()
        var diagnostics: [Diagnostic] = []
        var theme: TemplateLoader.Theme?
        do {
            theme = try TemplateLoader(
                templatesDirectory: options.templatesDirectory, fileSystem: fileSystem
            ).load()
        } catch {
            diagnostics += error.diagnostics
        }
        let (catalog, contentDiagnostics) = loadCatalog(config: config)
        diagnostics += contentDiagnostics
        guard let theme, let catalog, !diagnostics.containsErrors else {
            throw BuildFailure(diagnostics.sortedByLocation())
        }
        var renderer = PageRenderer(
            config: config, theme: theme, templatesDirectory: options.templatesDirectory)
        renderer.onProgress = onProgress
        do {
            let pages = try renderer.render(catalog, previous: previous)
            return Rendering(pages: pages, catalog: catalog, warnings: diagnostics)
        } catch {
            throw BuildFailure(diagnostics + error.diagnostics)
        }
    }

    /// Renders the site and writes it to the output folder.
    ///
    /// When the output folder holds an earlier build, only pages whose inputs changed are
    /// rendered and only files whose bytes changed are written; the result is byte for byte
    /// what a clean build writes.
    /// - Throws: `BuildFailure`; the previous output is then left as it was.
    public func build() throws(BuildFailure) -> Rendering {
        let writer = OutputWriter(
            outputDirectory: options.outputDirectory,
            protectedDirectories: ["."],
            sourceDirectories: [options.contentDirectory, options.templatesDirectory],
            force: options.force)
        // Refuse a dangerous output folder before spending time on rendering.
        try writer.validate()
        let previous = options.clean ? nil : writer.readManifest()
        var rendering = try render(previous: previous)
        rendering.written = try writer.write(rendering.pages, previous: previous)
        return rendering
    }
}
