import Mustache
import Synchronization

/// Renders the pages a plan names, in parallel, plus the search index, the sitemap and
/// robots.txt when they are among them.
///
/// Every link a template receives is relative to the page it is on, so one output folder
/// works at a domain root, under any subpath, and on any static server.
public struct PageRenderer: Sendable {
    /// The templates folder as the user named it, for error locations.
    public var templatesDirectory: String
    /// Called from rendering threads with (pages done, pages to render), every few hundred.
    public var onProgress: (@Sendable (Int, Int) -> Void)?

    /// Creates a renderer.
    /// - Parameter templatesDirectory: The templates folder, for diagnostics.
    public init(templatesDirectory: String) {
        self.templatesDirectory = templatesDirectory
    }

    /// How many pages are rendered and handed on at a time: enough to keep every core busy,
    /// few enough that a site of any size holds only a batch of pages in memory.
    public var batchLimit = BatchLimit()

    /// The most a batch holds: pages, and the fruits those pages show between them (a fruit
    /// page shows three, a listing page its fruits), which bound the summaries built for it.
    public struct BatchLimit: Sendable {
        public var pages = 1_024
        public var fruits = 8_192
        public init() {}
    }

    /// Renders `pages` a batch at a time, handing each batch on before rendering the next, so
    /// that memory holds one batch of rendered pages however large the site.
    /// - Parameters:
    ///   - pages: The pages to render, with the hash of their inputs.
    ///   - data: What they show: the site's model, config and theme.
    ///   - details: The details of the entry with an id, for its fruit page.
    ///   - emit: Takes each batch of rendered files, in the order of `pages`, with the
    ///     planned pages they come from. After the first failure no batch is handed on, but
    ///     every page is still rendered, so that all errors are reported together.
    /// - Throws: `BuildFailure` when a template fails at render time (say, endless partials)
    ///   or an entry's details cannot be read, or what `emit` throws.
    func render(
        _ pages: [(page: Page, inputHash: UInt64)], with data: consuming PageData,
        details: @Sendable (Int) throws(BuildFailure) -> FruitDetails,
        emit: (ArraySlice<(page: Page, inputHash: UInt64)>, [RenderedPage]) throws(BuildFailure)
            -> Void
    ) throws(BuildFailure) {
        let done = Counter()
        var diagnostics: [Diagnostic] = []
        for range in batches(of: pages.lazy.map(\.page), data) {
            let batch = pages[range]
            data.prepare(for: batch.lazy.map(\.page))
            let results = render(
                batch, data: data, details: details, done: done, total: pages.count)
            var rendered: [RenderedPage] = []
            rendered.reserveCapacity(results.count)
            for result in results {
                switch result {
                case .success(let page): rendered.append(page)
                case .failure(let failure):
                    for diagnostic in failure.diagnostics where !diagnostics.contains(diagnostic) {
                        diagnostics.append(diagnostic)
                    }
                }
            }
            if diagnostics.isEmpty { try emit(batch, rendered) }
        }
        if !diagnostics.isEmpty { throw BuildFailure(diagnostics.sortedByLocation()) }
    }

    /// `pages` cut into batches of at most `batchLimit`, in order; a page over the limit on
    /// its own (a listing of every fruit) is a batch of its own.
    private func batches(of pages: some Collection<Page>, _ data: PageData) -> [Range<Int>] {
        var batches: [Range<Int>] = []
        var (start, fruits) = (0, 0)
        for (index, page) in pages.enumerated() {
            let shown = data.shownCount(of: page)
            if index > start,
                index - start == batchLimit.pages || fruits + shown > batchLimit.fruits
            {
                batches.append(start..<index)
                (start, fruits) = (index, 0)
            }
            fruits += shown
        }
        if start < pages.count { batches.append(start..<pages.count) }
        return batches
    }

    /// Renders one batch on every core.
    private func render(
        _ batch: ArraySlice<(page: Page, inputHash: UInt64)>, data: PageData,
        details: @Sendable (Int) throws(BuildFailure) -> FruitDetails, done: Counter, total: Int
    ) -> [Result<RenderedPage, BuildFailure>] {
        let (model, config, library) = (data.model, data.config, data.theme.library)
        let (onProgress, templatesDirectory) = (onProgress, templatesDirectory)
        return Array(batch).concurrentMap { planned -> Result<RenderedPage, BuildFailure> in
            let page = planned.page
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
                return .success(RenderedPage(path: path, bytes: index))
            case .sitemap:
                let sitemap = SitemapBuilder(config: config).sitemap(data.sitemap)
                return .success(RenderedPage(path: path, bytes: sitemap))
            case .sitemapPart(let part):
                let sitemap = SitemapBuilder(config: config).part(part, of: data.sitemap)
                return .success(RenderedPage(path: path, bytes: sitemap))
            case .robots:
                return .success(
                    RenderedPage(
                        path: path, text: SitemapBuilder(config: config).robots()))
            case .feed(let category, let format):
                do throws(BuildFailure) {
                    let items = try data.feeds.fruits(of: category).map {
                        position throws(BuildFailure) in
                        Feed.Item(
                            fruit: model[position: position].fruit,
                            details: try details(model.order[position]))
                    }
                    let feed = data.feed(of: category).text(format, items: items)
                    return .success(RenderedPage(path: path, bytes: feed))
                } catch {
                    return .failure(error)
                }
            case .index, .notFound, .fruit, .category, .facet, .categories, .facetValues,
                .fruitsFolder, .pagesFolder:
                do throws(BuildFailure) {
                    var fruitDetails: FruitDetails?
                    if case .fruit(let position) = page {
                        fruitDetails = try details(model.order[position])
                    }
                    let context = data.data(of: page, details: fruitDetails)
                    do throws(MustacheError) {
                        let html = try library.renderUTF8(
                            page.kind.template!, with: context, sizeLimit: config.maximumPageSize)
                        return .success(RenderedPage(path: path, bytes: html))
                    } catch {
                        var error = error
                        // Wherever it was when the page grew too large (a block, a partial),
                        // it is the page's template that renders it.
                        if case .outputTooLarge = error.reason {
                            (error.template, error.line, error.column) = (
                                page.kind.template!, 0, 0
                            )
                        }
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
    }
}

/// A thread-safe count of rendered pages.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
