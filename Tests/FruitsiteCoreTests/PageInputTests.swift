import Foundation
import Mustache
import TestSupport
import Testing

@testable import FruitsiteCore

/// A rebuild skips a page whose inputs hash as before, so the inputs must cover whatever the
/// page shows: when a page's bytes change, its input hash must change too. Each case changes
/// one thing about the sample site and checks every file.
@Suite struct PageInputTests {
    enum Change: String, CaseIterable, Sendable {
        case body, params, name, move, emoji, vitamins, category, newCategory, removal, addition
        case draft, title, baseURL, language, rawHTML, fruitTemplate, layout, partial
        case date, feedLimit, sitemap, stylesheet, module
    }

    /// The site in `folder` (its `Content` and `Templates`) applied to an empty model.
    static func applied(_ folder: String, config: SiteConfig) throws -> (
        model: SiteModel, plan: SiteModel.Plan, data: PageData
    ) {
        let theme = try TemplateLoader(templatesDirectory: folder + "/Templates").load()
        var model = SiteModel(
            settings: .init(
                contentDirectory: folder + "/Content", includesDrafts: false,
                facets: config.facets))
        let scanner = ContentScanner(
            contentDirectory: folder + "/Content", fileSystem: .local,
            parser: FruitParser(markdown: CommonMark(allowsRawHTML: config.rawHTML)), now: 0)
        let (plan, data) = try model.apply(
            .init(content: scanner.scan(against: model), theme: theme, config: config))
        return (model, plan, data)
    }

    /// Each file's path, the hash of its bytes and the hash of its inputs, for the site in
    /// `folder` (its `Content` and `Templates`).
    static func site(_ folder: String, config: SiteConfig) throws -> [String: (UInt64, UInt64)] {
        let (model, plan, data) = try applied(folder, config: config)
        var files: [RenderedPage] = []
        try PageRenderer(templatesDirectory: "T")
            .render(plan.pages, with: data) {
                plan.details(of: $0)!.load()!
            } emit: {
                files += $1
            }
        let pages =
            model.pages(
                in: Pagination(pageSize: config.pageSize), hasSitemap: config.hasSitemap)
            + data.feeds.pages
        #expect(files.count == pages.count)
        #expect(pages.count >= 5 + model.order.count + model.categories.count)
        var site: [String: (UInt64, UInt64)] = [:]
        for ((_, inputHash), file) in zip(plan.pages, files) {
            site[file.path] = (StableHasher.hash(file.bytes), inputHash)
        }
        // The files named by their bytes (the search index, the assets), under their names.
        for file in plan.assets {
            let hash = StableHasher.hash(file.bytes)
            site[ContentName.unstamped(file.path)] = (hash, hash)
        }
        return site
    }

    /// Replaces `from` with `to` in the file at `path` of `folder`, which must hold it.
    static func edit(
        _ path: String, _ from: String, _ to: String, in folder: TemporaryDirectory,
        for change: some CustomStringConvertible
    ) throws {
        let text = try folder.read(path)
        #expect(text.contains(from), "\(change): \(path) has no '\(from)'")
        try folder.write(path, text.replacingOccurrences(of: from, with: to))
    }

    /// Makes the change in the copy of the sample site at `folder`.
    static func make(_ change: Change, in folder: TemporaryDirectory, _ config: inout SiteConfig)
        throws
    {
        func edit(_ path: String, _ from: String, _ to: String) throws {
            try Self.edit(path, from, to, in: folder, for: "\(change)")
        }
        switch change {
        case .body: try edit("Content/kiwi.md", "woody vine", "woody climbing vine")
        case .params: try edit("Content/kiwi.md", "origin: China", "origin: Somewhere")
        case .name: try edit("Content/kiwi.md", "name: Kiwi", "name: Kiwifruit")
        case .move: try edit("Content/kiwi.md", "name: Kiwi", "name: Actinidia")
        case .emoji: try edit("Content/kiwi.md", "🥝", "🥝🥝")
        case .vitamins: try edit("Content/kiwi.md", "[C, K, E]", "[C, K, D]")
        case .category: try edit("Content/kiwi.md", "Grapes & Vines", "Berries")
        case .newCategory: try edit("Content/kiwi.md", "Grapes & Vines", "Vines")
        case .removal: try FileManager.default.removeItem(atPath: folder.path + "/Content/kiwi.md")
        case .addition:
            try folder.write(
                "Content/zucchini.md", "---\nname: Zucchini\ncategory: Melons\n---\nGreen.\n")
        case .draft: try edit("Content/kiwi.md", "name: Kiwi", "draft: true\nname: Kiwi")
        case .title: config.title = "Other"
        case .baseURL: config.baseURL = "https://example.org/fruits/"
        case .language: config.language = "de"
        case .rawHTML: config.rawHTML = true
        case .fruitTemplate:
            try edit("Templates/fruit.mustache", "<dt>{{strings.category}}", "<dt>Group")
        case .layout: try edit("Templates/layout.mustache", "{{strings.skipToContent}}", "Skip")
        case .date: try edit("Content/kiwi.md", "date: 2024-03-01", "date: 2023-03-01")
        case .feedLimit: config.feedLimit = 1
        case .sitemap: config.sitemap = false
        case .partial: try edit("Templates/partials/fruit-card.mustache", "<li", "<li ")
        case .stylesheet: try edit("Templates/assets/site.css", "}", "}\n")
        case .module: try edit("Templates/assets/fruit-filter.js", "export", "\nexport")
        }
    }

    /// The sample site in one language, with raw HTML in one entry for `rawHTML` to let
    /// through, and dates on three fruits, for the feeds.
    static func copyOfTheSample() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try Sample.copyInOneLanguage(to: folder.path)
        try folder.write(
            "Content/kiwi.md", try folder.read("Content/kiwi.md") + "\n<mark>Raw</mark>\n")
        for (file, date) in [
            ("kiwi", "2024-03-01"), ("apple", "2024-02-01"), ("fig", "2024-01-01"),
        ] {
            let text = try folder.read("Content/\(file).md")
            try folder.write(
                "Content/\(file).md",
                text.replacingOccurrences(of: "\ncategory:", with: "\ndate: \(date)\ncategory:"))
        }
        return folder
    }

    /// A theme keeps what each kind reads by `PageKind.index`, which must be the kind's place
    /// in `allCases`.
    @Test func eachKindsIndexIsItsPlace() {
        #expect(PageKind.allCases.map(\.index) == Array(PageKind.allCases.indices))
    }

    /// With the default page size, and with 5 fruits a page so that every listing of the
    /// sample has pages.
    @Test(arguments: Change.allCases, [SiteConfig.defaultPageSize, 5])
    func inputsChangeWheneverTheBytesDo(_ change: Change, pageSize: Int) throws {
        let folder = try Self.copyOfTheSample()
        defer { folder.remove() }
        var config = SiteConfig()
        config.pageSize = pageSize
        config.baseURL = "https://example.org/"
        let before = try Self.site(folder.path, config: config)
        try Self.make(change, in: folder, &config)
        let after = try Self.site(folder.path, config: config)
        var changed = 0
        for (path, (bytes, inputs)) in after {
            guard let (oldBytes, oldInputs) = before[path] else { continue }
            if bytes != oldBytes {
                changed += 1
                #expect(inputs != oldInputs, "\(change): \(path) changed but its inputs did not")
            }
        }
        #expect(changed > 0, "\(change) changed no file: the case tests nothing")
        // The inputs are not coarser than they need be: a text edit touches one page, and a
        // template only the pages that use it.
        let touched = after.filter { path, hashes in
            before[path].map { old in old.1 != hashes.1 } ?? true
        }
        switch change {
        case .body, .params:
            // Kiwi's page, and the feeds that list it.
            #expect(
                touched.keys.sorted() == [
                    "categories/grapes-vines/feed.json", "categories/grapes-vines/feed.xml",
                    "feed.json", "feed.xml", "fruits/kiwi/index.html",
                ])
        case .fruitTemplate: #expect(touched.keys.allSatisfy { $0.hasPrefix("fruits/") })
        case .emoji, .move:
            // The search index shows it; the sitemap lists slugs alone, in their order, so a
            // fruit that moves in the catalog leaves it as it was.
            #expect(touched["search-index.json"] != nil && touched["sitemap.xml"] == nil)
        case .category where pageSize == SiteConfig.defaultPageSize:
            // Both categories keep one page each: the sitemap, which lists pages, is as it was.
            #expect(touched["search-index.json"] != nil && touched["sitemap.xml"] == nil)
        case .vitamins:
            // A value only Kiwi had is gone, and a new one has a page: the sitemap lists it.
            #expect(touched["search-index.json"] != nil && touched["sitemap.xml"] != nil)
            #expect(touched["vitamins/d/index.html"] != nil)
        case .module:
            // Its stamp, and those of the modules that import it: the index, which loads them.
            #expect(
                touched.keys.allSatisfy {
                    $0 == "index.html" || $0.hasPrefix("page/") || $0.hasPrefix("assets/")
                })
        case .stylesheet:
            // Every page links it: every HTML page, and the stylesheet itself.
            #expect(
                touched.keys.sorted()
                    == after.keys.filter { $0.hasSuffix(".html") || $0 == "assets/site.css" }
                    .sorted())
        case .partial:
            // The card: every listing.
            #expect(
                touched.keys.allSatisfy {
                    $0 == "index.html" || $0.hasPrefix("page/") || $0.hasPrefix("categories/")
                        || $0.hasPrefix("vitamins/")
                })
        default: break
        }
    }

    /// A page reads only the inputs its templates look up. Were that reading wrong, a page
    /// would miss something it shows: with a dynamic partial, which could look up anything,
    /// every page reads every input, and must come out the same.
    @Test(arguments: [SiteConfig.defaultPageSize, 5])
    func pagesReadEverythingTheyShow(pageSize: Int) throws {
        let folder = try Self.copyOfTheSample()
        defer { folder.remove() }
        var config = SiteConfig()
        config.pageSize = pageSize
        let theme = try TemplateLoader(templatesDirectory: folder.path + "/Templates").load()
        let narrow = try Self.site(folder.path, config: config)
        let layout = try folder.read("Templates/layout.mustache")
        try folder.write(
            "Templates/layout.mustache",
            layout.replacingOccurrences(of: "</body>", with: "{{>*noSuchName}}</body>"))
        let wide = try TemplateLoader(templatesDirectory: folder.path + "/Templates").load()
        #expect(theme.shown(on: .fruit) != .all)
        #expect(wide.shown(on: .fruit) == .all)
        let everything = try Self.site(folder.path, config: config)
        #expect(narrow.count == everything.count)
        for (path, (bytes, _)) in narrow {
            #expect(everything[path]?.0 == bytes, "\(path) differs when every input is read")
        }
    }

    /// With pages, a listing page is rendered again exactly when its bytes change: when the
    /// fruits it shows change, or (on a listing's first page) the totals and sizes it shows.
    /// Adding or removing a fruit leaves the pages before it alone.
    @Test(arguments: [Change.emoji, .name, .category, .addition, .removal, .draft])
    func listingPagesRenderAgainOnlyWhenWhatTheyShowChanges(_ change: Change) throws {
        let folder = try Self.copyOfTheSample()
        defer { folder.remove() }
        var config = SiteConfig()
        config.pageSize = 5
        let before = try Self.site(folder.path, config: config)
        try Self.make(change, in: folder, &config)
        let after = try Self.site(folder.path, config: config)
        let listings = after.keys.filter {
            $0.hasSuffix("index.html") && !$0.hasPrefix("fruits/")
        }
        #expect(
            listings.filter { $0.hasPrefix("page/") }.count == 10,
            "the index has 10 pages, and page/ leads to the first")
        var rendered: Set<String> = []
        var changed: Set<String> = []
        for path in listings {
            guard let old = before[path], let new = after[path] else { continue }
            if old.1 != new.1 { rendered.insert(path) }
            if old.0 != new.0 { changed.insert(path) }
        }
        // A facet value's page reads its fruits' summaries whole; the default card does not
        // show the category, so a category change renders Kiwi's vitamins' pages again alone.
        // The default card shows a fruit's picture in place of its emoji, and Kiwi has one: an
        // emoji change renders its cards' pages again, whose bytes stay.
        let tolerated =
            switch change {
            case .category: rendered.filter { $0.hasPrefix("vitamins/") }
            case .emoji:
                rendered.filter { $0.hasPrefix("vitamins/") || $0.hasPrefix("categories/") }
            default: Set<String>()
            }
        #expect(
            rendered.subtracting(tolerated) == changed,
            "\(change): rendered again without a change")
        // Every page of the index names the search index, whose name changes with its bytes
        // (docs/how-to/deploy.md): a change the index shows renders them all again.
        let index = rendered.filter { $0 == "index.html" || $0.hasPrefix("page/") }
        #expect(index.count == 10, "\(index.sorted())")
        let others = rendered.subtracting(index)
        switch change {
        case .emoji, .name:
            // Kiwi keeps its place: the one category page and the one page of each of its
            // vitamins (C, K, E) showing it.
            #expect(others.count == 4, "\(others.sorted())")
            #expect(others.filter { $0.hasPrefix("vitamins/") }.count == 3)
        default:
            break
        }
    }

    /// The default theme keeps site-wide figures on the pages that list fruits, so a fruit
    /// page shows neither other categories' sizes nor the totals.
    @Test func fruitPagesOfTheDefaultThemeShowNoSiteWideFigures() throws {
        let theme = try TemplateLoader(templatesDirectory: repositoryRoot + "/Templates").load()
        let shown = theme.shown(on: .fruit)
        #expect(!shown.contains(.categorySizes) && !shown.contains(.totals))
        #expect(!theme.shown(on: .category).contains(.categorySizes))
        #expect(theme.shown(on: .index).contains(.categorySizes))
    }
}
