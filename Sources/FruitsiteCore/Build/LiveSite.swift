extension SiteBuilder {
    /// A site kept in memory between builds, as `fruitsite serve` holds it: each `update()`
    /// runs the steps `build` runs, load → apply → render, on the model the last update left
    /// rather than the one the cache holds, and its commit keeps the model and hands on the
    /// files that changed. A change that model cannot take (other facets, say) makes the
    /// site anew from an empty one, as `build` does when the saved model cannot be used.
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
        /// Each part's model (`SiteConfig.parts`): one per language.
        private var models: [SiteModel]
        /// The themes the last update loaded, kept while no template or asset changes:
        /// compiling one again was 15% of a body edit's update at 10,000 fruits.
        private var themes: [KeptTheme] = []
        /// Whether the last update failed: the files that made it fail are not in the model,
        /// so the next one looks at every file, whatever a watcher saw change since.
        private var hasFailed = false

        /// A site with nothing built yet: the first `update()` renders everything.
        public init(builder: SiteBuilder) {
            self.builder = builder
            models = [SiteModel(settings: builder.settings(SiteConfig()))]
        }

        /// Applies what changed since the last successful update.
        /// - Parameters:
        ///   - paths: The files a watcher saw change, when it saw every change: only these
        ///     are then looked at (see `ContentScanner.scan(against:only:)`). Nil looks at
        ///     every file, as `build` does.
        ///   - open: The files of the pages a browser has open (`fruits/apple/index.html`):
        ///     they are rendered as soon as the content is applied, and handed to `first`,
        ///     before the rest of the site, which an edit that moves a fruit makes long.
        ///   - first: Takes those pages, with the bytes they have after the update, changed
        ///     or not, and those of them the update removes (with the pages of the fruits
        ///     it lists anew, which a renamed fruit's open page follows); not called when the
        ///     update fails before they render, or when an asset changes (a page is not to
        ///     be served before the files it names).
        /// - Throws: `BuildFailure` with every error; the site stays as it was, but for the
        ///   pages `first` was given.
        public mutating func update(
            changing paths: Set<String>? = nil, open: Set<String> = [],
            first: (_ files: [RenderedPage], _ removed: [String]) -> Void = { _, _ in }
        ) throws(BuildFailure) -> Update {
            let scope = hasFailed ? nil : paths
            do {
                return try update(scope: scope, open: open, first: first)
            } catch  where scope != nil && error.isOnlyFilesChangedMeanwhile {
                // A file changed under a path nobody reported (one written to through a name
                // outside the folders): its entry no longer matches what its page reads.
                // Every file is looked at, as after a failed update.
                return try update(scope: nil, open: open, first: first)
            }
        }

        private mutating func update(
            scope: Set<String>?, open: Set<String>, first: ([RenderedPage], [String]) -> Void
        ) throws(BuildFailure) -> Update {
            hasFailed = true
            let current = models
            let templates = builder.options.templatesDirectory + "/"
            let isThemeKept = scope?.contains { $0.hasPrefix(templates) } == false
            var loaded = builder.load(
                { settings in
                    // The part's model, whose settings name its language.
                    guard let model = current.first(where: { $0.settings.scope == settings.scope })
                    else { return .failure(.missing) }
                    return ModelStore.Unusable(made: model.settings, wanted: settings)
                        .map { .failure($0) } ?? .success(.decoded(model))
                }, keeping: isThemeKept ? themes : [], changing: scope)
            themes = loaded.map { ($0.config.facets, $0.config.language, $0.theme) }
            var applied = try builder.apply(&loaded) { [builder] data, plan in
                let prefix = data.config.scope.prefix
                let own = Set(
                    open.lazy.filter { $0.hasPrefix(prefix) }.map {
                        String($0.dropFirst(prefix.count))
                    })
                Self.renderOpenPages(
                    own, of: data, plan: plan, builder: builder, first: first)
            }
            var files: [RenderedPage] = []
            var rendered: [Rendered] = []
            while !applied.isEmpty {
                let part = applied.removeFirst()
                let scope = part.data.config.scope
                rendered.append(try builder.render(part) { files += scope.placed($0) })
            }
            // A site made anew knows nothing of the old one's files: those it no longer has go.
            let written = { (models: [SiteModel]) in
                models.reduce(into: Set<String>()) { paths, model in
                    paths.formUnion(model.writtenPaths.map(model.settings.scope.placed))
                }
            }
            let removed =
                rendered.contains(where: \.isWhole)
                ? written(models).subtracting(written(rendered.map(\.model))).sorted()
                : OutputTarget.removals(of: rendered)
            models = rendered.map(\.model)
            for index in models.indices { models[index].indexSlugs() }
            hasFailed = false
            return Update(
                files: files, removed: removed, rendering: Rendered.rendering(of: rendered))
        }

        /// Renders the pages of `open` (paths in the part's site) as soon as the part is
        /// applied, and hands them to `first` at their paths in the output folder.
        private static func renderOpenPages(
            _ open: Set<String>, of data: PageData, plan: SiteModel.Plan, builder: SiteBuilder,
            first: ([RenderedPage], [String]) -> Void
        ) {
            // Not when an asset or the one-file search index changed with them: a page is
            // never served before a file it names.
            guard !open.isEmpty, plan.assets.isEmpty else { return }
            var pages = data.model.pages(of: data, at: open)
            // An open fruit page its fruit left goes first too, with the pages of the fruits
            // just listed: a file renamed, its page follows it to the new one.
            let removed = plan.removals.filter(open.contains)
            if !removed.isEmpty { pages += data.model.newFruitPages(of: plan, in: data) }
            guard !pages.isEmpty || !removed.isEmpty else { return }
            var files: [RenderedPage] = []
            // A page that fails to render here fails again below, where it is reported.
            do {
                try builder.render(pages.map { ($0, 0) }, with: data, plan: plan) {
                    files += $1
                }
            } catch { return }
            first(data.config.scope.placed(files), removed.map(data.config.scope.placed))
        }
    }
}
