import Foundation

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
    /// Where a build keeps what the next one needs: the parsed entries and the manifest of
    /// what it wrote (the CLI uses `.fruitsite-cache`). Nil keeps nothing, and every build
    /// is a clean one.
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
        /// The files rendered or copied. A rebuild in which no entry's summary changed
        /// renders only the pages of the edited entries, and these are all it holds.
        public var pages: [RenderedPage]
        /// The catalog; nil after such a rebuild, which does not make it.
        public var catalog: Catalog?
        /// Counts for the summary line.
        public var htmlPageCount: Int
        public var fruitCount: Int
        public var categoryCount: Int
        /// Warnings only; errors throw.
        public var warnings: [Diagnostic]
        /// What writing changed; nil when nothing was written (`check`).
        public var written: OutputWriter.Summary?
        /// How many content files were parsed; the others came from the entry cache.
        public var parsed: Int
        /// The entry cache to save once the manifest's id is known; nil keeps none.
        var entryCache: (@Sendable (UInt64) -> [UInt8])? = nil
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
        catalog: Catalog?, diagnostics: [Diagnostic], listing: SiteLoader.Listing,
        loaded: EntryLoader.Loaded
    ) {
        let siteLoader = SiteLoader(
            contentDirectory: options.contentDirectory, fileSystem: fileSystem)
        let listing =
            cache?.listing(of: options.contentDirectory, fileSystem: fileSystem)
            ?? siteLoader.list()
        let loaded = EntryLoader(
            loader: siteLoader,
            parser: FruitParser(markdown: CommonMark(allowsRawHTML: config.rawHTML)), cache: cache
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
        return (
            diagnostics.containsErrors ? nil : catalog, diagnostics.sortedByLocation(), listing,
            loaded
        )
    }

    /// Reads and compiles the templates; nil with the diagnostics when they have errors.
    private func loadTheme() -> (TemplateLoader.Theme?, [Diagnostic]) {
        do {
            return (
                try TemplateLoader(
                    templatesDirectory: options.templatesDirectory, fileSystem: fileSystem
                ).load(), []
            )
        } catch {
            return (nil, error.diagnostics)
        }
    }

    /// Everything `build` does except writing: what `fruitsite check` runs.
    /// - Throws: `BuildFailure` with every content and template error found.
    public func render() throws(BuildFailure) -> Rendering {
        let config = try loadConfig()
        let (theme, diagnostics) = loadTheme()
        return try render(config: config, theme: theme, themeDiagnostics: diagnostics)
    }

    /// The full pipeline; with `previous`, pages made from the same inputs are not rendered
    /// again and unchanged entries come from `cache`.
    private func render(
        config: SiteConfig, theme: TemplateLoader.Theme?, themeDiagnostics: [Diagnostic],
        previous: BuildManifest? = nil, cache: EntryCache? = nil
    ) throws(BuildFailure) -> Rendering {
        let listedAt = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        let (catalog, contentDiagnostics, listing, loaded) = loadCatalog(
            config: config, cache: cache)
        let diagnostics = themeDiagnostics + contentDiagnostics
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
        let pages: [RenderedPage]
        do {
            pages = try renderer.render(plan)
        } catch {
            throw BuildFailure(diagnostics + error.diagnostics)
        }
        let snapshot = Self.snapshot(
            of: catalog, loaded: loaded, config: config, theme: theme,
            includesDrafts: options.includeDrafts)
        // The folders stand for the listing only when it met no problem.
        let folders = listing.folders.compactMap { folder in
            folder.status.map { EntryCache.Folder(path: folder.path, status: $0) }
        }
        let listed = listing.diagnostics.isEmpty && folders.count == listing.folders.count
        let records = loaded.records
        let header = EntryCache.header(rawHTML: config.rawHTML)
        let (fruitCount, categoryCount) = (catalog.fruits.count, catalog.categories.count)
        return Rendering(
            pages: pages, catalog: catalog, htmlPageCount: 2 + fruitCount + categoryCount,
            fruitCount: fruitCount, categoryCount: categoryCount, warnings: diagnostics,
            parsed: loaded.parsed + needed.count,
            entryCache: { manifestID in
                EntryCache.encode(
                    header: header, manifestID: manifestID, records: records,
                    folders: listed ? folders : nil, listedAt: listedAt, catalog: snapshot)
            })
    }

    /// The catalog as the entry cache keeps it, by entry position in path order; nil when
    /// some entry is not cached (it had warnings), which rules out a steady rebuild.
    private static func snapshot(
        of catalog: Catalog, loaded: EntryLoader.Loaded, config: SiteConfig,
        theme: TemplateLoader.Theme, includesDrafts: Bool
    ) -> EntryCache.CatalogSnapshot? {
        guard loaded.records.count == loaded.fruits.count else { return nil }
        // The catalog was made from the entries less the drafts left out.
        let kept = loaded.fruits.indices.filter { includesDrafts || !loaded.fruits[$0].isDraft }
        return EntryCache.CatalogSnapshot(
            includesDrafts: includesDrafts,
            siteInputs: ContextBuilder.siteInputs(
                themeHash: theme.sourceHash, config: config, fruitCount: catalog.fruits.count,
                categoryCount: catalog.categories.count),
            categoryInputs: ContextBuilder.categoryInputs(catalog.categories),
            order: catalog.sourcePositions.map { kept[$0] },
            categories: catalog.categories)
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
        let cache = options.cacheDirectory.map { BuildCache(directory: $0, output: output) }
        let stored = options.clean ? nil : writer.markerID().flatMap { cache?.manifest(id: $0) }
        let config = try loadConfig()
        let (theme, themeDiagnostics) = loadTheme()
        // The entries count only when they come from the build that wrote the output.
        let entries = stored.flatMap { stored in
            cache?.entries(rawHTML: config.rawHTML).flatMap {
                $0.manifestID == stored.id ? $0 : nil
            }
        }
        if let cache, let stored, let theme, let entries,
            let steady = try SteadyRebuild(
                options: options, fileSystem: fileSystem, config: config, theme: theme,
                previous: stored, cache: entries
            ).attempt()
        {
            return try write(steady, stored: stored, writer: writer, cache: cache)
        }

        let previous = stored?.decoded()
        var rendering = try render(
            config: config, theme: theme, themeDiagnostics: themeDiagnostics, previous: previous,
            cache: previous == nil ? nil : entries)
        let manifest = BuildManifest(pages: rendering.pages, previous: previous)
        // The new manifest is saved before the folder changes and the marker, written last,
        // names it: a build cut short leaves a marker that names no saved manifest.
        var cacheProblem: Error?
        do {
            try cache?.save(manifest)
        } catch {
            cacheProblem = error
        }
        rendering.written = try writer.write(rendering.pages, previous: previous, id: manifest.id)
        if let cache, let entryCache = rendering.entryCache {
            do {
                try cache.saveEntries(entryCache(manifest.id))
            } catch {
                cacheProblem = error
            }
        }
        if let cacheProblem { rendering.warnings.append(cacheWarning(cacheProblem)) }
        return rendering
    }

    /// Writes what a steady rebuild changed, and patches the cache in place.
    private func write(
        _ steady: SteadyRebuild.Result, stored: StoredManifest, writer: OutputWriter,
        cache: BuildCache
    ) throws(BuildFailure) -> Rendering {
        var rendering = Rendering(
            pages: steady.pages, catalog: nil,
            htmlPageCount: 2 + steady.catalog.order.count + steady.catalog.categories.count,
            fruitCount: steady.catalog.order.count, categoryCount: steady.catalog.categories.count,
            warnings: [], parsed: steady.parsed)
        var cacheProblem: Error?
        if steady.manifestPatches.isEmpty {
            rendering.written = OutputWriter.Summary(written: 0, removed: 0)
        } else {
            // Cleared first: until its patches are all written the manifest names no output.
            do {
                try cache.invalidateManifest(stored)
            } catch {
                cacheProblem = error
            }
            rendering.written = try writer.write(
                changes: steady.pages, previous: steady.previousEntries, id: steady.id)
            if cacheProblem == nil {
                do {
                    try cache.patchManifest(steady.manifestPatches)
                } catch {
                    cacheProblem = error
                }
            }
        }
        if cacheProblem == nil {
            do {
                try cache.patchEntries(steady.entryPatches)
            } catch {
                cacheProblem = error
            }
        }
        if let cacheProblem { rendering.warnings.append(cacheWarning(cacheProblem)) }
        return rendering
    }

    private func cacheWarning(_ problem: Error) -> Diagnostic {
        .warning(
            at: SourceLocation(path: options.cacheDirectory ?? ""),
            "could not write the build cache: \(problem)", hint: "the next build starts afresh")
    }
}
