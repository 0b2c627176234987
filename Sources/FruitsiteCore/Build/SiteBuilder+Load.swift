import Foundation

extension SiteBuilder {
    /// Where a build's model comes from: given the settings the config makes, the model to
    /// start from, or why there is none to use, and the build starts from an empty one.
    typealias SavedModel = (SiteModel.Settings) -> Result<SiteModel, ModelStore.Unusable>

    /// A theme compiled before, with the facets it was compiled for (which decide whether it
    /// needs a `facet` template): `serve` keeps it while no template changes.
    typealias KeptTheme = (facets: [String], theme: Result<TemplateLoader.Theme, BuildFailure>)

    /// What a build starts from: `load`'s value, which `apply` takes.
    struct Loaded {
        var config: SiteConfig
        /// The config's problems, which `apply` reports with the rest.
        var problems: [Diagnostic]
        var theme: Result<TemplateLoader.Theme, BuildFailure>
        /// The model to change: the one given, or an empty one.
        var model: SiteModel
        /// What changed in the content since `model` was made.
        var content: ContentScanner.Changes
        /// Why the model given could not be used, when `model` is an empty one instead.
        var anew: ModelStore.Unusable?
    }

    // MARK: - Load

    /// Step one: reads the config and the theme, takes the model `saved` gives (or an empty
    /// one), and finds what changed in the content since that model was made. Nothing is
    /// written.
    /// - Parameters:
    ///   - saved: The model to start from, or why there is none.
    ///   - kept: A theme compiled before, used when compiled for the config's facets.
    ///   - paths: The only files that can have changed, when a watcher saw every change
    ///     (see `ContentScanner.scan(against:only:)`); nil looks at every file.
    func load(
        _ saved: SavedModel, keeping kept: KeptTheme? = nil, changing paths: Set<String>? = nil
    ) -> Loaded {
        let (config, problems) = loadConfig()
        let keptTheme = kept.flatMap { $0.facets == config.facets ? $0.theme : nil }
        // Compiled on a thread of its own meanwhile: loading the model and listing the
        // content run mostly on one core.
        let compiled = keptTheme == nil ? Background { [self] in loadTheme(for: config) } : nil
        let (model, content, anew) = loadModel(saved, config: config, changing: paths)
        return Loaded(
            config: config, problems: problems, theme: keptTheme ?? compiled!.value,
            model: model, content: content, anew: anew)
    }

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

    /// Reads and compiles the templates, which `config`'s facets may need one more of.
    func loadTheme(for config: SiteConfig) -> Result<TemplateLoader.Theme, BuildFailure> {
        Result { () throws(BuildFailure) in
            try TemplateLoader(
                templatesDirectory: options.templatesDirectory, fileSystem: fileSystem,
                facets: config.facets
            ).load()
        }
    }

    /// The model `saved` gives for the settings `config` makes, or an empty one and why,
    /// with what changed in the content since it was made.
    func loadModel(
        _ saved: SavedModel, config: SiteConfig, changing paths: Set<String>? = nil
    ) -> (model: SiteModel, content: ContentScanner.Changes, anew: ModelStore.Unusable?) {
        let settings = settings(config)
        var (model, anew) = (SiteModel(settings: settings), ModelStore.Unusable?.none)
        switch saved(settings) {
        case .success(let saved): model = saved
        case .failure(let reason): anew = reason
        }
        return (model, scanner(config).scan(against: model, only: paths), anew)
    }

    /// The model the cache folder's store holds for the output folder whose marker records
    /// `markerID`, unless `--clean` was given.
    func savedModel(in store: ModelStore?, markerID: UInt64?) -> SavedModel {
        { [options] settings in
            if options.clean { return .failure(.clean) }
            guard let store else { return .failure(.noCacheFolder) }
            return store.load(markerID: markerID, settings: settings)
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
        let (loaded, content, _) = loadModel(
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
        var model = consume loaded
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
            maximumPageSize: config.maximumPageSize)
    }

    func scanner(_ config: SiteConfig) -> ContentScanner {
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
}
