import Foundation

/// The whole pipeline: load → apply → render → commit.
///
/// Each step takes the value the one before it made: `load` reads the config, the theme, the
/// model to change and what changed in the content since that model was made (`Loaded`);
/// `apply` brings the model up to date and plans the files to render (`Applied`); `render`
/// renders them a batch at a time and records them in the model (`Rendered`); the commit
/// puts them where the caller keeps its site. A clean build, an incremental one, `check` and
/// `serve` run these same steps and differ only in where the model comes from and where the
/// files go: `build` keeps the model in the cache folder and writes the output folder,
/// `check` starts from an empty model and reads the files' links, and `LiveSite` keeps both
/// in memory. Every step's diagnostics are collected, so a build reports all its content and
/// template errors together, like a compiler.
public struct SiteBuilder: Sendable {
    public var options: BuildOptions
    public var fileSystem: FileSystem
    /// The clock: when files are seen, which decides whether their status can be trusted
    /// next time (`FileStatus.isSettled(at:)`).
    public var now: @Sendable () -> Date = { Date() }
    /// Called with the stage, and how much of it is done of how much in all: pictures
    /// encoded or taken from the cache (`PicturePublisher`), then pages rendered
    /// (`PageRenderer`).
    public var onProgress: (@Sendable (BuildStage, Int, Int) -> Void)?

    /// A stage of a build that reports its progress.
    public enum BuildStage: Sendable {
        case encodingPictures
        case rendering
    }
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
        /// The models the build leaves, decoded or as saved, for a caller that ends the
        /// process to keep rather than free entry by entry or unmap (`CLI.endsProcess`): the
        /// end of the process does that at once.
        var models: [StartingModel] = []
        /// What the saved model keeps of the build, which the next one reports when nothing
        /// changed (`Loaded.unchanged`).
        var report: ModelStore.Report
    }

    // MARK: - Build and check

    /// Renders the site and writes it to the output folder.
    ///
    /// When the cache holds the model of the build that wrote the output folder, only the
    /// files whose inputs changed are rendered and only those whose bytes changed are
    /// written; the result is byte for byte what a clean build writes.
    /// - Throws: `BuildFailure`; the previous output is then left as it was.
    public func build() throws(BuildFailure) -> Rendering {
        // Checked and locked first: a refused folder costs no rendering, and one build at a
        // time loads and saves its model.
        let output = try OutputTarget(for: self)
        defer { withExtendedLifetime(output) {} }
        var loaded = load(output.savedModel)
        // Nothing the build that saved the models read has changed: the output folder holds
        // this build's site already, and nothing is decoded, rendered or written.
        if let unchanged = Loaded.rendering(ofUnchanged: loaded) {
            return output.keep(unchanged)
        }
        var applied = try apply(&loaded)
        // From here a signal stops the build at its next batch of files, and takes its
        // course once what was staged is gone.
        SignalDeferral.enter()
        defer { SignalDeferral.leave() }
        var staging = try output.stage(applied)
        do throws(BuildFailure) {
            var rendered: [Rendered] = []
            // Each language's site rendered and let go before the next.
            while !applied.isEmpty {
                let part = applied.removeFirst()
                let scope = part.data.config.scope
                rendered.append(
                    try render(part) { files throws(BuildFailure) in
                        try staging?.add(scope.placed(files))
                    })
            }
            return try output.commit(rendered, staging: &staging)
        } catch {
            staging?.discard()
            throw error
        }
    }

    /// Everything `build` does but writing, from an empty model: what `fruitsite check`
    /// runs. Each page's links and ids are read as it renders, and its bytes let go.
    ///
    /// It also reports, as warnings, links and `#anchors` of the rendered pages that lead
    /// nowhere in the site and hreflang alternates that do not agree, at the file and line
    /// they are written in, and the templates' addresses of assets by their own names rather
    /// than their stamped ones.
    /// - Throws: `BuildFailure` with every content and template error found.
    public func check() throws(BuildFailure) -> Rendering {
        var loaded = load { settings in .success(.decoded(SiteModel(settings: settings))) }
        var applied = try apply(&loaded)
        let theme = applied[0].data.theme
        // The site root's address, which the default language's folder may be below.
        var config = applied[0].data.config
        config.baseURL = applied[0].data.translations.baseURL
        // Every file of every language's site, at its path in the output folder.
        let paths = applied.reduce(into: Set<String>()) { paths, part in
            paths.formUnion(part.paths.map(part.data.config.scope.placed))
        }
        var links = LinkChecker(
            paths: paths, basePath: config.baseURL.isEmpty ? "/" : config.basePath)
        var alternates = AlternateChecker(paths: paths, baseURL: config.baseURL)
        var rendered: [Rendered] = []
        while !applied.isEmpty {
            let part = applied.removeFirst()
            let scope = part.data.config.scope
            rendered.append(
                try render(part, publishesPictures: false) { files in
                    let files = scope.placed(files)
                    links.add(files)
                    alternates.add(files)
                })
        }
        return commit(rendered, checking: links, alternates, theme: theme)
    }

    /// `check`'s commit: the warnings of the links that lead nowhere, of the hreflang
    /// alternates and of the templates' unstamped asset names, with the rest, in the order of
    /// their locations.
    private func commit(
        _ rendered: [Rendered], checking links: LinkChecker, _ alternates: AlternateChecker,
        theme: TemplateLoader.Theme
    ) -> Rendering {
        let unstamped = UnstampedAssetLinks(
            theme: theme, templatesDirectory: options.templatesDirectory)
        var rendering = Rendered.rendering(of: rendered)
        let (broken, problems) = (links.brokenLinks(), alternates.problems())
        // Each page's links are found in the templates and entries of its language's part: the
        // one whose folder holds it, the longest such.
        let prefixes = rendered.map(\.model.settings.scope.prefix)
        func part(of page: String) -> Int {
            prefixes.indices.filter { page.hasPrefix(prefixes[$0]) }
                .max { prefixes[$0].count < prefixes[$1].count } ?? 0
        }
        let locators = rendered.indices.map { index in
            LinkLocator(
                templatesDirectory: options.templatesDirectory, fileSystem: fileSystem,
                theme: theme, model: rendered[index].model, prefix: prefixes[index])
        }
        // One warning for a place and message, whichever languages' pages it is found on.
        var warnings = unstamped.warnings(in: theme.sources)
        warnings += LinkLocator.warnings(for: broken) { locators[part(of: $0)] }
        warnings += LinkLocator.warnings(for: problems) { locators[part(of: $0)] }
        rendering.warnings += warnings.sortedByLocation()
        rendering.models = rendered.map { .decoded($0.model) }
        return rendering
    }
}
