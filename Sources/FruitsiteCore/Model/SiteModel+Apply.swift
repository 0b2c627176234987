import Foundation
import Mustache

extension SiteModel {
    /// What changed since the model was saved: the content files, and the theme and config as
    /// they are now. Templates, assets and config need no list of changes: each page's input
    /// hash covers the templates and settings it uses, and each asset's covers its bytes.
    struct Changes: Sendable {
        var content: ContentScanner.Changes
        var theme: TemplateLoader.Theme
        var config: SiteConfig
    }

    /// What brings the output folder to the model's state.
    struct Plan: Sendable {
        /// The pages whose inputs changed since they were written, or that are new.
        var pages: [(page: Page, inputHash: UInt64)] = []
        /// The assets, and the sharded search index's files, that are new or changed.
        var assets: [RenderedPage] = []
        /// The pictures whose variants the output folder lacks, which the picture stage
        /// writes (`PicturePublisher`).
        var pictures: [PicturePublisher.Source] = []
        /// Whether an entry parsed this build has a picture.
        var parsedPictures = false
        /// Files of the output folder the site no longer has.
        var removals: [String] = []
        /// The details of the entries this build parsed, for their pages, as far as they could
        /// be kept (see `DetailsStore`), sorted by id for `details(of:)`: a dictionary of them
        /// took twice the memory of this array.
        var details: [(id: EntryID, details: KeptDetails)] = []
        /// Where the details went that did not fit in memory; after rendering, it says
        /// whether that failed (`DetailsStore.failureNote`).
        var detailsStore: DetailsStore?
        /// Every warning of the content, the entries' included.
        var warnings: [Diagnostic] = []
        /// What `--verbose` says of what the saved model could not give, and was made anew.
        var notes: [String] = []
        /// How many content files were parsed.
        var parsed = 0
        /// How many pages the site has that are HTML: the 404 page and every page of the
        /// index, the categories, the facet values and the fruits.
        var htmlPageCount = 0
        /// Whether the model changed, and so must be saved, even if no file did.
        var changesModel = false

        /// The kept details of entry `id`, if this build parsed it and could keep them.
        func details(of id: EntryID) -> KeptDetails? {
            let low = details.partitioningIndex(where: { $0.id >= id })
            return low < details.count && details[low].id == id ? details[low].details : nil
        }
    }

    /// Applies `changes`: the model moves to its next state, and the plan says which files
    /// to render, copy and remove. A clean build applies every file to an empty model.
    /// - Parameter first: Called with the data pages are rendered from, and the plan as far
    ///   as the content made it, as soon as a page can be rendered: before the search
    ///   index's files and the list of changed pages are made, which an edit that moves a
    ///   fruit makes long. `serve` renders the pages a browser has open there.
    /// - Returns: The plan, and the data its pages are rendered from: made to hash their
    ///   inputs, and kept, since making it again took as long as hashing them at 100,000
    ///   fruits.
    /// - Throws: `BuildFailure` with every content error; the model is then not to be saved.
    mutating func apply(
        _ changes: consuming Changes, first: (PageData, Plan) -> Void = { _, _ in }
    ) throws(BuildFailure) -> (plan: Plan, data: PageData) {
        let (theme, config) = (changes.theme, changes.config)
        // The scan's entries, once in the model, are let go: at 300,000 fruits their copies
        // were 72 MB of the peak.
        let plan = try update(with: (consume changes).content, config: config)
        return self.plan(
            after: plan, theme: theme, config: config,
            translations: Translations([(self, config, theme)]), first: first)
    }

    /// The part of `apply(_:first:)` after the content is applied (`update(with:config:)`,
    /// whose plan is `plan`): the theme and the config, and the plan of the files to render,
    /// which show the languages that have each entry (`translations`).
    mutating func plan(
        after plan: Plan, theme: TemplateLoader.Theme, config: SiteConfig,
        translations: Translations, first: (PageData, Plan) -> Void
    ) -> (plan: Plan, data: PageData) {
        var plan = plan
        var data = PageData(
            model: self, config: config, theme: theme, translations: translations)
        let shardsSearch = config.shardsSearch(fruitCount: order.count)
        plan.assets = assets(theme.assetNames.published)
        var current = Set(theme.assetNames.published.map(\.path))
        if !shardsSearch {
            searchGrams = nil
            let index = singleSearchIndex(of: data)
            plan.assets += index.changed.map { [$0] } ?? []
            current.insert(index.path)
            // The index pages name it, so it is made before they are hashed.
            data.searchIndexPath = index.path
        }
        let pictures = pictures(settings: config.images, parsedPictures: plan.parsedPictures)
        plan.pictures = pictures.sources
        plan.warnings = (plan.warnings + pictures.warnings).sortedByLocation()
        current.formUnion(pictures.paths)
        first(data, plan)
        // The shards before the list of pages, so that the two are not built at once.
        if shardsSearch {
            let shards = searchShards(of: data)
            plan.assets += shards.changed
            current.formUnion(shards.paths)
            if shards.remadeDamagedPostings {
                plan.notes.append(
                    "the saved model's search postings were damaged: they were made again "
                        + "from the fruits' names")
            }
        }
        let pages = pages(of: data)
        plan.pages = changedPages(pages, of: data)
        plan.htmlPageCount = pages.count { $0.kind.template != nil }
        if data.feeds.lackBaseURL {
            plan.warnings.append(
                .warning(
                    at: SourceLocation(path: settings.contentDirectory),
                    "fruits have dates, but feeds are written only with a baseURL",
                    hint: "feeds need absolute URLs: set baseURL in the config, such as "
                        + "'https://example.org/'; 'feed: {limit: 0}' silences this"))
        }
        if config.sitemap && !config.hasSitemap {
            plan.warnings.append(
                .warning(
                    at: SourceLocation(path: settings.contentDirectory),
                    "the sitemap is written only with a baseURL",
                    hint: "a sitemap needs absolute URLs: set baseURL in the config, such as "
                        + "'https://example.org/'; 'sitemap: false' silences this"))
        }
        // Fruit pages come and go with their entries (see `update(with:)`); listing pages
        // beyond the last one a shrunken listing has are removed here.
        for page in pages where page.kind != .fruit { current.insert(page.path(in: self)) }
        plan.removals += removeOutputs(except: current)
        plan.changesModel =
            plan.changesModel || !plan.pages.isEmpty || !plan.assets.isEmpty
            || !plan.pictures.isEmpty || !plan.removals.isEmpty
        return (plan, data)
    }

    // MARK: - Content

    /// Applies the content files alone: what the catalog needs, without rendering anything.
    /// - Throws: `BuildFailure` with every content error, or when there is none, the facets
    ///   `config` lists that no fruit has: `search` refuses the site that `build` does.
    mutating func update(
        with changes: ContentScanner.Changes, config: SiteConfig
    ) throws(BuildFailure) -> Plan {
        var plan = Plan()
        for (id, status) in changes.verified { verify(id, status: status, at: changes.time) }
        if changes.isListedAnew {
            folders = changes.folders
            listedAt = changes.time
            isLinkFree = changes.isLinkFree
        }
        let (old, ids, listed) = replace(
            removing: changes.removed, storing: changes.parsed.lazy.map { ($0.id, $0.entry) })
        // A fruit's page stays with its entry while the entry is listed. A page its entry
        // left goes to the entry that takes its slug (the file is then compared by its
        // bytes rather than written anew); the others are removed.
        var freed: [String: OutputRecord] = [:]
        for entry in old {
            if let page = entry.page { freed[entry.fruit.slug] = page }
        }
        plan.detailsStore = changes.detailsStore
        plan.details.reserveCapacity(changes.parsed.count)
        for (id, parsed) in zip(ids, changes.parsed) {
            if let details = parsed.details { plan.details.append((id, details)) }
            if isListed(id), let page = freed.removeValue(forKey: self[id].fruit.slug) {
                setPage(of: id, page)
            }
        }
        // Already in order after a clean build, whose ids follow the parse: then not sorted,
        // which would take a buffer of half their size.
        if !zip(plan.details, plan.details.dropFirst()).allSatisfy({ $0.id < $1.id }) {
            plan.details.sort { $0.id < $1.id }
        }
        plan.removals = freed.keys.sorted().map { "fruits/\($0)/index.html" }
        plan.parsed = changes.parsed.count
        plan.parsedPictures = changes.parsed.contains { $0.entry.fruit.image != nil }
        plan.changesModel =
            changes.isListedAnew || !changes.verified.isEmpty || !changes.parsed.isEmpty
            || !changes.removed.isEmpty

        var diagnostics = changes.diagnostics
        diagnostics += duplicateSlugs(among: listed)
        diagnostics += collidingCategories()
        diagnostics += collidingFacetValues(locatedBy: changes.locateFacetValue)
        // Every entry's warnings, so that each build repeats them until the file is fixed,
        // and its site links, which a change to another entry can break.
        var targets: SiteLinkTargets?
        for id in self.ids where self[id].isRechecked {
            diagnostics += self[id].warnings
            for link in self[id].siteLinks {
                if targets == nil {
                    targets = SiteLinkTargets(self, inError: changes.diagnostics)
                }
                if let problem = targets!.problem(with: link, in: self[id].path) {
                    diagnostics.append(problem)
                }
            }
        }
        // With content errors, the fruits in error may be the ones that have the facet.
        if !diagnostics.containsErrors { diagnostics += unusedFacets(config) }
        if count == 0 && changes.diagnostics.isEmpty && !diagnostics.containsErrors {
            diagnostics.append(
                .warning(
                    at: SourceLocation(path: settings.contentDirectory),
                    "no .md files found; the site will list no fruits"))
        }
        if diagnostics.containsErrors { throw BuildFailure(diagnostics.sortedByLocation()) }
        plan.warnings = diagnostics.sortedByLocation()
        return plan
    }

    /// What `fruit:` and `category:` links can name: the listed fruits' slugs (from their
    /// files' names, without decoding them) and the categories' names.
    private struct SiteLinkTargets {
        let slugs: Set<String>
        /// The slugs of the entries left out as drafts, which a link cannot name either.
        let drafts: Set<String>
        /// The slugs of the files in error this build: a link to one is not broken, and its
        /// category may be one no listed fruit has.
        let inError: Set<String>
        let categories: [String]

        init(_ model: SiteModel, inError diagnostics: [Diagnostic]) {
            slugs = Set(model.order.map { String(model[$0].slug) })
            let listed = Set(model.order)
            drafts = Set(model.ids.filter { !listed.contains($0) }.map { String(model[$0].slug) })
            inError = Set(
                diagnostics.filter(\.isError).map { String(SourceFile.slug(of: $0.location.path)) })
            categories = model.categories.map(\.name)
        }

        /// The error for a link that names nothing, with the nearest name as a hint.
        func problem(with link: SiteLink, in path: String) -> Diagnostic? {
            let location = SourceLocation(path: path, line: link.line, column: link.column)
            switch link.kind {
            case .fruit where link.target.isEmpty:
                return .error(at: location, "the link names no fruit", hint: "write 'fruit:<slug>'")
            case .fruit where inError.contains(link.slug):
                return nil  // The file's own error is reported.
            case .fruit where !slugs.contains(link.slug):
                let slug = link.slug
                let guess = Suggestion.closest(to: slug, in: slugs.sorted(), maximumDistance: 3)
                if drafts.contains(slug) {
                    return .error(
                        at: location, "the fruit '\(slug)' is a draft, which has no page",
                        hint: "build with --drafts to include drafts, or publish it first")
                }
                let madeFrom = slug == link.target ? "" : " (made from '\(link.target)')"
                return .error(
                    at: location, "no fruit has the slug '\(slug)'\(madeFrom)",
                    hint: guess.map { "did you mean 'fruit:\($0)'?" })
            case .category where !categories.contains(link.target):
                let guess = Suggestion.closest(
                    to: link.target, in: categories, maximumDistance: 3)
                return .error(
                    at: location, "no category is named '\(link.target)'",
                    hint: guess.map { "did you mean 'category:\($0)'?" }
                        ?? (inError.isEmpty ? nil : "it may be the category of an entry in error"))
            default:
                return nil
            }
        }
    }

    /// Slugs that two listed fruits share, where one of them was just listed (a fruit that
    /// kept its file kept its slug): each file after the first, in path order, gets the
    /// error.
    private func duplicateSlugs(among listed: [EntryID]) -> [Diagnostic] {
        let wanted = Set(listed.map { self[$0].slug })
        guard !wanted.isEmpty else { return [] }
        let index = slugs(for: wanted)
        var diagnostics: [Diagnostic] = []
        for slug in wanted.sorted() {
            var paths = index.ids(withSlug: slug, in: self).filter(isListed).map { self[$0].path }
            guard paths.count > 1 else { continue }
            UTF8Order.sort(&paths)
            let scope = settings.scope
            for path in paths.dropFirst() {
                // A default entry the language shows in place of a missing translation.
                let fallback = paths.first { scope.isFallback($0) }
                diagnostics.append(
                    .error(
                        at: SourceLocation(path: path, line: 1, column: 1),
                        "duplicate slug '\(slug)': \(paths[0]) has it too",
                        hint: fallback.map {
                            "\($0) has no '\(scope.code)' translation, and is shown in its "
                                + "place: translate it, or rename the other file"
                        } ?? "rename one of the files; slugs must be unique across sub-folders"))
            }
        }
        return diagnostics
    }

    /// Categories whose names differ but whose URL slugs are the same.
    private func collidingCategories() -> [Diagnostic] {
        Self.collisions(in: categories).map { group, first in
            let here = self[position: group.positions[0]].categoryLocation
            let there = self[position: first.positions[0]].categoryLocation
            return .error(
                at: here,
                "categories '\(group.name)' and '\(first.name)' (\(there)) "
                    + "both have the URL slug '\(group.slug)'",
                hint: "spell the category the same way in every entry")
        }
    }

    /// Values of a facet whose names differ but whose URL slugs are the same (`c` and `C`).
    private func collidingFacetValues(
        locatedBy locate: (_ path: String, _ key: String, _ value: String) -> SourceLocation
    ) -> [Diagnostic] {
        zip(settings.facets, facets).flatMap { facet, values in
            Self.collisions(in: values).map { group, first in
                let here = locate(self[position: group.positions[0]].path, facet, group.name)
                let there = locate(self[position: first.positions[0]].path, facet, first.name)
                return .error(
                    at: here,
                    "\(facet) '\(group.name)' and '\(first.name)' (\(there)) both have the "
                        + "URL slug '\(group.slug)'",
                    hint: "spell the value the same way in every entry")
            }
        }
    }

    /// Each group whose slug an earlier group of `groups` has, with that earlier group.
    private static func collisions(in groups: [FruitGroup]) -> [(FruitGroup, first: FruitGroup)] {
        Slug.collisions(in: groups, slug: \.slug)
    }

    /// The facets the config lists that no listed fruit has a value of: each an error where
    /// the config lists it. (The default facets are no error.)
    private func unusedFacets(_ config: SiteConfig) -> [Diagnostic] {
        zip(config.facetLocations, zip(config.facets, facets)).compactMap { location, facet in
            guard facet.1.isEmpty, !order.isEmpty else { return nil }
            return .error(
                at: location, "no fruit has a value of the facet '\(facet.0)'",
                hint: "add '\(facet.0): …' to an entry's front matter, or take it out of 'facets'")
        }
    }

    // MARK: - Output

    /// The pages of `pages` whose input hash differs from the one they were last written with.
    private func changedPages(_ pages: [Page], of data: PageData) -> [(
        page: Page, inputHash: UInt64
    )] {
        let hashes = pages.concurrentMap(data.inputHash)
        // The fruit pages' records gathered first, in id order (`byPosition`).
        let written = byPosition(filling: nil, positions: data.positions) { $0.page?.inputHash }
        return zip(pages, hashes).filter { page, hash in
            if case .fruit(let position) = page { return written[position.rawValue] != hash }
            return record(of: page)?.inputHash != hash
        }
    }

    /// Every page of the site `data` renders, its feeds' among them.
    func pages(of data: PageData) -> [Page] {
        pages(
            in: Pagination(pageSize: data.config.pageSize), hasSitemap: data.config.hasSitemap,
            writes: data.theme.writes) + data.feeds.pages
    }

    /// Every page of the site: the index's, the fixed ones, then the categories' page and
    /// each category's, each facet's page and each of its values', each fruit's, the
    /// sitemap's parts when it has more than one or the site several languages, and the
    /// folders that lead to a listing.
    /// - Parameters:
    ///   - hasSitemap: Whether the site has a sitemap (`SiteConfig.hasSitemap`).
    ///   - writes: Whether the theme writes pages of a kind (`Theme.writes(_:)`).
    func pages(
        in pagination: Pagination, hasSitemap: Bool, writes: (PageKind) -> Bool = { _ in true }
    ) -> [Page] {
        var pages: [Page] = []
        // A folder page is written where a page has the folder in its address.
        var folders: [Page] = order.isEmpty ? [] : [.fruitsFolder]
        func addPages(of listing: Page.Listing, count: Int) {
            let count = pagination.pageCount(of: count)
            pages += (1...count).map(listing.page)
            if count > 1 { folders.append(.pagesFolder(listing)) }
        }
        addPages(of: .index, count: order.count)
        // `robots.txt` and `sitemap.xml` are the site root's, which the default language
        // writes: another language has neither, and its sitemap's files are named by the
        // root's, a sitemap index. In a folder of its own, the default language writes the
        // root page that leads there too.
        let isRoot = settings.scope.isDefault
        if isRoot && !settings.scope.prefix.isEmpty { folders.append(.siteRoot) }
        let fixed: [Page] =
            [.notFound] + (hasSitemap && isRoot ? [.sitemap] : []) + (isRoot ? [.robots] : [])
        pages += fixed
        if writes(.categories), !categories.isEmpty { pages.append(.categories) }
        for index in categories.indices {
            addPages(of: .category(index), count: categories[index].positions.count)
        }
        for (facet, values) in facets.enumerated() {
            if writes(.facetValues), !values.isEmpty { pages.append(.facetValues(facet)) }
            for value in values.indices {
                addPages(
                    of: .facet(facet, value: value), count: values[value].positions.count)
            }
        }
        pages += catalogPositions.map(Page.fruit)
        // The sitemap lists every page but the fixed ones, the folders that lead elsewhere and
        // those shown in place of a missing translation (`SitemapListing.locations(of:)`). A
        // site in several languages has each language's addresses in parts, even one.
        let scope = settings.scope
        if hasSitemap {
            let fallbacks =
                scope.takesFallbacks ? order.count { scope.isFallback(self[$0].path) } : 0
            let parts = SitemapBuilder.partCount(of: pages.count - fixed.count - fallbacks)
            if parts > 1 || scope.isPartial { pages += (1...parts).map(Page.sitemapPart) }
        }
        if writes(.redirect) { pages += folders }
        return pages
    }

    /// Every file the model records as written: the fruits' pages and every other output.
    var writtenPaths: Set<String> {
        var paths = Set(outputs.keys)
        for id in ids where self[id].page != nil {
            paths.insert("fruits/\(self[id].slug)/index.html")
        }
        return paths
    }

    /// The record of the file `page` was last written to.
    func record(of page: Page) -> OutputRecord? {
        if case .fruit(let position) = page { return self[position: position].page }
        return outputs[page.path(in: self)]
    }

    /// Records what `page` was written from and what it holds now.
    mutating func record(_ page: Page, _ record: OutputRecord) {
        if case .fruit(let position) = page {
            setPage(of: id(at: position), record)
        } else {
            outputs[page.path(in: self)] = record
        }
    }

    /// The assets whose bytes differ from what was last copied, each recorded as copied.
    private mutating func assets(_ assets: [RenderedPage]) -> [RenderedPage] {
        assets.filter { asset in
            let hash = StableHasher.hash(asset.bytes)
            let record = OutputRecord(inputHash: hash, outputHash: hash)
            defer { outputs[asset.path] = record }
            return outputs[asset.path] != record
        }
    }

    /// Forgets the files other than fruit pages that the site no longer has, and returns
    /// their paths.
    private mutating func removeOutputs(except current: Set<String>) -> [String] {
        let gone = outputs.keys.filter { !current.contains($0) }
        for path in gone { outputs[path] = nil }
        return gone.sorted()
    }
}
