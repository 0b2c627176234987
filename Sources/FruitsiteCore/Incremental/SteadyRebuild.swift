import Foundation
import Mustache

/// A rebuild after edits that leave every entry's summary as it was: no file came or went,
/// and no name, emoji, category, vitamin list or draft flag changed. The catalog is then the
/// one the entry cache holds, and only the pages of the edited entries can change. They are
/// found and rendered without decoding, sorting or hashing the other entries, so a rebuild
/// after the most common edit, to an entry's text, costs little more than checking the
/// status of every file.
///
/// Anything else (a new file, a renamed fruit, a changed template or config) is left to the
/// full rebuild: `attempt()` then returns nil.
struct SteadyRebuild {
    var options: BuildOptions
    var fileSystem: FileSystem
    var config: SiteConfig
    var theme: TemplateLoader.Theme
    /// The manifest of the output folder, which the cache's catalog was built into.
    var previous: StoredManifest
    var cache: EntryCache

    struct Result {
        /// The pages rendered again and the assets, which the writer skips when unchanged.
        var pages: [RenderedPage]
        /// Their entries in the previous manifest, for the writer to compare bytes with.
        var previousEntries: BuildManifest
        /// The new manifest's id, and the writes that turn the stored manifest into it.
        var id: UInt64
        var manifestPatches: [(offset: Int, bytes: [UInt8])]
        /// The writes that bring the entry cache up to date, its manifest id last.
        var entryPatches: [(offset: Int, bytes: [UInt8])]
        var parsed: Int
        var catalog: EntryCache.CatalogSnapshot
    }

    /// The rebuild, or nil when it is not a steady one (or a file cannot be read or has
    /// errors: the full rebuild then reports them).
    /// - Throws: `BuildFailure` when a template fails, or the cache holds a damaged entry.
    func attempt() throws(BuildFailure) -> Result? {
        // The cache must come from the same content folder: the first folder listed.
        guard let catalog = cache.catalog, let folders = cache.folders,
            let root = folders.first, UTF8Order.equal(root.path, options.contentDirectory),
            catalog.includesDrafts == options.includeDrafts, cache.manifestID == previous.id,
            ContextBuilder.siteInputs(
                themeHash: theme.sourceHash, config: config, fruitCount: catalog.order.count,
                categoryCount: catalog.categories.count) == catalog.siteInputs
        else { return nil }
        // Taken before any status: see `EntryCache.racyWindow`.
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)

        // The files: the cached list while no folder changed, else a listing that matches it.
        let paths: [String]
        var newFolderStatuses: [FileStatus]?
        if let listing = cache.listing(of: options.contentDirectory, fileSystem: fileSystem) {
            paths = listing.paths
        } else {
            let listing = SiteLoader(
                contentDirectory: options.contentDirectory, fileSystem: fileSystem
            ).list()
            let statuses = listing.folders.compactMap(\.status)
            guard listing.diagnostics.isEmpty, listing.paths.count == cache.count,
                listing.folders.count == folders.count, statuses.count == folders.count,
                zip(listing.folders, folders).allSatisfy({ UTF8Order.equal($0.path, $1.path) })
            else { return nil }
            for (index, path) in listing.paths.enumerated() {
                guard let cached = cache.path(index), UTF8Order.equal(cached, path) else {
                    return nil
                }
            }
            paths = listing.paths
            newFolderStatuses = statuses
        }

        // The entries whose files changed, read again.
        let statuses = paths.concurrentMap(fileSystem.status)
        let changed = paths.indices.filter { !cache.isCurrent($0, status: statuses[$0]) }
        let loader = SiteLoader(contentDirectory: options.contentDirectory, fileSystem: fileSystem)
        let parser = FruitParser(markdown: CommonMark(allowsRawHTML: config.rawHTML))
        let seen = changed.concurrentMap { index -> (Int, EntryCache.Entry, Fruit?)? in
            guard let status = statuses[index], let file = try? loader.read(paths[index]) else {
                return nil
            }
            if StableHasher.hash(file.bytes) == cache.sourceHash(index) {
                guard let entry = cache.entry(index) else { return nil }
                return (index, .init(status: status, verifiedAt: now, fruit: entry.fruit), nil)
            }
            let result = parser.parse(file)
            guard let fruit = result.fruit, result.diagnostics.isEmpty,
                ContextBuilder.summaryInputs(fruit) == cache.summaryInputs(index),
                fruit.isDraft == cache.isDraft(index)
            else { return nil }
            return (index, .init(status: status, verifiedAt: now, fruit: fruit.summary), fruit)
        }
        var patches: [Int: EntryCache.Entry] = [:]
        var edited: [(entry: Int, fruit: Fruit)] = []
        for item in seen {
            guard let (index, entry, fruit) = item else { return nil }
            patches[index] = entry
            if let fruit { edited.append((index, fruit)) }
        }

        // The assets are copied as they are: all of them, as the writer skips those that did
        // not change. The site must have the same files as before: an asset added to or
        // removed from the theme is left to the full rebuild.
        // The index, the 404 page, the fruits' and categories' pages, the search index, the
        // sitemap, robots.txt and the assets (see `PageRenderer.render`).
        let fileCount = 2 + catalog.order.count + catalog.categories.count + 3 + theme.assets.count
        guard previous.count == fileCount,
            theme.assets.allSatisfy({ previous.lookup($0.path) != nil })
        else { return nil }
        let pages = try render(edited, catalog: catalog) + theme.assets
        var previousEntries = BuildManifest()
        var changes: [String: BuildManifest.Entry] = [:]
        for page in pages {
            guard let old = previous.lookup(page.path)?.entry else { return nil }
            previousEntries.entries[page.path] = old
            let new = BuildManifest.Entry(
                inputHash: page.inputHash, outputHash: StableHasher.hash(page.bytes))
            if new != old { changes[page.path] = new }
        }
        guard let (manifestPatches, id) = previous.patches(changes) else { return nil }
        return Result(
            pages: pages.filter { changes[$0.path] != nil }, previousEntries: previousEntries,
            id: changes.isEmpty ? previous.id : id,
            manifestPatches: changes.isEmpty ? [] : manifestPatches,
            entryPatches: cache.patches(
                entries: patches, folders: newFolderStatuses, listedAt: now,
                manifestID: changes.isEmpty ? previous.id : id),
            parsed: edited.count, catalog: catalog)
    }

    /// Renders the pages of the edited entries that are in the catalog and whose inputs
    /// changed.
    private func render(_ edited: [(entry: Int, fruit: Fruit)], catalog: EntryCache.CatalogSnapshot)
        throws(BuildFailure) -> [RenderedPage]
    {
        guard !edited.isEmpty else { return [] }
        var positions = [Int](repeating: -1, count: cache.count)
        for (position, entry) in catalog.order.enumerated() { positions[entry] = position }
        let root = ContextBuilder.nestedRoot
        let categories = catalog.categories.map { ContextBuilder.summary(of: $0, root: root) }
        let site = ContextBuilder.siteValue(config)
        func categoryIndex(_ fruit: Fruit) -> Int {
            catalog.categories.firstIndex { UTF8Order.equal($0.name, fruit.category) } ?? 0
        }
        func summary(_ fruit: Fruit) -> MustacheValue {
            ContextBuilder.summary(
                of: fruit, categorySlug: catalog.categories[categoryIndex(fruit)].slug, root: root)
        }
        /// The summary of the fruit at a catalog position, decoded from the cache.
        func neighbour(_ position: Int) -> (inputs: UInt64?, value: MustacheValue)? {
            guard position >= 0, position < catalog.order.count else { return (nil, .null) }
            let entry = catalog.order[position]
            guard let fruit = cache.entry(entry)?.fruit else { return nil }
            return (cache.summaryInputs(entry), summary(fruit))
        }

        var pages: [RenderedPage] = []
        for (entry, fruit) in edited {
            let position = positions[entry]
            guard position >= 0 else { continue }  // a draft left out of the site
            guard let previous = neighbour(position - 1), let next = neighbour(position + 1)
            else {
                throw BuildFailure([
                    .error(
                        at: SourceLocation(path: options.cacheDirectory ?? ""),
                        "the build cache is damaged", hint: "build with --clean")
                ])
            }
            let path = "fruits/\(fruit.slug)/index.html"
            let inputs = ContextBuilder.fruitInputs(
                site: catalog.siteInputs, categories: catalog.categoryInputs,
                sourceHash: fruit.sourceHash, summary: cache.summaryInputs(entry),
                previous: previous.inputs, next: next.inputs)
            if self.previous.lookup(path)?.entry.inputHash == inputs { continue }
            let context = ContextBuilder.fruitContext(
                fruit, summary: summary(fruit), previous: previous.value, next: next.value,
                categoryIndex: categoryIndex(fruit), categories: categories,
                common: ContextBuilder.common(
                    config: config, site: site, root: root, path: "fruits/\(fruit.slug)/",
                    title: fruit.name, fruitCount: catalog.order.count,
                    categoryCount: catalog.categories.count))
            do {
                let html = try theme.library.render("fruit", with: context)
                pages.append(RenderedPage(path: path, text: html, inputHash: inputs))
            } catch {
                throw BuildFailure([
                    TemplateLoader(templatesDirectory: options.templatesDirectory)
                        .diagnostic(for: error)
                ])
            }
        }
        return pages
    }
}
