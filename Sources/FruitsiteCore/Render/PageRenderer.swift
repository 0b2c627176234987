import Mustache
import Synchronization

/// Renders the pages a plan names, in parallel, plus the search index, the sitemap and
/// robots.txt when they are among them.
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

    /// Renders `pages` of `model`.
    /// - Parameters:
    ///   - pages: The pages to render, with the hash of their inputs.
    ///   - model: The site.
    ///   - details: The details of the entry with an id, for its fruit page.
    /// - Returns: The rendered files, in the order of `pages`.
    /// - Throws: `BuildFailure` when a template fails at render time (say, endless partials)
    ///   or an entry's details cannot be read.
    func render(
        _ pages: [(page: Page, inputHash: UInt64)], of model: SiteModel,
        details: @Sendable (Int) throws(BuildFailure) -> FruitDetails
    ) throws(BuildFailure) -> [RenderedPage] {
        var prepared = PageData(model: model, config: config, theme: theme)
        prepared.prepare(for: pages.lazy.map(\.page))
        let data = prepared
        let library = theme.library
        let done = Counter()
        let onProgress = onProgress
        let total = pages.count
        let config = config
        let results = pages.concurrentMap { planned -> Result<RenderedPage, BuildFailure> in
            let (page, inputHash) = planned
            defer {
                if let onProgress {
                    let count = done.value.add(1, ordering: .relaxed).newValue
                    if count % 256 == 0 || count == total { onProgress(count, total) }
                }
            }
            let path = page.path(in: model)
            switch page {
            case .searchIndex:
                let index = SearchIndexBuilder().build(
                    categories: model.categories.map(\.name),
                    records: model.order.lazy.map { model[$0].facts.searchRecord })
                return .success(RenderedPage(path: path, bytes: index, inputHash: inputHash))
            case .sitemap:
                let sitemap = SitemapBuilder(config: config).sitemap(
                    slugs: model.order.lazy.map { model[$0].slug }, categories: model.categories)
                return .success(RenderedPage(path: path, bytes: sitemap, inputHash: inputHash))
            case .robots:
                return .success(
                    RenderedPage(
                        path: path, text: SitemapBuilder(config: config).robots(),
                        inputHash: inputHash))
            case .index, .notFound, .fruit, .category:
                do throws(BuildFailure) {
                    var fruitDetails: FruitDetails?
                    if case .fruit(let position) = page {
                        fruitDetails = try details(model.order[position])
                    }
                    let context = data.data(of: page, details: fruitDetails)
                    do throws(MustacheError) {
                        let html = try library.render(
                            page.kind.template!, with: context, sizeLimit: config.maximumPageSize)
                        return .success(RenderedPage(path: path, text: html, inputHash: inputHash))
                    } catch {
                        throw BuildFailure([
                            TemplateLoader(templatesDirectory: templatesDirectory)
                                .diagnostic(for: error)
                        ])
                    }
                } catch {
                    return .failure(error)
                }
            }
        }
        var rendered: [RenderedPage] = []
        rendered.reserveCapacity(results.count)
        var diagnostics: [Diagnostic] = []
        for result in results {
            switch result {
            case .success(let page): rendered.append(page)
            case .failure(let failure):
                for diagnostic in failure.diagnostics where !diagnostics.contains(diagnostic) {
                    diagnostics.append(diagnostic)
                }
            }
        }
        if !diagnostics.isEmpty { throw BuildFailure(diagnostics.sortedByLocation()) }
        return rendered
    }
}

/// A thread-safe count of rendered pages.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
