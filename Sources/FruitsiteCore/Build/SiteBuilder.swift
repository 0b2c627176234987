import Foundation

/// What to build from where: the command line's options.
public struct BuildOptions: Sendable {
    /// The folders' files are named in messages, and the content's in the saved model, by
    /// these paths joined with their own: so that the spellings of one folder name the same
    /// files, `./Content/` is kept as `Content`.
    @FolderPath public var contentDirectory = "Content"
    @FolderPath public var templatesDirectory = "Templates"
    @FolderPath public var outputDirectory = "Output"
    /// The config file; when nil, `fruitsite.yml` is read if it exists.
    public var configPath: String?
    public var includeDrafts = false
    public var force = false
    /// Ignore the saved model: parse every file, render every page and write a whole new
    /// output folder.
    public var clean = false
    /// Where a build keeps the site model for the next one (the CLI uses
    /// `.fruitsite-cache`). Nil keeps nothing, and every build is a clean one.
    public var cacheDirectory: String?
    /// When another build is writing the same output folder, wait for it to finish instead
    /// of refusing (see `OutputLock`).
    public var waitsForLock = false

    public init() {}
}

/// A folder's path as given but for its `.` parts and its repeated or trailing slashes;
/// `..` parts are kept, since a symbolic link may stand before one.
@propertyWrapper public struct FolderPath: Sendable {
    private var path: String

    public init(wrappedValue: String) {
        path = Self.tidied(wrappedValue)
    }

    public var wrappedValue: String {
        get { path }
        set { path = Self.tidied(newValue) }
    }

    private static func tidied(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + parts }
        return parts.isEmpty ? "." : parts
    }
}

/// The whole pipeline: load → apply → render → write.
///
/// A build loads the site model the last build saved (or an empty one) and what changed in
/// the content since, applies the changes to the model, renders the pages the model says
/// changed, and writes them. `check` renders every page of an empty model and writes
/// nothing. Every stage's diagnostics are collected, so a build reports all its content and
/// template errors together, like a compiler.
public struct SiteBuilder: Sendable {
    public var options: BuildOptions
    public var fileSystem: FileSystem
    /// The clock: when files are seen, which decides whether their status can be trusted
    /// next time (`FileStatus.isSettled(at:)`).
    public var now: @Sendable () -> Date = { Date() }
    /// Called with (pages rendered, pages in all) while rendering; see `PageRenderer`.
    public var onProgress: (@Sendable (Int, Int) -> Void)?
    /// How many pages are rendered, and held in memory, at a time.
    public var batchLimit = PageRenderer.BatchLimit()
    /// How many bytes of parsed bodies a build keeps in memory from the parse to the pages;
    /// the rest go to a scratch file (see `DetailsStore`).
    public var detailsBudget = DetailsStore.defaultBudget
    /// Where the scratch file is made: by default the cache folder if it exists, else the
    /// system's temporary folder.
    public var scratchDirectory: String?

    /// Creates a builder.
    /// - Parameters:
    ///   - options: Folders and flags.
    ///   - fileSystem: Where sources are read from.
    public init(options: BuildOptions, fileSystem: FileSystem = .local) {
        self.options = options
        self.fileSystem = fileSystem
    }

    /// What a build or check did.
    public struct Rendering: Sendable {
        /// Counts for the summary line.
        public var htmlPageCount: Int
        public var fruitCount: Int
        public var categoryCount: Int
        /// Warnings only; errors throw.
        public var warnings: [Diagnostic]
        /// What writing changed; nil when nothing was written (`check`).
        public var written: OutputWriter.Summary?
        /// How many content files were parsed, and how many files rendered or copied.
        public var parsed: Int
        public var rendered: Int
        /// What `--verbose` prints: why the saved model was not used, when it was not, what
        /// was made again that the saved model or the scratch file could not give, and why
        /// the spare copy of the site was made anew.
        public var notes: [String] = []
        /// The model the build leaves, for a caller that ends the process to keep rather
        /// than free entry by entry (`CLI.endsProcess`).
        var model: SiteModel?
    }

    // MARK: - Stages

    /// Reads `fruitsite.yml` (or the config named in the options), or the defaults: as far
    /// as it is right, with its problems (see `SiteConfig.init(yaml:path:problems:)`).
    public func loadConfig() -> (config: SiteConfig, problems: [Diagnostic]) {
        let path = options.configPath ?? "fruitsite.yml"
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.read(path, SiteConfig.maximumFileSize)
        } catch let error as SystemError where error.code == ENOENT && options.configPath == nil {
            return (SiteConfig(), [])
        } catch {
            return (
                SiteConfig(),
                [.error(at: SourceLocation(path: path), "cannot read the config file: \(error)")]
            )
        }
        guard let text = try? SourceText(bytes: bytes).text else {
            return (
                SiteConfig(),
                [.error(at: SourceLocation(path: path), "the config is not valid UTF-8")]
            )
        }
        var problems: [Diagnostic] = []
        let config = SiteConfig(yaml: text, path: path, problems: &problems)
        return (config, problems)
    }

    /// Loads every entry into a catalog, drafts left out unless asked for: from the model the
    /// last build saved for the output folder, with the files changed since parsed, when the
    /// cache holds one made for the same content and settings; else by parsing every file.
    /// Nothing is written.
    /// - Parameter config: Decides whether raw HTML passes through Markdown.
    /// - Returns: The catalog (nil when any entry has an error) and every diagnostic.
    public func loadCatalog(config: SiteConfig) -> (catalog: Catalog?, diagnostics: [Diagnostic]) {
        let drafts = options.includeDrafts
        let (model, diagnostics) = loadUpToDate(config: config, drafts: [drafts, !drafts])
        guard let model else { return (nil, diagnostics) }
        // A model built with the other drafts setting holds every entry all the same, in no
        // listed order: sorting them is a fraction of parsing them.
        if model.settings.includesDrafts == drafts { return (model.catalog, diagnostics) }
        let fruits = model.ids.map { model[$0].fruit }.filter { drafts || !$0.isDraft }
        return (Catalog(fruits: fruits), diagnostics)
    }

    /// Loads every entry, drafts included, as `loadCatalog` loads them: a saved model holds
    /// every entry whichever drafts setting it was built with, so either one serves.
    /// - Returns: The entries' fruits in no particular order (nil when any entry has an
    ///   error), and every diagnostic.
    public func loadEntries(config: SiteConfig) -> (fruits: [Fruit]?, diagnostics: [Diagnostic]) {
        let (model, diagnostics) = loadUpToDate(config: config, drafts: [false, true])
        return (model.map { model in model.ids.map { model[$0].fruit } }, diagnostics)
    }

    /// The saved model made for the first of the `drafts` settings the cache has one for (or
    /// an empty one), brought up to date with the content; nothing is written.
    private func loadUpToDate(config: SiteConfig, drafts: [Bool]) -> (
        SiteModel?, diagnostics: [Diagnostic]
    ) {
        // Read wherever it is: a build refuses to write a model, which holds drafts, into a
        // published folder, but reading one publishes nothing, and it is checked as ever.
        let store = savedModels
        let markerID = OutputWriter.markerID(in: OutputWriter.absolute(options.outputDirectory))
        var model = SiteModel(settings: settings(config))
        for includesDrafts in drafts {
            var settings = settings(config)
            settings.includesDrafts = includesDrafts
            let (saved, notes) = loadModel(from: store, markerID: markerID, settings: settings)
            if notes.isEmpty {
                model = saved
                break
            }
        }
        do {
            let plan = try model.update(
                with: scanner(config).scan(against: model), config: config)
            return (model, plan.warnings)
        } catch {
            return (nil, error.diagnostics)
        }
    }

    /// Everything `build` does except writing: what `fruitsite check` runs.
    /// - Throws: `BuildFailure` with every content and template error found.
    /// It also reports, as warnings, links and `#anchors` of the rendered pages that lead
    /// nowhere in the site, at the file and line they are written in, and the templates'
    /// addresses of assets by their own names rather than their stamped ones.
    public func render() throws(BuildFailure) -> Rendering {
        let configured = loadConfig()
        var model = SiteModel(settings: settings(configured.config))
        let applied = try apply(
            configured, theme: loadTheme(for: configured.config), to: &model)
        var rendering = applied.rendering
        let theme = applied.data.theme
        var files: [RenderedPage] = []
        try render(consume applied, into: &model) { files += $0 }
        let unstamped = UnstampedAssetLinks(
            theme: theme, templatesDirectory: options.templatesDirectory)
        rendering.warnings +=
            (brokenLinks(
                in: files, config: configured.config, theme: theme, model: model)
            + unstamped.warnings(in: theme.sources)).sortedByLocation()
        rendering.model = consume model
        return rendering
    }

    /// Renders the site and writes it to the output folder.
    ///
    /// When the cache holds the model of the build that wrote the output folder, only the
    /// files whose inputs changed are rendered and only those whose bytes changed are
    /// written; the result is byte for byte what a clean build writes.
    /// - Throws: `BuildFailure`; the previous output is then left as it was.
    public func build() throws(BuildFailure) -> Rendering {
        // The theme is compiled on a thread of its own meanwhile: the steps up to the model's
        // loading run mostly on one core.
        let configured = loadConfig()
        let theme = Background { [self] in loadTheme(for: configured.config) }
        let writer = OutputWriter(
            outputDirectory: options.outputDirectory,
            protectedDirectories: ["."],
            sourceDirectories: [options.contentDirectory, options.templatesDirectory],
            force: options.force, keepsSpare: options.cacheDirectory != nil)
        // Refuse a dangerous output folder before spending time on rendering.
        try writer.validate()
        let store = try modelStore()
        // One build at a time per output folder (and so per saved model): held until this
        // build returns, and by the kernel until the process ends, however it ends.
        let lock = try OutputLock(
            output: OutputWriter.absolute(options.outputDirectory),
            shown: options.outputDirectory, waits: options.waitsForLock)
        defer { withExtendedLifetime(lock) {} }
        // What a build that is gone left is cleared before the marker is read.
        let leftovers = writer.recover()
        var (model, notes) = loadModel(
            from: store, markerID: writer.markerID(), settings: settings(configured.config))
        let applied = try apply(configured, theme: theme.value, to: &model)
        let isWhole = !notes.isEmpty
        // From here a signal stops the build at its next batch of files, and takes its
        // course once what was staged is gone.
        SignalDeferral.enter()
        defer { SignalDeferral.leave() }
        // A build that changed nothing touches nothing.
        var staging =
            isWhole || applied.plan.changesModel ? try writer.begin(isWhole: isWhole) : nil
        var rendering = applied.rendering
        rendering.notes = notes + rendering.notes
        rendering.warnings += leftovers
        // Rendering takes the plan: its bodies and assets are not held while the model is
        // saved.
        let (removals, details) = (applied.plan.removals, applied.plan.detailsStore)
        do {
            try render(consume applied, into: &model) { files throws(BuildFailure) in
                try staging?.add(files)
            }
            if let note = details?.failureNote { rendering.notes.append(note) }
            rendering.written = try write(
                &staging, removing: removals, model: model, store: store,
                warnings: &rendering.warnings)
            if rendering.written?.madeSpare == true {
                rendering.notes.append(
                    "copied the output folder as hard links into its spare copy, "
                        + "which was missing or out of date")
            }
        } catch {
            staging?.discard()
            throw error
        }
        rendering.model = consume model
        return rendering
    }

    /// A site kept in memory between builds, as `fruitsite serve` holds it: each `update()`
    /// applies what changed on disk since the last one to the same model `build` loads from
    /// the cache, and renders only what that changed.
    public struct LiveSite: Sendable {
        /// What one update changed.
        public struct Update: Sendable {
            /// The files whose bytes changed (every file on the first update).
            public var files: [RenderedPage]
            /// The paths the site no longer has.
            public var removed: [String]
            public var rendering: Rendering
        }

        public let builder: SiteBuilder
        private var model: SiteModel
        /// The theme the last update loaded, kept while no template or asset changes:
        /// compiling it again was 15% of a body edit's update at 10,000 fruits.
        private var theme: Result<TemplateLoader.Theme, BuildFailure>?
        /// Whether the last update failed: the files that made it fail are not in the model,
        /// so the next one looks at every file, whatever a watcher saw change since.
        private var hasFailed = false

        /// A site with nothing built yet: the first `update()` renders everything.
        public init(builder: SiteBuilder) {
            self.builder = builder
            model = SiteModel(settings: builder.settings(SiteConfig()))
        }

        /// Applies what changed since the last successful update.
        /// - Parameter paths: The files a watcher saw change, when it saw every change:
        ///   only these are then looked at (see `ContentScanner.scan(against:only:)`).
        ///   Nil looks at every file, as `build` does.
        /// - Throws: `BuildFailure` with every error; the site stays as it was.
        public mutating func update(changing paths: Set<String>? = nil) throws(BuildFailure)
            -> Update
        {
            let scope = hasFailed ? nil : paths
            do {
                return try update(scope: scope)
            } catch  where scope != nil && error.isOnlyFilesChangedMeanwhile {
                // A file changed under a path nobody reported (one written to through a name
                // outside the folders): its entry no longer matches what its page reads.
                // Every file is looked at, as after a failed update.
                return try update(scope: nil)
            }
        }

        private mutating func update(scope: Set<String>?) throws(BuildFailure) -> Update {
            hasFailed = true
            let configured = builder.loadConfig()
            let settings = builder.settings(configured.config)
            // Entries are parsed for the facets: with others, every file is parsed anew.
            let isAnew = ModelStore.Unusable(made: model.settings, wanted: settings) != nil
            var next = isAnew ? SiteModel(settings: settings) : model
            let templates = builder.options.templatesDirectory + "/"
            // New facets may need the facet template: the theme is checked for them again.
            if theme == nil || isAnew || scope?.contains(where: { $0.hasPrefix(templates) }) ?? true
            {
                theme = builder.loadTheme(for: configured.config)
            }
            let applied = try builder.apply(
                configured, theme: theme!, to: &next, changing: isAnew ? nil : scope)
            let (rendering, removals) = (applied.rendering, applied.plan.removals)
            var files: [RenderedPage] = []
            try builder.render(consume applied, into: &next) { files += $0 }
            // A site made anew knows nothing of the old one's files: those it no longer has go.
            let removed =
                isAnew ? model.writtenPaths.subtracting(next.writtenPaths).sorted() : removals
            model = next
            hasFailed = false
            return Update(files: files, removed: removed, rendering: rendering)
        }
    }

    // MARK: - The four stages

    /// Reads and compiles the templates, which `config`'s facets may need one more of.
    private func loadTheme(for config: SiteConfig) -> Result<TemplateLoader.Theme, BuildFailure> {
        Result { () throws(BuildFailure) in
            try TemplateLoader(
                templatesDirectory: options.templatesDirectory, fileSystem: fileSystem,
                facets: config.facets
            ).load()
        }
    }

    /// The model the last build saved for the output folder whose marker records
    /// `markerID`, or an empty one and why.
    private func loadModel(
        from store: ModelStore?, markerID: UInt64?, settings: SiteModel.Settings
    ) -> (SiteModel, notes: [String]) {
        let empty = SiteModel(settings: settings)
        let loaded: Result<SiteModel, ModelStore.Unusable> =
            options.clean
            ? .failure(.clean)
            : store?.load(markerID: markerID, settings: settings) ?? .failure(.noCacheFolder)
        switch loaded {
        case .success(let saved): return (saved, [])
        case .failure(let reason): return (empty, ["building clean: \(reason)"])
        }
    }

    /// What `apply` found: the plan, and the data its pages are rendered from, which holds
    /// the model, config and theme they show.
    private struct Applied {
        var plan: SiteModel.Plan
        var data: PageData

        /// The counts of the applied model, and what the plan parses and renders.
        var rendering: Rendering {
            let model = data.model
            return Rendering(
                htmlPageCount: plan.htmlPageCount, fruitCount: model.order.count,
                categoryCount: model.categories.count, warnings: plan.warnings,
                parsed: plan.parsed, rendered: plan.pages.count + plan.assets.count,
                notes: plan.notes)
        }
    }

    /// Reads the theme and what changed in the content, and applies them and `config` to
    /// `model`.
    /// - Throws: `BuildFailure` with every error of the config, the theme and the content,
    ///   found together as a compiler finds them.
    private func apply(
        _ configured: (config: SiteConfig, problems: [Diagnostic]),
        theme loaded: Result<TemplateLoader.Theme, BuildFailure>,
        to model: inout SiteModel, changing paths: Set<String>? = nil
    )
        throws(BuildFailure) -> Applied
    {
        let config = configured.config
        let content = scanner(config).scan(against: model, only: paths)
        var errors = configured.problems.filter(\.isError)
        if case .failure(let error) = loaded { errors += error.diagnostics }
        guard case .success(let theme) = loaded, errors.isEmpty else {
            // Report the content's errors with them, and when it has none, the facets no
            // fruit has.
            var probe = model
            do throws(BuildFailure) {
                _ = try probe.update(with: content, config: config)
            } catch let failure {
                errors += failure.diagnostics
            }
            throw BuildFailure(errors.sortedByLocation())
        }
        var (plan, data) = try model.apply(
            SiteModel.Changes(content: consume content, theme: theme, config: config))
        plan.warnings = configured.problems + theme.warnings + plan.warnings
        return Applied(plan: plan, data: data)
    }

    /// Renders what the plan names a batch at a time, hands `emit` each batch of the files
    /// whose bytes changed (the assets first, then let go: a sharded search index is tens of
    /// megabytes), and records each page in `model`.
    private func render(
        _ applied: consuming Applied, into model: inout SiteModel,
        emit: ([RenderedPage]) throws(BuildFailure) -> Void
    ) throws(BuildFailure) {
        try emit(applied.plan.assets)
        applied.plan.assets = []
        var renderer = PageRenderer(templatesDirectory: options.templatesDirectory)
        renderer.onProgress = onProgress
        renderer.batchLimit = batchLimit
        let scanner = scanner(applied.data.config)
        let plan = applied.plan
        // The planned pages' output hashes, in the plan's order, which the batches keep: the
        // records are made from the two at the end, sparing a copy of every page.
        var outputHashes: [UInt64] = []
        outputHashes.reserveCapacity(plan.pages.count)
        do {
            // The copies of the model end with this block, so recording below changes the
            // model in place.
            let (current, data) = (model, (consume applied).data)
            try renderer.render(plan.pages, with: data) { id throws(BuildFailure) in
                if let details = plan.details(of: id)?.load() { return details }
                return try scanner.details(of: current[id])
            } emit: { planned, pages throws(BuildFailure) in
                let hashes = pages.concurrentMap { StableHasher.hash($0.bytes) }
                var changed: [RenderedPage] = []
                for ((page, _), (file, outputHash)) in zip(planned, zip(pages, hashes)) {
                    // A page rendered again may still come out as before.
                    if current.record(of: page)?.outputHash != outputHash { changed.append(file) }
                }
                outputHashes += hashes
                try emit(changed)
            }
        }
        precondition(outputHashes.count == plan.pages.count, "a planned page was not emitted")
        for ((page, inputHash), outputHash) in zip(plan.pages, outputHashes) {
            model.record(page, SiteModel.OutputRecord(inputHash: inputHash, outputHash: outputHash))
        }
    }

    /// Puts the staged files in place and removes `removals`, saving `model` at
    /// the point `OutputWriter.Staging.commit` chooses; a model that cannot be saved is a
    /// warning, as the next build then starts afresh. No staging, nothing to write.
    private func write(
        _ staging: inout OutputWriter.Staging?, removing removals: [String], model: SiteModel,
        store: ModelStore?, warnings: inout [Diagnostic]
    ) throws(BuildFailure) -> OutputWriter.Summary {
        guard staging != nil else { return OutputWriter.Summary(written: 0, removed: 0) }
        let id = model.outputID
        var problem: Error?
        let summary = try staging!.commit(removing: removals, id: id) {
            do {
                try store?.save(model, id: id)
            } catch {
                problem = error
            }
        }
        // The clean-up's warnings may have been reported before writing already.
        warnings += summary.warnings.filter { !warnings.contains($0) }
        if let problem {
            warnings.append(
                .warning(
                    at: SourceLocation(path: options.cacheDirectory ?? ""),
                    "could not save the site model: \(problem)",
                    hint: "the next build starts afresh"))
        }
        return summary
    }

    /// A warning for each link that leads nowhere, at the content file or template that
    /// holds it, with the pages it breaks on, in the order of their locations.
    private func brokenLinks(
        in files: [RenderedPage], config: SiteConfig, theme: TemplateLoader.Theme,
        model: SiteModel
    ) -> [Diagnostic] {
        let checker = LinkChecker(
            files: files, basePath: config.baseURL.isEmpty ? "/" : config.basePath)
        var pagesOf: [String: [String]] = [:]
        var order: [(location: SourceLocation, message: String, key: String)] = []
        // How many times each link has been met on each page so far: the third use of a
        // link on a page is looked for as the third place it is written.
        var uses: [String: Int] = [:]
        for broken in checker.brokenLinks() {
            let use = uses["\(broken.page)\u{0}\(broken.link)", default: 0]
            uses["\(broken.page)\u{0}\(broken.link)"] = use + 1
            let (location, written) = source(of: broken, use: use, theme: theme, model: model)
            let message = "link '\(written)' leads nowhere: \(broken.reason)"
            let key = "\(location)\u{0}\(message)"
            if pagesOf[key] == nil { order.append((location, message, key)) }
            if pagesOf[key]?.last != broken.page { pagesOf[key, default: []].append(broken.page) }
        }
        return order.sorted { $0.location < $1.location }.map { location, message, key in
            let pages = pagesOf[key]!
            let more = pages.count > 1 ? " and \(pages.count - 1) more" : ""
            return .warning(at: location, message + " (on \(pages[0])\(more))")
        }
    }

    /// Where a broken link is written, and how: the fruit's own body for a link on its page,
    /// else the templates (a template writes `{{root}}about/` where the page shows
    /// `../../about/`); else, unlocated, the fruit's file or the templates folder. `use`
    /// counts the uses of the link on the page before this one: it picks that place among
    /// those where the link is written, or the last.
    private func source(
        of broken: LinkChecker.Broken, use: Int, theme: TemplateLoader.Theme, model: SiteModel
    )
        -> (SourceLocation, written: String)
    {
        var candidates: [(path: String, text: Substring, firstLine: Int, isMarkdown: Bool)] = []
        var fallback = SourceLocation(path: options.templatesDirectory)
        let parts = broken.page.split(separator: "/")
        if parts.count == 3, parts[0] == "fruits",
            let position = model.order.indices.first(where: {
                model[position: $0].fruit.slug == parts[1]
            })
        {
            let path = model[position: position].path
            fallback = SourceLocation(path: path)
            // The body alone: the front matter's text is data, which writes no link.
            // Decoded as the parser decodes it: without a BOM, with `\n` line endings.
            if let bytes = try? fileSystem.read(path, .max),
                let text = try? SourceText(bytes: bytes).text,
                let split = try? FrontMatter(splitting: text)
            {
                if let place = Self.siteLink(
                    broken.link, use: use, in: split.body, from: split.bodyFirstLine, of: path)
                {
                    return place
                }
                candidates.append((path, split.body, split.bodyFirstLine, isMarkdown: true))
            }
        }
        for name in theme.sources.keys.sorted() {
            let text = theme.sources[name]![...]
            candidates.append(
                (options.templatesDirectory + "/" + name + ".mustache", text, 1, isMarkdown: false))
        }
        var relative = Substring(broken.link)
        while relative.hasPrefix("../") || relative.hasPrefix("./") {
            relative = relative.drop { $0 == "." }.dropFirst()
        }
        let spellings = relative.isEmpty ? [broken.link] : [broken.link, String(relative)]
        for spelling in spellings {
            var places: [SourceLocation] = []
            for candidate in candidates {
                places += Self.places(
                    of: spelling, in: candidate.text, isMarkdown: candidate.isMarkdown
                ).map {
                    SourceLocation(
                        path: candidate.path, line: $0.line + candidate.firstLine - 1,
                        column: $0.column)
                }
            }
            if let place = places.isEmpty ? nil : places[min(use, places.count - 1)] {
                return (place, spelling)
            }
        }
        return (fallback, broken.link)
    }

    /// Where a body writes the `fruit:` or `category:` link whose address is `address`, and
    /// how: such a link is written otherwise than the page shows it (`fruit:lemon#zest`, shown
    /// as `../../fruits/lemon/#zest`), so libcmark finds it, placed at its address.
    private static func siteLink(
        _ address: String, use: Int, in body: Substring, from firstLine: Int, of path: String
    ) -> (SourceLocation, written: String)? {
        let links = CommonMark().render(String(body)).siteLinks.filter { $0.address == address }
        guard !links.isEmpty else { return nil }
        let link = links[min(use, links.count - 1)]
        let place = SourceLocation(
            path: path, line: link.line + firstLine - 1, column: link.column)
        return (place, link.written)
    }

    /// The lines and columns where `link` is written whole in `text` as an address: where a
    /// Markdown link (`](`, `](<`, `]: `), an HTML attribute (`=`, `="`, `='`) or a template
    /// tag (`}}`) puts one, and not followed by more of an address, so that `../a` is not
    /// found in `../apple/`, nor an address in prose or a template comment. In Markdown, not
    /// in code either: an inline code span (after an odd number of backticks on its line) or
    /// a fenced code block.
    static func places(of link: String, in text: Substring, isMarkdown: Bool = false)
        -> [(line: Int, column: Int)]
    {
        let scalars = text.unicodeScalars
        let ends: Set<Unicode.Scalar> = [")", "\"", "'", " ", "\t", "\n", "\r", "<", ">"]
        let openers = ["](", "](<", "}}"]
        let fenced = isMarkdown ? fencedLines(in: text) : []
        var places: [(line: Int, column: Int)] = []
        var (line, lineStart, searched) = (1, scalars.startIndex, scalars.startIndex)
        while let range = text[searched...].range(of: link) {
            searched = range.upperBound
            guard range.upperBound == text.endIndex || ends.contains(scalars[range.upperBound])
            else { continue }
            let preceding = text[..<range.lowerBound]
            // A reference definition: `[x]:`, blanks, then the address.
            let blanks = preceding.reversed().prefix { $0 == " " || $0 == "\t" }.count
            let isDefinition = blanks > 0 && preceding.dropLast(blanks).hasSuffix("]:")
            // An attribute's value: `=`, maybe blanks, maybe a quote.
            var attribute = preceding
            if attribute.hasSuffix("\"") || attribute.hasSuffix("'") { attribute.removeLast() }
            let spaces = attribute.reversed().prefix { $0 == " " || $0 == "\t" }.count
            let isAttribute = attribute.dropLast(spaces).hasSuffix("=")
            guard openers.contains(where: preceding.hasSuffix) || isDefinition || isAttribute
            else { continue }
            let before = scalars[lineStart..<range.lowerBound]
            line += before.count { $0 == "\n" }
            if let newline = before.lastIndex(of: "\n") {
                lineStart = scalars.index(after: newline)
            }
            if isMarkdown {
                if fenced.contains(line) { continue }
                let line = preceding.reversed().prefix { !$0.isNewline }
                if line.count(where: { $0 == "`" }) % 2 == 1 { continue }
            }
            places.append((line, scalars.distance(from: lineStart, to: range.lowerBound) + 1))
        }
        return places
    }

    /// The lines (from 1) of Markdown `text` inside a fenced code block, fences included: from
    /// a line of three or more backticks or tildes to one of at least as many of the same, or
    /// to the end. Indented fences count too, as a list item's are.
    private static func fencedLines(in text: Substring) -> Set<Int> {
        var fenced: Set<Int> = []
        var fence: (mark: Character, length: Int)?
        // "\r\n" is one Character: split on it too, as lines are counted by their "\n".
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            let mark = trimmed.first ?? " "
            let length = trimmed.prefix { $0 == mark }.count
            if let open = fence {
                fenced.insert(index + 1)
                if mark == open.mark, length >= open.length,
                    trimmed.dropFirst(length).allSatisfy(\.isWhitespace)
                {
                    fence = nil
                }
            } else if (mark == "`" || mark == "~"), length >= 3,
                mark == "~" || !trimmed.dropFirst(length).contains("`")
            {
                fenced.insert(index + 1)
                fence = (mark, length)
            }
        }
        return fenced
    }

    // MARK: - Pieces

    private func settings(_ config: SiteConfig) -> SiteModel.Settings {
        SiteModel.Settings(
            contentDirectory: options.contentDirectory, includesDrafts: options.includeDrafts,
            facets: config.facets, maximumEntrySize: config.maximumEntrySize,
            maximumPageSize: config.maximumPageSize)
    }

    private func scanner(_ config: SiteConfig) -> ContentScanner {
        ContentScanner(
            contentDirectory: options.contentDirectory, fileSystem: fileSystem,
            parser: FruitParser(
                markdown: CommonMark(allowsRawHTML: config.rawHTML), facets: config.facets),
            now: Int64(now().timeIntervalSince1970 * 1_000_000_000),
            maximumEntrySize: config.maximumEntrySize, detailsBudget: detailsBudget,
            scratchDirectory: scratchDirectory
                ?? options.cacheDirectory.flatMap { fileSystem.isDirectory($0) ? $0 : nil }
                ?? NSTemporaryDirectory())
    }

    /// The cache folder's store of models, after checking the folder is not published (see
    /// `ModelStore.init(checking:output:content:templates:)`).
    private func modelStore() throws(BuildFailure) -> ModelStore? {
        try options.cacheDirectory.map { directory throws(BuildFailure) in
            try ModelStore(
                checking: directory, output: options.outputDirectory,
                content: options.contentDirectory, templates: options.templatesDirectory)
        }
    }

    /// The cache folder's store of the output folder's models, as `search` and `new` read
    /// it; nil without a cache folder.
    private var savedModels: ModelStore? {
        options.cacheDirectory.map {
            ModelStore(directory: $0, output: OutputWriter.absolute(options.outputDirectory))
        }
    }
}
