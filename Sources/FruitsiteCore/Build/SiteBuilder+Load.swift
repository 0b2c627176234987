import Foundation

extension SiteBuilder {
    /// Where a build's model comes from: given the settings the config makes, the model to
    /// start from, or why there is none to use, and the build starts from an empty one.
    typealias ModelSource = (SiteModel.Settings) -> Result<StartingModel, ModelStore.Unusable>

    /// A theme compiled before, with the facets it was compiled for (which decide whether it
    /// needs a `facet` template) and the language (which chooses its string table): `serve`
    /// keeps it while no template changes.
    typealias KeptTheme = (
        facets: [String], language: String, theme: Result<TemplateLoader.Theme, BuildFailure>
    )

    /// What a build starts from: `load`'s value, which `apply` takes.
    struct Loaded {
        var config: SiteConfig
        /// The config's problems, which `apply` reports with the rest.
        var problems: [Diagnostic]
        var theme: Result<TemplateLoader.Theme, BuildFailure>
        /// The model to change: the one given, or an empty one; decoded as far as the scan
        /// needed it.
        var model: StartingModel
        /// What changed in the content since `model` was made.
        var content: ContentScanner.Changes
        /// Why the model given could not be used, when `model` is an empty one instead.
        var anew: ModelStore.Unusable?
        /// The hash of the config file and the theme (`inputs(config:theme:)`); nil when the
        /// theme could not be loaded.
        var inputs: UInt64?
        /// What the build that saved the model reported; nil for a model in memory.
        var report: ModelStore.Report?

        /// The report of the build that saved the model, when nothing that build read has
        /// changed since: no content file, not the config file, no template or asset. Its site
        /// is this build's, which `build` then takes as it is, decoding, applying and
        /// rendering nothing.
        var unchanged: ModelStore.Report? {
            guard content.isEmpty, !problems.containsErrors, let inputs, let report,
                report.inputs == inputs
            else { return nil }
            return report
        }

        /// What `build` reports of a site that is unchanged (`unchanged`): the report of the
        /// build that saved the model, with the config's and the theme's warnings as they are
        /// now.
        func rendering(of report: ModelStore.Report) -> Rendering {
            Rendering(
                htmlPageCount: report.htmlPageCount, fruitCount: report.fruitCount,
                categoryCount: report.categoryCount,
                warnings: warnings(with: report.warnings), parsed: 0, rendered: 0, models: [model],
                report: report)
        }

        /// What `build` reports of a site none of whose parts changed, or nil when one did.
        static func rendering(ofUnchanged parts: [Loaded]) -> Rendering? {
            var renderings: [Rendering] = []
            for part in parts {
                guard let report = part.unchanged else { return nil }
                renderings.append(part.rendering(of: report))
            }
            return Rendering(combining: renderings, languages: parts.map(\.config.scope.code))
        }

        /// The config's warnings and the theme's, then `content`'s: every warning of a build,
        /// in the order a build reports them.
        func warnings(with content: [Diagnostic]) -> [Diagnostic] {
            problems + ((try? theme.get())?.warnings ?? []) + content
        }
    }

    // MARK: - Load

    /// Step one: reads the config and, for each of its parts (`SiteConfig.parts`: one per
    /// language), the theme, the model `saved` gives (or an empty one), and what changed in
    /// the content since that model was made. Nothing is written.
    ///
    /// The parts are made anew together: when one has no model to start from, the output
    /// folder is written whole, and every part starts from an empty model.
    /// - Parameters:
    ///   - saved: The model to start from, or why there is none.
    ///   - kept: Themes compiled before, each used when compiled for its part's facets and
    ///     language.
    ///   - paths: The only files that can have changed, when a watcher saw every change
    ///     (see `ContentScanner.scan(against:only:)`); nil looks at every file.
    func load(
        _ source: ModelSource, keeping kept: [KeptTheme] = [], changing paths: Set<String>? = nil
    ) -> [Loaded] {
        let (config, problems, read) = readConfig()
        let parts = config.parts
        // Compiled on a thread of their own meanwhile: loading the models and listing the
        // content run mostly on one core.
        let keptThemes = parts.map { part in
            kept.first { $0.facets == part.facets && $0.language == part.language }?.theme
        }
        let compiled = Background { [self] in
            zip(parts, keptThemes).map { part, kept in kept ?? loadTheme(for: part) }
        }
        let listing = parts.count > 1 ? ContentScanner.SharedListing() : nil
        var models = parts.map {
            loadModel(source, config: $0, changing: paths, listing: listing)
        }
        if let reason = models.lazy.compactMap(\.anew).first {
            for index in models.indices where models[index].anew == nil {
                models[index] = loadModel(
                    { _ in .failure(reason) }, config: parts[index], listing: listing)
            }
        }
        let themes = compiled.value
        let loaded = parts.indices.map { index in
            let (model, content, anew) = models[index]
            let theme = themes[index]
            return Loaded(
                config: parts[index], problems: index == 0 ? problems : [], theme: theme,
                model: model, content: content, anew: anew,
                inputs: (try? theme.get()).map { Self.inputs(config: read, theme: $0) },
                report: model.report)
        }
        models = []
        guard loaded.contains(where: { $0.unchanged == nil }) else { return loaded }
        return loaded.map { part in
            var part = part
            decode(&part.model, content: &part.content, anew: &part.anew, config: part.config)
            return part
        }
    }

    /// Reads `fruitsite.yml` (or the config named in the options), or the defaults: as far
    /// as it is right, with its problems (see `SiteConfig.init(yaml:path:problems:)`).
    public func loadConfig() -> (config: SiteConfig, problems: [Diagnostic]) {
        let (config, problems, _) = readConfig()
        return (config, problems)
    }

    /// `loadConfig()`, with a hash of the config file's path and of its bytes as read, or of
    /// its absence: all the config is made of.
    func readConfig() -> (config: SiteConfig, problems: [Diagnostic], read: UInt64) {
        let path = options.configPath ?? "fruitsite.yml"
        var read = StableHasher()
        read.combine(path)
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.read(path, SiteConfig.maximumFileSize)
        } catch let error as SystemError where error.code == ENOENT && options.configPath == nil {
            return (SiteConfig(), [], read.value)
        } catch {
            return (
                SiteConfig(),
                [.error(at: SourceLocation(path: path), "cannot read the config file: \(error)")],
                read.value
            )
        }
        read.combine(bytes)
        guard let text = try? SourceText(bytes: bytes).text else {
            return (
                SiteConfig(),
                [.error(at: SourceLocation(path: path), "the config is not valid UTF-8")],
                read.value
            )
        }
        var problems: [Diagnostic] = []
        let config = SiteConfig(yaml: text, path: path, problems: &problems)
        return (config, problems, read.value)
    }

    /// A hash of what a build reads besides the content: the config file (`readConfig()`'s
    /// hash) and the theme, every template's text and every asset's bytes. With the content
    /// as the saved model recorded it, a build whose inputs hash as that build's did makes
    /// the same site (`Loaded.unchanged`).
    static func inputs(config: UInt64, theme: TemplateLoader.Theme) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(config)
        for (name, text) in theme.sources.sorted(by: { $0.key < $1.key }) {
            hasher.combine(name)
            hasher.combine(text)
        }
        hasher.combine(theme.strings.hash)
        for asset in theme.assets {
            hasher.combine(asset.path)
            hasher.combine(asset.bytes)
        }
        return hasher.value
    }

    /// Reads and compiles the templates, which `config`'s facets may need one more of.
    func loadTheme(for config: SiteConfig) -> Result<TemplateLoader.Theme, BuildFailure> {
        Result { () throws(BuildFailure) in
            try TemplateLoader(
                templatesDirectory: options.templatesDirectory, fileSystem: fileSystem,
                facets: config.facets, language: config.language
            ).load()
        }
    }

    /// The model `source` gives for the settings `config` makes, or an empty one and why,
    /// with what changed in the content since it was made.
    func loadModel(
        _ source: ModelSource, config: SiteConfig, changing paths: Set<String>? = nil,
        listing: ContentScanner.SharedListing? = nil
    ) -> (model: StartingModel, content: ContentScanner.Changes, anew: ModelStore.Unusable?) {
        let settings = settings(config)
        var (model, anew) = (
            StartingModel.decoded(SiteModel(settings: settings)), nil as ModelStore.Unusable?
        )
        switch source(settings) {
        case .success(let start): model = start
        case .failure(let reason): anew = reason
        }
        var scanner = scanner(config)
        scanner.sharedListing = listing
        let content = scanner.scan(against: &model, only: paths)
        return (model, content, anew)
    }

    /// Decodes `model` whole, for a build that changes it. A saved model whose rest turns out
    /// damaged gives way to an empty one, and the content is scanned again against that, as
    /// when a saved model cannot be used at all.
    private func decode(
        _ model: inout StartingModel, content: inout ContentScanner.Changes,
        anew: inout ModelStore.Unusable?, config: SiteConfig
    ) {
        if case .saved = model {
            _ = model.decode()
            if case .damaged = model { content = scanner(config).scan(against: &model) }
        }
        if case .damaged = model { anew = .damaged }
    }

    /// The model the cache folder's store holds for the output folder whose marker records
    /// `markerID`, unless `--clean` was given.
    func savedModel(in store: ModelStore?, markerID: UInt64?) -> ModelSource {
        { [options] settings in
            if options.clean { return .failure(.clean) }
            guard let store else { return .failure(.noCacheFolder) }
            return store.load(markerID: markerID, settings: settings).map(StartingModel.saved)
        }
    }

    // MARK: - Search and new

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
        return (Catalog(fruits: fruits, collation: model.collation), diagnostics)
    }

    /// Loads every entry, drafts included, as `loadCatalog` loads them: a saved model holds
    /// every entry whichever drafts setting it was built with, so either one serves.
    /// - Parameter config: The config of the language whose entries are loaded
    ///   (`SiteConfig.part(inLanguage:)`): its own, and the default language's it shows in
    ///   place of missing translations.
    /// - Returns: The entries in no particular order (nil when any entry has an error), and
    ///   every diagnostic.
    public func loadEntries(config: SiteConfig) -> (
        entries: [LoadedEntry]?, diagnostics: [Diagnostic]
    ) {
        let (model, diagnostics) = loadUpToDate(config: config, drafts: [false, true])
        let entries = model.map { model in
            model.ids.map {
                let entry = model[$0]
                return LoadedEntry(
                    path: entry.path, fruit: entry.fruit,
                    translationKey: String(entry.translationKey))
            }
        }
        return (entries, diagnostics)
    }

    /// The saved model made for the first of the `drafts` settings the cache has one for (or
    /// an empty one), with the content's changes applied as `apply` applies them; nothing is
    /// written.
    private func loadUpToDate(config: SiteConfig, drafts: [Bool]) -> (
        SiteModel?, diagnostics: [Diagnostic]
    ) {
        // Read wherever it is: a build refuses to write a model, which holds drafts, into a
        // published folder, but reading one publishes nothing, and it is checked as ever.
        let output = OutputWriter.absolute(options.outputDirectory)
        let store = options.cacheDirectory.map { ModelStore(directory: $0, output: output) }
        let fromStore = savedModel(in: store, markerID: OutputWriter.markerID(in: output))
        var (loaded, content, anew) = loadModel(
            { settings in
                var first: ModelStore.Unusable?
                for includesDrafts in drafts {
                    var wanted = settings
                    wanted.includesDrafts = includesDrafts
                    switch fromStore(wanted) {
                    case .success(let model): return .success(model)
                    case .failure(let reason): first = first ?? reason
                    }
                }
                return .failure(first ?? .missing)
            }, config: config)
        decode(&loaded, content: &content, anew: &anew, config: config)
        var model = loaded.model()
        do {
            let plan = try model.update(with: consume content, config: config)
            return (model, plan.warnings)
        } catch {
            return (nil, error.diagnostics)
        }
    }

    // MARK: - Pieces

    func settings(_ config: SiteConfig) -> SiteModel.Settings {
        SiteModel.Settings(
            contentDirectory: options.contentDirectory, includesDrafts: options.includeDrafts,
            facets: config.facets, maximumEntrySize: config.maximumEntrySize,
            maximumPageSize: config.maximumPageSize, pictures: config.images,
            allowsRawHTML: config.rawHTML, language: config.language, scope: config.scope)
    }

    /// The scanner of `config`'s files; a site in several languages shares the details
    /// budget among them, whose parts are all applied before any renders.
    func scanner(_ config: SiteConfig) -> ContentScanner {
        ContentScanner(
            contentDirectory: options.contentDirectory, fileSystem: fileSystem,
            parser: FruitParser(
                markdown: CommonMark(allowsRawHTML: config.rawHTML), facets: config.facets,
                languages: config.scope.codes),
            now: Int64(now().timeIntervalSince1970 * 1_000_000_000),
            maximumEntrySize: config.maximumEntrySize,
            detailsBudget: detailsBudget / config.siteLanguages.count,
            scratchDirectory: scratchDirectory
                ?? options.cacheDirectory.flatMap { fileSystem.isDirectory($0) ? $0 : nil }
                ?? NSTemporaryDirectory(), scope: config.scope)
    }
}
