import Mustache
import Synchronization

/// Renders the pages a plan names, in parallel: each templated page from its data, and each
/// file fruitsite writes itself (the feeds, the sitemap, robots.txt) from its bytes, both as
/// the page's kind declares them (`PageData.walk`).
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

        /// No limit: every page in one batch.
        static let none = {
            var limit = BatchLimit()
            (limit.pages, limit.fruits) = (.max, .max)
            return limit
        }()
    }

    /// Renders `pages` a batch at a time, handing each batch on before rendering the next, so
    /// that memory holds one batch of rendered pages however large the site.
    /// - Parameters:
    ///   - pages: The pages to render, with the hash of their inputs.
    ///   - data: What they show: the site's model, config and theme.
    ///   - details: The details of the entry with an id, for its fruit page and the feeds.
    ///   - emit: Takes each batch of rendered files, in the order of `pages`, with the
    ///     planned pages they come from. After the first failure no batch is handed on, but
    ///     every page is still rendered, so that all errors are reported together.
    /// - Throws: `BuildFailure` when a template fails at render time (say, endless partials)
    ///   or an entry's details cannot be read, or what `emit` throws.
    func render(
        _ pages: [(page: Page, inputHash: UInt64)], with data: consuming PageData,
        details: @Sendable (EntryID) throws(BuildFailure) -> FruitDetails,
        emit: (ArraySlice<(page: Page, inputHash: UInt64)>, [RenderedPage]) throws(BuildFailure)
            -> Void
    ) throws(BuildFailure) {
        let done = Counter()
        var diagnostics: [Diagnostic] = []
        var start = 0
        while start < pages.count {
            let count = data.prepare(for: pages[start...].lazy.map(\.page), within: batchLimit)
            let batch = pages[start..<start + count]
            start += count
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

    /// Renders one batch on every core.
    private func render(
        _ batch: ArraySlice<(page: Page, inputHash: UInt64)>, data: PageData,
        details: @Sendable (EntryID) throws(BuildFailure) -> FruitDetails, done: Counter,
        total: Int
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
            do throws(BuildFailure) {
                guard let template = page.kind.template else {
                    return .success(
                        RenderedPage(path: path, bytes: try data.bytes(of: page, details: details)))
                }
                let context = try data.data(of: page, details: details)
                do throws(MustacheError) {
                    let html = try library.renderUTF8(
                        template, with: context, sizeLimit: config.maximumPageSize)
                    return .success(RenderedPage(path: path, bytes: html))
                } catch {
                    var error = error
                    // Wherever it was when the page grew too large (a block, a partial), it
                    // is the page's template that renders it.
                    if case .outputTooLarge = error.reason {
                        (error.template, error.line, error.column) = (template, 0, 0)
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

/// A thread-safe count of rendered pages.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
