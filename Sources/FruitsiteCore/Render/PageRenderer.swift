import Mustache
import Synchronization

/// Renders the pages of the site from the catalog and the theme, in parallel: every page on a
/// clean build, on a rebuild only those whose inputs changed.
///
/// Every link a template receives is relative to the page it is on, so one output folder
/// works at a domain root, under any subpath, and on any static server.
public struct PageRenderer: Sendable {
    public var config: SiteConfig
    public var theme: TemplateLoader.Theme
    /// The templates folder as the user named it, for error locations.
    public var templatesDirectory: String
    /// Called from rendering threads with (pages done, pages to render), every few hundred.
    public var onProgress: (@Sendable (Int, Int) -> Void)?

    /// Creates a renderer.
    /// - Parameters:
    ///   - config: The site config.
    ///   - theme: The compiled templates and assets.
    ///   - templatesDirectory: The templates folder, for diagnostics.
    public init(config: SiteConfig, theme: TemplateLoader.Theme, templatesDirectory: String) {
        self.config = config
        self.theme = theme
        self.templatesDirectory = templatesDirectory
    }

    /// One page of the site: its output path, its template, the hash of its inputs and how to
    /// build its data.
    struct Job: Sendable {
        var path: String
        var template: String
        var inputHash: UInt64
        /// The fruit whose page this is, which needs that entry's details.
        var fruit: Int?
        var context: @Sendable (ContextBuilder) -> MustacheValue
    }

    /// Every page of the site, and which of them the last build did not already make.
    public struct Plan: Sendable {
        var data: ContextBuilder
        var jobs: [Job]
        /// Positions in `jobs` of the pages to render.
        var stale: [Int]
        var listingInputs: UInt64
        var previous: BuildManifest?

        /// Catalog positions of the fruits whose page is to be rendered but which have no
        /// details yet (they came from the entry cache): see `setDetails(_:)`.
        public var fruitsNeedingDetails: [Int] {
            stale.compactMap { jobs[$0].fruit }.filter { data.catalog.fruits[$0].details == nil }
        }

        /// Gives fruits their details, by catalog position.
        public mutating func setDetails(_ details: [Int: Fruit.Details]) {
            data.setDetails(details)
        }
    }

    /// Lists every page with the hash of its inputs, and picks those to render: all of them
    /// without `previous`, else those whose hash differs from the one `previous` recorded.
    /// - Parameters:
    ///   - catalog: The fruits and categories; entries without details are fine here.
    ///   - previous: What the last build into the same folder wrote, if anything.
    public func plan(_ catalog: Catalog, previous: BuildManifest? = nil) -> Plan {
        var data = ContextBuilder(config: config, catalog: catalog, themeHash: theme.sourceHash)
        var jobs: [Job] = [
            Job(
                path: "index.html", template: "index", inputHash: data.indexInputs(),
                context: { $0.indexContext() }),
            Job(
                path: "404.html", template: "404", inputHash: data.notFoundInputs(),
                context: { $0.notFoundContext() }),
        ]
        jobs.reserveCapacity(2 + catalog.fruits.count + catalog.categories.count)
        for index in catalog.fruits.indices {
            jobs.append(
                Job(
                    path: "fruits/\(catalog.fruits[index].slug)/index.html", template: "fruit",
                    inputHash: data.fruitInputs(index), fruit: index,
                    context: { $0.fruitContext(index) }))
        }
        for index in catalog.categories.indices {
            jobs.append(
                Job(
                    path: "categories/\(catalog.categories[index].slug)/index.html",
                    template: "category", inputHash: data.categoryInputs(index),
                    context: { $0.categoryContext(index) }))
        }
        let stale = jobs.indices.filter {
            previous?.entries[jobs[$0].path]?.inputHash != jobs[$0].inputHash
        }
        // Each fruit page shows three summaries; building all of them once pays off when
        // more than a third of the pages are rendered, or any category page.
        if stale.count * 3 > catalog.fruits.count
            || stale.contains(where: { jobs[$0].template == "category" })
        {
            data.shareSummaries()
        }
        return Plan(
            data: data, jobs: jobs, stale: stale, listingInputs: data.listingInputs(),
            previous: previous)
    }

    /// Renders the pages the plan picked, plus the search index, the sitemap, robots.txt and
    /// the assets. Pages not rendered come back `isUnchanged`, without bytes.
    /// - Throws: `BuildFailure` when a template fails at render time (say, endless partials).
    public func render(_ plan: Plan) throws(BuildFailure) -> [RenderedPage] {
        let library = theme.library
        let done = Counter()
        let onProgress = onProgress
        let total = plan.stale.count
        let data = plan.data
        // The search index and the sitemap list every fruit: made again only when a summary,
        // a category or the config changed, as one more piece of work beside the pages, and
        // the first handed out, as it is the longest.
        let listings = ["search-index.json", "sitemap.xml", "robots.txt"]
        let listingsAreCurrent = listings.allSatisfy {
            plan.previous?.entries[$0]?.inputHash == plan.listingInputs
        }
        let config = config
        let work = (listingsAreCurrent ? [] : [nil]) + plan.stale.map { plan.jobs[$0] }
        let results = work.concurrentMap { job -> Swift.Result<[RenderedPage], MustacheError> in
            guard let job else {
                let index = RenderedPage(
                    path: "search-index.json", bytes: SearchIndexBuilder().build(data.catalog))
                return .success([index] + SitemapBuilder(config: config).build(data.catalog))
            }
            defer {
                if let onProgress {
                    let count = done.value.add(1, ordering: .relaxed).newValue
                    if count % 256 == 0 || count == total { onProgress(count, total) }
                }
            }
            do throws(MustacheError) {
                let html = try library.render(job.template, with: job.context(data))
                return .success([RenderedPage(path: job.path, text: html, inputHash: job.inputHash)]
                )
            } catch {
                return .failure(error)
            }
        }
        let listingFiles = listingsAreCurrent ? [] : (try? results[0].get()) ?? []
        let rendered = results.dropFirst(listingsAreCurrent ? 0 : 1).map { $0.map { $0[0] } }

        var pages = plan.jobs.map { RenderedPage.unchanged(path: $0.path, inputHash: $0.inputHash) }
        var diagnostics: [Diagnostic] = []
        for (position, result) in zip(plan.stale, rendered) {
            switch result {
            case .success(let page): pages[position] = page
            case .failure(let error):
                let diagnostic = TemplateLoader(templatesDirectory: templatesDirectory)
                    .diagnostic(for: error)
                if !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
            }
        }
        if !diagnostics.isEmpty { throw BuildFailure(diagnostics) }

        if listingsAreCurrent {
            pages += listings.map { .unchanged(path: $0, inputHash: plan.listingInputs) }
        } else {
            pages += listingFiles.map { file in
                var file = file
                file.inputHash = plan.listingInputs
                return file
            }
        }
        pages += theme.assets
        return pages
    }

    /// Renders every page whose inputs changed since `previous`; every fruit needs its
    /// details (as parsed, not from the cache).
    /// - Throws: `BuildFailure` when a template fails at render time (say, endless partials).
    public func render(_ catalog: Catalog, previous: BuildManifest? = nil) throws(BuildFailure)
        -> [RenderedPage]
    {
        try render(plan(catalog, previous: previous))
    }
}

/// A thread-safe count of rendered pages.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
