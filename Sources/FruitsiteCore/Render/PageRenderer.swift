import Mustache
import Synchronization

/// Renders every page of the site from the catalog and the theme, in parallel.
///
/// Every link a template receives is relative to the page it is on, so one output folder
/// works at a domain root, under any subpath, and on any static server.
public struct PageRenderer: Sendable {
    public var config: SiteConfig
    public var theme: TemplateLoader.Theme
    /// The templates folder as the user named it, for error locations.
    public var templatesDirectory: String
    /// Called from rendering threads with (pages done, pages in all), every few hundred pages.
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

    /// One page to render: its output path, its template and how to build its data.
    private struct Job: Sendable {
        var path: String
        var template: String
        var context: @Sendable () -> MustacheValue
    }

    /// Renders every HTML page, the search index, the sitemap, robots.txt and the assets.
    ///
    /// A page whose theme, template and data hash the same as in `previous` is not rendered
    /// again: it comes back `isUnchanged`, without bytes.
    /// - Parameters:
    ///   - catalog: The fruits and categories.
    ///   - previous: What the last build into the same folder wrote, if anything.
    /// - Throws: `BuildFailure` when a template fails at render time (say, endless partials).
    public func render(_ catalog: Catalog, previous: BuildManifest? = nil) throws(BuildFailure)
        -> [RenderedPage]
    {
        let data = ContextBuilder(config: config, catalog: catalog)
        var jobs: [Job] = [
            Job(path: "index.html", template: "index", context: { data.indexContext() }),
            Job(path: "404.html", template: "404", context: { data.notFoundContext() }),
        ]
        for index in catalog.fruits.indices {
            jobs.append(
                Job(
                    path: "fruits/\(catalog.fruits[index].slug)/index.html", template: "fruit",
                    context: { data.fruitContext(index) }))
        }
        for index in catalog.categories.indices {
            jobs.append(
                Job(
                    path: "categories/\(catalog.categories[index].slug)/index.html",
                    template: "category", context: { data.categoryContext(index) }))
        }

        let library = theme.library
        let themeHash = theme.sourceHash
        let done = Counter()
        let onProgress = onProgress
        let total = jobs.count
        let results = jobs.concurrentMap { job -> Swift.Result<RenderedPage, MustacheError> in
            defer {
                if let onProgress {
                    let count = done.value.add(1, ordering: .relaxed).newValue
                    if count % 256 == 0 || count == total { onProgress(count, total) }
                }
            }
            let context = job.context()
            var hasher = StableHasher()
            hasher.combine(themeHash)
            hasher.combine(job.template)
            hasher.combine(context)
            let inputHash = hasher.value
            if let entry = previous?.entries[job.path], entry.inputHash == inputHash {
                return .success(.unchanged(path: job.path, inputHash: inputHash))
            }
            do {
                let html = try library.render(job.template, with: context)
                return .success(RenderedPage(path: job.path, text: html, inputHash: inputHash))
            } catch let error as MustacheError {
                return .failure(error)
            } catch {
                // MustacheLibrary.render throws only MustacheError.
                return .failure(
                    MustacheError(
                        .unknownTemplate(job.template), template: job.template, line: 1, column: 1))
            }
        }

        var pages: [RenderedPage] = []
        var diagnostics: [Diagnostic] = []
        for result in results {
            switch result {
            case .success(let page): pages.append(page)
            case .failure(let error):
                let diagnostic = TemplateLoader(templatesDirectory: templatesDirectory)
                    .diagnostic(for: error)
                if !diagnostics.contains(diagnostic) { diagnostics.append(diagnostic) }
            }
        }
        if !diagnostics.isEmpty { throw BuildFailure(diagnostics) }

        pages.append(
            RenderedPage(path: "search-index.json", bytes: SearchIndexBuilder().build(catalog)))
        pages.append(contentsOf: SitemapBuilder(config: config).build(catalog))
        pages.append(contentsOf: theme.assets)
        return pages
    }
}

/// A thread-safe count of rendered pages.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
