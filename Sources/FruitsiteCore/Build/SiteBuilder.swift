/// What to build from where: the command line's options.
public struct BuildOptions: Sendable {
    public var contentDirectory = "Content"
    public var templatesDirectory = "Templates"
    public var outputDirectory = "Output"
    /// The config file; when nil, `fruitsite.yml` is read if it exists.
    public var configPath: String?
    public var includeDrafts = false
    public var force = false
    /// Ignore the previous build and the entry cache: parse every file, render every page and
    /// write a whole new output folder.
    public var clean = false
    /// Where parsed entries are kept between builds (the CLI uses `.fruitsite-cache`); nil
    /// keeps none, and every build parses every file.
    public var cacheDirectory: String?

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
        /// How many content files were parsed; the others came from the entry cache.
        public var parsed: Int
        /// The config the site was built with.
        public var config: SiteConfig
        /// The entries to keep for the next build.
        var cache: EntryCache
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
        let loaded = loadCatalog(config: config, cache: nil)
        return (loaded.catalog, loaded.diagnostics)
    }

    /// Loads every entry, each unchanged one from `cache`.
    func loadCatalog(config: SiteConfig, cache: EntryCache?) -> (
        catalog: Catalog?, diagnostics: [Diagnostic], loaded: EntryLoader.Loaded
    ) {
        let siteLoader = SiteLoader(
            contentDirectory: options.contentDirectory, fileSystem: fileSystem)
        let listing = siteLoader.list()
        let loaded = EntryLoader(
            loader: siteLoader,
            parser: FruitParser(markdown: CommonMark(allowsRawHTML: config.rawHTML)),
            cache: cache
        ).load(listing.paths)
        var diagnostics = listing.diagnostics + loaded.diagnostics
        let fruits = options.includeDrafts ? loaded.fruits : loaded.fruits.filter { !$0.isDraft }
        let catalog = Catalog(fruits: fruits)
        diagnostics += catalog.problems()
        if !diagnostics.containsErrors && listing.paths.isEmpty && listing.diagnostics.isEmpty {
            diagnostics.append(
                .warning(
                    at: SourceLocation(path: options.contentDirectory),
                    "no .md files found; the site will list no fruits"))
        }
        return (diagnostics.containsErrors ? nil : catalog, diagnostics.sortedByLocation(), loaded)
    }

    /// Everything `build` does except writing: what `fruitsite check` runs.
    /// - Parameter previous: The last build's manifest: pages made from the same inputs are
    ///   not rendered again, and unchanged entries come from the entry cache.
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
        // Without a previous build every page is rendered, which needs every entry parsed.
        let cache =
            previous == nil
            ? nil
            : options.cacheDirectory.flatMap {
                BuildCache(directory: $0).entries(rawHTML: config.rawHTML)
            }
        let (catalog, contentDiagnostics, loaded) = loadCatalog(config: config, cache: cache)
        diagnostics += contentDiagnostics
        guard let theme, let catalog, !diagnostics.containsErrors else {
            throw BuildFailure(diagnostics.sortedByLocation())
        }
        var renderer = PageRenderer(
            config: config, theme: theme, templatesDirectory: options.templatesDirectory)
        renderer.onProgress = onProgress
        var plan = renderer.plan(catalog, previous: previous)
        let needed = plan.fruitsNeedingDetails
        if !needed.isEmpty {
            let entries = EntryLoader(
                loader: SiteLoader(
                    contentDirectory: options.contentDirectory, fileSystem: fileSystem),
                parser: FruitParser(markdown: CommonMark(allowsRawHTML: config.rawHTML)))
            plan.setDetails(
                try entries.details(
                    of: Dictionary(uniqueKeysWithValues: needed.map { ($0, catalog.fruits[$0]) })))
        }
        do {
            let pages = try renderer.render(plan)
            return Rendering(
                pages: pages, catalog: catalog, warnings: diagnostics,
                parsed: loaded.parsed + needed.count, config: config, cache: loaded.cache)
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
        let output = OutputWriter.absolute(options.outputDirectory)
        if let directory = options.cacheDirectory {
            let absolute = OutputWriter.absolute(directory)
            // The output is published and a clean build replaces it: no place for the cache,
            // which holds drafts.
            if absolute == output || absolute.hasPrefix(output + "/") {
                throw BuildFailure([
                    .error(
                        at: SourceLocation(path: directory),
                        "the cache folder must not be inside the output folder",
                        hint: "pass --cache-dir with a folder outside \(options.outputDirectory)")
                ])
            }
        }
        let cache = options.cacheDirectory.map(BuildCache.init)
        let previous =
            options.clean ? nil : writer.markerID().flatMap { cache?.manifest(for: output, id: $0) }
        var rendering = try render(previous: previous)
        let manifest = BuildManifest(pages: rendering.pages, previous: previous)
        // The new manifest is saved before the folder changes and the marker, written last,
        // names it: a build cut short leaves a marker that names no saved manifest.
        var cacheProblem: Error?
        do {
            try cache?.save(manifest, for: output)
        } catch {
            cacheProblem = error
        }
        rendering.written = try writer.write(rendering.pages, previous: previous, id: manifest.id)
        if let cache, rendering.cache.isChanged {
            do {
                try cache.save(rendering.cache, rawHTML: rendering.config.rawHTML)
            } catch {
                cacheProblem = error
            }
        }
        if let cacheProblem, let directory = options.cacheDirectory {
            rendering.warnings.append(
                .warning(
                    at: SourceLocation(path: directory),
                    "could not write the build cache: \(cacheProblem)",
                    hint: "the next build starts afresh"))
        }
        return rendering
    }
}
