import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// An incremental build must write exactly what a clean build writes, whatever changed.
@Suite struct IncrementalBuildTests {
    /// A copy of the sample in one language (`Sample.copyInOneLanguage`) in a temporary
    /// folder, built into `Output`, with a base URL, so that every rebuild compares the sitemap
    /// too.
    struct Project {
        let folder: TemporaryDirectory
        var options = BuildOptions()
        var fileSystem = FileSystem.local

        /// The clock; an hour ahead when the files are to look settled.
        var now: @Sendable () -> Date = { Date() }
        /// How many pages the build renders and stages at a time.
        var batchLimit = PageRenderer.BatchLimit()
        /// How many bytes of parsed bodies the build keeps for its pages; nil for the default.
        var detailsBudget: Int?

        /// - Parameter settled: The clock runs an hour ahead, so every file's status is
        ///   trusted at once; else every file just written is read again
        ///   (see `FileStatus.isSettled(at:)`).
        init(settled: Bool = false) throws {
            folder = try TemporaryDirectory()
            try Sample.copyInOneLanguage(to: folder.path)
            options.contentDirectory = folder.path + "/Content"
            options.templatesDirectory = folder.path + "/Templates"
            options.outputDirectory = folder.path + "/Output"
            options.cacheDirectory = folder.path + "/.cache"
            try folder.write("fruitsite.yml", "baseURL: https://example.org/\n")
            options.configPath = folder.path + "/fruitsite.yml"
            if settled { now = { Date().addingTimeInterval(3_600) } }
        }

        /// How many of the content's entries name a picture.
        var entriesWithPictures: Int {
            filesBelow(folder.path + "/Content").count { path in
                path.hasSuffix(".md")
                    && (try? String(
                        contentsOfFile: "\(folder.path)/Content/\(path)", encoding: .utf8))?
                        .contains("\nimage:") == true
            }
        }

        /// How many variants of the picture named `name` the output holds.
        func variants(of name: String) throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: folder.path + "/Output/images")
                .count { $0.hasPrefix(name + "-") }
        }

        @discardableResult
        func build() throws -> SiteBuilder.Rendering {
            var builder = SiteBuilder(options: options, fileSystem: fileSystem)
            builder.now = now
            builder.batchLimit = batchLimit
            if let detailsBudget { builder.detailsBudget = detailsBudget }
            return try builder.build()
        }

        /// Builds into `Output` (incrementally when it holds a build), then cleanly into
        /// `Clean`, and expects the two folders to hold the same files with the same bytes,
        /// the markers included: equal markers mean equal models. The spare copy the next
        /// build will change mirrors `Output`.
        @discardableResult
        func buildAndCompare(_ step: String) throws -> SiteBuilder.Rendering {
            let incremental = try build()
            try IncrementalBuildTests.expectSameAsACleanBuild(options, in: folder.path, step)
            try OutputWriterTests.expectSpareMirrors(folder.path + "/Output")
            return incremental
        }

        func edit(_ path: String, _ change: (String) -> String) throws {
            let full = folder.path + "/" + path
            let text = try String(contentsOfFile: full, encoding: .utf8)
            let changed = change(text)
            #expect(changed != text, "the edit of \(path) changes it")
            try Data(changed.utf8).write(to: URL(fileURLWithPath: full))
        }

        func move(_ from: String, _ to: String) throws {
            try FileManager.default.moveItem(
                atPath: folder.path + "/" + from, toPath: folder.path + "/" + to)
        }
    }

    /// Builds the site of `options` cleanly into `Clean` beside `Output` in `folder`, and
    /// expects the two folders to hold the same files with the same bytes.
    static func expectSameAsACleanBuild(
        _ options: BuildOptions, in folder: String, _ step: String
    ) throws {
        var clean = options
        clean.outputDirectory = folder + "/Clean"
        clean.cacheDirectory = folder + "/.clean-cache"
        clean.clean = true
        _ = try SiteBuilder(options: clean).build()
        let files = filesBelow(folder + "/Output")
        #expect(files == filesBelow(folder + "/Clean"), "\(step): different files")
        for file in files {
            let a = FileManager.default.contents(atPath: folder + "/Output/" + file)
            let b = FileManager.default.contents(atPath: folder + "/Clean/" + file)
            #expect(a == b, "\(step): \(file) differs from a clean build")
        }
    }

    /// Every kind of edit, each made just before the build (so the files changed within the
    /// margin in which their status is not trusted) or long before it (the clock an hour
    /// ahead): each rebuild writes what a clean build writes, and renders only what shows
    /// the edit.
    @Test(arguments: [false, true])
    func matchesACleanBuildAfterEveryKindOfEdit(settled: Bool) throws {
        let project = try Project(settled: settled)
        defer { project.folder.remove() }
        let first = try project.buildAndCompare("first build")
        let fruits = first.fruitCount

        let nothing = try project.buildAndCompare("no change")
        #expect(nothing.written?.written == 0 && nothing.written?.removed == 0)
        // A picture whose status is not yet trusted has its entry parsed again, rather than
        // hashed as an entry's own file is: the pages come out the same, and are not rendered.
        // Whether a picture copied just before the first build is still within the margin
        // depends on how long that build took, so unsettled runs bound the count.
        let unsettledPictures = settled ? 0 : project.entriesWithPictures
        #expect(nothing.parsed <= unsettledPictures, "only unsettled pictures' entries parsed")
        #expect(nothing.rendered == 0, "nothing is rendered")

        try project.edit("Content/apple.md") { $0 + "\nOne more paragraph.\n" }
        let body = try project.buildAndCompare("body text")
        #expect(body.written?.written == 1 && body.parsed == 1 && body.rendered == 1)

        // What lists the fruit: its page and its neighbours', the index, its category, the
        // pages of its three vitamins, the search index and the sitemap.
        try project.edit("Content/kiwi.md") {
            $0.replacingOccurrences(of: "name: Kiwi", with: "name: Zebra Kiwi")
        }
        let name = try project.buildAndCompare("name: the fruit moves")
        #expect(name.parsed == 1 && name.rendered <= 13, "\(name.rendered) files rendered")

        try project.edit("Content/kiwi.md") { $0.replacingOccurrences(of: "🥝", with: "🥑") }
        let emoji = try project.buildAndCompare("emoji")
        #expect(emoji.rendered <= 11, "\(emoji.rendered) files rendered")

        try project.edit("Content/kiwi.md") {
            $0.replacingOccurrences(of: "vitamins: [C, K, E]", with: "vitamins: [C]")
        }
        // And the pages of the vitamins it had.
        let vitamins = try project.buildAndCompare("vitamins")
        #expect(vitamins.rendered <= 11, "\(vitamins.rendered) files rendered")

        try project.edit("Content/kiwi.md") {
            $0.replacingOccurrences(of: "category: Grapes & Vines", with: "category: Berries")
        }
        let category = try project.buildAndCompare("category")
        #expect(category.rendered <= 10, "\(category.rendered) files rendered")

        try project.folder.write(
            "Content/zucchini.md",
            "---\nname: Zucchini\ncategory: Melons\n---\nA fruit, botanically.\n")
        let added = try project.buildAndCompare("add a file")
        #expect(added.fruitCount == fruits + 1 && added.rendered <= 10)

        let bananaPictures = try project.variants(of: "banana")
        try FileManager.default.removeItem(atPath: project.folder.path + "/Content/banana.md")
        // The fruit's page goes, the search index under its old name (named by its bytes), and
        // the variants of its picture, which no other fruit shows.
        let deleted = try project.buildAndCompare("delete a file")
        #expect(deleted.written?.removed == 2 + bananaPictures && deleted.rendered <= 10)
        #expect(
            !FileManager.default.fileExists(atPath: project.folder.path + "/Output/fruits/banana"))

        try project.move("Content/zucchini.md", "Content/courgette.md")
        let moved = try project.buildAndCompare("rename a file (its slug)")
        #expect(moved.written?.removed == 2 && moved.rendered <= 10)

        let cherryPictures = try project.variants(of: "cherry")
        try project.edit("Content/cherry.md") {
            $0.replacingOccurrences(of: "category:", with: "draft: true\ncategory:")
        }
        let draft = try project.buildAndCompare("a draft flag")
        #expect(draft.fruitCount == fruits - 1 && draft.written?.removed == 2 + cherryPictures)

        // A fruit in a new category, and the only fruit of a category moving out: every page
        // lists the categories in its footer.
        try project.edit("Content/courgette.md") {
            $0.replacingOccurrences(of: "Melons", with: "Squashes")
        }
        try project.buildAndCompare("a new category")
        try project.edit("Content/courgette.md") {
            $0.replacingOccurrences(of: "Squashes", with: "Berries")
        }
        let emptied = try project.buildAndCompare("the only fruit of a category moves out")
        #expect(
            !FileManager.default.fileExists(
                atPath: project.folder.path + "/Output/categories/squashes"))
        #expect((emptied.written?.removed ?? 0) >= 1)

        for file in ["grape", "passion-fruit"] {
            try project.edit("Content/\(file).md") {
                $0.replacingOccurrences(of: "Grapes & Vines", with: "Vines")
            }
        }
        try project.buildAndCompare("rename a category")

        // A template only fruit pages use renders only fruit pages.
        try project.edit("Templates/fruit.mustache") {
            $0.replacingOccurrences(of: "<dt>{{strings.category}}</dt>", with: "<dt>Group</dt>")
        }
        let template = try project.buildAndCompare("the fruit template")
        #expect(template.rendered == template.fruitCount)
        #expect(template.parsed == 0, "details are read, not parsed into the model")

        try project.edit("Templates/layout.mustache") { $0 + "\n" }
        let layout = try project.buildAndCompare("the layout every page uses")
        #expect(layout.rendered == layout.htmlPageCount)

        // Under both its names, and every page that links its stamped one.
        try project.edit("Templates/assets/site.css") { $0 + "\n/* changed */\n" }
        let asset = try project.buildAndCompare("an asset")
        #expect(asset.rendered == asset.htmlPageCount + 2)
        #expect(asset.written?.written == asset.rendered && asset.written?.removed == 1)

        try FileManager.default.removeItem(
            atPath: project.folder.path + "/Templates/assets/search.css")
        try project.edit("Templates/index.mustache") {
            $0.replacingOccurrences(of: "assets.search.css", with: "assets.site.css")
        }
        let removedAsset = try project.buildAndCompare("an asset removed")
        #expect(removedAsset.written?.removed == 2)

        try project.folder.write("Content/.notes", "not an entry")
        let hidden = try project.buildAndCompare("a hidden file in the content folder")
        #expect(hidden.written?.written == 0 && hidden.rendered == 0)

        try project.edit("Content/loquat.md") { $0 + "\nStill a draft.\n" }
        let draftText = try project.buildAndCompare("a draft's text")
        #expect(draftText.written?.written == 0 && draftText.rendered == 0)

        try project.folder.write(
            "fruitsite.yml", "title: Fruits of the World\nrawHTML: true\n")
        var configured = project
        configured.options.configPath = project.folder.path + "/fruitsite.yml"
        try configured.buildAndCompare("config change")

        var drafts = configured
        drafts.options.includeDrafts = true
        let withDrafts = try drafts.buildAndCompare("drafts included")
        #expect(withDrafts.notes.contains { $0.contains("drafts") })
    }

    /// With 5 fruits a page, every listing of the sample has pages: after each edit, and as
    /// the catalog grows and shrinks by whole pages, a rebuild writes what a clean build
    /// writes, and removes the pages a listing no longer has. The builds compared render and
    /// stage three pages at a time, and keep a few bodies in memory from the parse (the others
    /// go to a scratch file); the clean builds they are compared with render all at once and
    /// keep every body.
    @Test(arguments: [false, true])
    func matchesACleanBuildWithPagesAfterEveryKindOfEdit(settled: Bool) throws {
        var project = try Project(settled: settled)
        defer { project.folder.remove() }
        project.batchLimit.pages = 3
        project.batchLimit.fruits = 7
        project.detailsBudget = 5_000
        try project.folder.write("fruitsite.yml", "pageSize: 5\n")
        project.options.configPath = project.folder.path + "/fruitsite.yml"
        let output = project.folder.path + "/Output/"
        func exists(_ path: String) -> Bool {
            FileManager.default.fileExists(atPath: output + path)
        }
        let first = try project.buildAndCompare("first build")
        #expect(exists("page/10/index.html") && !exists("page/11/index.html"))
        #expect(exists("categories/berries/page/2/index.html"))

        // Kiwi keeps its place: its neighbours' pages, the search index, and the ten index
        // pages, which name it. Its own page and its cards show its picture, not its emoji.
        try project.edit("Content/kiwi.md") { $0.replacingOccurrences(of: "🥝", with: "🥑") }
        let emoji = try project.buildAndCompare("emoji")
        #expect(emoji.written?.written == 13, "\(String(describing: emoji.written))")

        try project.edit("Content/kiwi.md") {
            $0.replacingOccurrences(of: "name: Kiwi", with: "name: Zebra Kiwi")
        }
        try project.buildAndCompare("name: the fruit moves to the last page")

        // Four fruits at the front: every index page shifts, and an eleventh appears.
        for name in ["Aa", "Ab", "Ac", "Ad"] {
            try project.folder.write(
                "Content/\(name.lowercased()).md",
                "---\nname: \(name)\ncategory: Berries\n---\nNew.\n")
        }
        let grown = try project.buildAndCompare("four fruits added at the front")
        #expect(
            grown.fruitCount == first.fruitCount + 4 && grown.htmlPageCount > first.htmlPageCount)
        #expect(exists("page/11/index.html") && exists("categories/berries/page/3/index.html"))

        for name in ["aa", "ab", "ac", "ad", "apple", "apricot"] {
            try FileManager.default.removeItem(
                atPath: project.folder.path + "/Content/\(name).md")
        }
        let shrunk = try project.buildAndCompare("six fruits removed: the index has a page less")
        #expect(!exists("page/11/index.html") && !exists("page/10/index.html"))
        #expect(!exists("categories/berries/page/3/index.html"))
        #expect((shrunk.written?.removed ?? 0) >= 8, "\(String(describing: shrunk.written))")

        try project.edit("Content/cherry.md") {
            $0.replacingOccurrences(of: "category: Stone Fruits", with: "category: Berries")
        }
        try project.buildAndCompare("category")

        try project.folder.write("fruitsite.yml", "pageSize: 0\n")
        try project.buildAndCompare("one page")
        #expect(!exists("page") && !exists("categories/berries/page"))

        try project.folder.write("fruitsite.yml", "pageSize: 3\n")
        try project.buildAndCompare("three a page")
        #expect(exists("page/2/index.html"))
    }

    /// A lower `maxEntrySize` or `maxPageSize` holds every entry and page to it at once, as a
    /// clean build does, not only those read or rendered again: the build starts clean.
    @Test func otherSizeLimitsMakeACleanBuild() throws {
        var project = try Project(settled: true)
        defer { project.folder.remove() }
        project.options.configPath = project.folder.path + "/fruitsite.yml"
        try project.folder.write("fruitsite.yml", "title: Fruits\n")
        try project.build()
        #expect(try project.build().parsed == 0)
        let index = try project.folder.read("Output/index.html")
        // About half the sample entries are larger than 836 bytes; every page is larger
        // than 2,000.
        for limit in ["maxEntrySize: 836", "maxPageSize: 2000"] {
            try project.folder.write("fruitsite.yml", "title: Fruits\n\(limit)\n")
            let failure = #expect(throws: BuildFailure.self, "\(limit)") { try project.build() }
            var clean = project
            clean.options.outputDirectory = project.folder.path + "/Clean"
            clean.options.cacheDirectory = nil
            let cleanFailure = #expect(throws: BuildFailure.self) { try clean.build() }
            let errors = failure?.diagnostics.filter(\.isError).map(\.description)
            #expect(errors == cleanFailure?.diagnostics.filter(\.isError).map(\.description))
            #expect((errors?.count ?? 0) > 1, "\(limit)")
            #expect(try project.folder.read("Output/index.html") == index)
        }
        // Raised again, the build is clean once more and then incremental.
        try project.folder.write("fruitsite.yml", "title: Fruits\nmaxPageSize: 4MB\n")
        #expect(
            try project.build().notesButPictures == [
                "building clean: the saved model was built with another maxEntrySize or "
                    + "maxPageSize"
            ])
        #expect(try project.build().parsed == 0)
    }

    /// With the sharded search index, a rebuild writes the shards a clean build writes after
    /// each edit, and switching the index's kind either way leaves no file of the other.
    @Test(arguments: [false, true])
    func matchesACleanBuildWithAShardedSearchAfterEveryKindOfEdit(settled: Bool) throws {
        var project = try Project(settled: settled)
        defer { project.folder.remove() }
        try project.folder.write("fruitsite.yml", "search: {index: sharded}\n")
        project.options.configPath = project.folder.path + "/fruitsite.yml"
        let output = project.folder.path + "/Output/"
        /// Whether the output has `path`, or a file of that name stamped with its bytes.
        func exists(_ path: String) -> Bool {
            let folder = (output + path as NSString).deletingLastPathComponent
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let name = (path as NSString).lastPathComponent
            return names.contains { ContentName.unstamped($0) == name }
        }
        try project.buildAndCompare("first build")
        #expect(exists("search/index.json") && exists("search/records/1.json"))
        #expect(!exists("search-index.json"))
        let index = try String(contentsOfFile: output + "index.html", encoding: .utf8)
        #expect(index.contains(#"data-index="search/index.json""#))

        let nothing = try project.buildAndCompare("no change")
        #expect(nothing.written?.written == 0 && nothing.rendered == 0)

        try project.edit("Content/apple.md") { $0 + "\nOne more paragraph.\n" }
        let body = try project.buildAndCompare("body text")
        #expect(body.written?.written == 1, "the index does not show bodies")

        try project.edit("Content/kiwi.md") { $0.replacingOccurrences(of: "🥝", with: "🥑") }
        let emoji = try project.buildAndCompare("emoji")
        #expect((emoji.written?.written ?? 0) > 1, "a record changed")

        try project.edit("Content/kiwi.md") {
            $0.replacingOccurrences(of: "name: Kiwi", with: "name: Zebra Kiwi")
        }
        try project.buildAndCompare("name: the fruit moves")
        try project.edit("Content/kiwi.md") {
            $0.replacingOccurrences(of: "category: Grapes & Vines", with: "category: Berries")
        }
        try project.buildAndCompare("category")
        try project.folder.write(
            "Content/zucchini.md",
            "---\nname: Zucchini\ncategory: Melons\nvitamins: [Q]\n---\nA fruit, botanically.\n")
        try project.buildAndCompare("add a file with a new vitamin")
        try FileManager.default.removeItem(atPath: project.folder.path + "/Content/apple.md")
        try project.buildAndCompare("delete a file")

        try project.folder.write("fruitsite.yml", "search: {index: single}\n")
        try project.buildAndCompare("single")
        #expect(exists("search-index.json") && !exists("search"))
        try project.folder.write("fruitsite.yml", "search: {index: sharded}\n")
        try project.buildAndCompare("sharded again")
        #expect(!exists("search-index.json") && exists("search/index.json"))
    }

    /// With dates and a base URL the site has feeds: a rebuild writes the feeds a clean build
    /// writes after each edit that changes which fruits they list or what those fruits say,
    /// and removes them when the site no longer has them.
    @Test(arguments: [false, true])
    func matchesACleanBuildWithFeedsAfterEveryKindOfEdit(settled: Bool) throws {
        var project = try Project(settled: settled)
        defer { project.folder.remove() }
        try project.folder.write(
            "fruitsite.yml", "baseURL: https://example.org/\npageSize: 10\nfeed: {limit: 3}\n")
        project.options.configPath = project.folder.path + "/fruitsite.yml"
        func date(_ file: String, _ date: String) throws {
            try project.edit("Content/\(file).md") {
                $0.replacing(/\ndate: .*/, with: "").replacing(
                    "\ncategory:", with: "\ndate: \(date)\ncategory:")
            }
        }
        func feedTitles(_ path: String = "feed.json") throws -> [String] {
            let data = try #require(
                FileManager.default.contents(atPath: project.folder.path + "/Output/" + path))
            let feed = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return (feed["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        }
        for (file, day) in [
            ("apple", "2024-01-01"), ("kiwi", "2024-02-01"), ("banana", "2024-03-01"),
            ("cherry", "2023-12-01"),
        ] {
            try date(file, day)
        }
        try project.buildAndCompare("first build")
        #expect(try feedTitles() == ["Banana", "Kiwi", "Apple"])

        try project.edit("Content/kiwi.md") { $0 + "\nOne more paragraph.\n" }
        let body = try project.buildAndCompare("the body of a fruit in the feeds")
        #expect(body.written?.written == 5, "its page, the site's feeds and its category's")

        try date("mango", "2024-04-01T08:00:00+02:00")
        try project.buildAndCompare("a newer fruit enters the feeds")
        #expect(try feedTitles() == ["Mango", "Banana", "Kiwi"])
        #expect(try feedTitles("categories/tropical-fruits/feed.json") == ["Mango", "Banana"])

        try date("cherry", "2025-01-01 10:00:00")
        try project.buildAndCompare("a date changes")
        try project.edit("Content/kiwi.md") {
            $0.replacingOccurrences(of: "name: Kiwi", with: "name: Zebra Kiwi")
        }
        try project.buildAndCompare("a name in the feeds")
        try FileManager.default.removeItem(atPath: project.folder.path + "/Content/banana.md")
        try project.buildAndCompare("a fruit in the feeds is deleted")
        try project.edit("Content/mango.md") {
            $0.replacingOccurrences(of: "category: Tropical Fruits", with: "category: Berries")
        }
        try project.buildAndCompare("a fruit in the feeds changes category")
        #expect(try feedTitles("categories/berries/feed.json") == ["Mango"])

        try project.folder.write(
            "fruitsite.yml", "baseURL: https://example.org/\nfeed: {limit: 1}\n")
        try project.buildAndCompare("the feed limit")
        #expect(try feedTitles() == ["Cherry"])

        try project.folder.write("fruitsite.yml", "pageSize: 10\n")
        let unbased = try project.buildAndCompare("no base URL: no feeds")
        #expect(unbased.warnings.contains { $0.message.contains("baseURL") })
        #expect(!FileManager.default.fileExists(atPath: project.folder.path + "/Output/feed.xml"))

        try project.folder.write("fruitsite.yml", "baseURL: https://example.org/\n")
        try project.buildAndCompare("the feeds come back")
        for file in ["apple", "kiwi", "cherry", "mango"] {
            try project.edit("Content/\(file).md") { $0.replacing(/\ndate: .*/, with: "") }
        }
        try project.buildAndCompare("no dates left: no feeds")
        #expect(
            !FileManager.default.fileExists(
                atPath: project.folder.path + "/Output/categories/berries/feed.json"))
    }

    /// The sitemap names pages by absolute URL: without a base URL the site has none and the
    /// build says why, once; a base URL that comes writes it as a clean build does, one that
    /// goes removes it, and `sitemap: false` keeps it away and the warning with it. The
    /// `Sitemap:` line of robots.txt follows.
    @Test func theSitemapComesAndGoesWithTheBaseURL() throws {
        let project = try Project(settled: true)
        defer { project.folder.remove() }
        func step(_ config: String, _ name: String) throws -> SiteBuilder.Rendering {
            try project.folder.write("fruitsite.yml", config)
            return try project.buildAndCompare(name)
        }
        func sitemapWarnings(_ build: SiteBuilder.Rendering) -> [String] {
            build.warnings.map(\.description).filter { $0.contains("sitemap") }
        }
        func robots() throws -> String { try project.folder.read("Output/robots.txt") }
        let sitemap = project.folder.path + "/Output/sitemap.xml"
        let warning =
            project.folder.path + "/Content: warning: the sitemap is written only with a "
            + "baseURL\n  hint: a sitemap needs absolute URLs: set baseURL in the config, such "
            + "as 'https://example.org/'; 'sitemap: false' silences this"

        let unbased = try step("title: Fruits\n", "no base URL")
        #expect(!FileManager.default.fileExists(atPath: sitemap))
        #expect(try robots() == "User-agent: *\nAllow: /\n")
        #expect(sitemapWarnings(unbased) == [warning])
        let again = try project.buildAndCompare("no change")
        #expect(sitemapWarnings(again) == [warning])

        let based = try step("title: Fruits\nbaseURL: https://example.org/shop/\n", "a base URL")
        #expect(FileManager.default.fileExists(atPath: sitemap))
        #expect(try robots().hasSuffix("Sitemap: https://example.org/shop/sitemap.xml\n"))
        #expect(sitemapWarnings(based).isEmpty)

        let gone = try step("title: Fruits\n", "the base URL goes")
        #expect(!FileManager.default.fileExists(atPath: sitemap))
        #expect(gone.written?.removed == 1)
        #expect(try !robots().contains("Sitemap:"))

        let off = try step("title: Fruits\nsitemap: false\n", "no sitemap, no base URL")
        #expect(sitemapWarnings(off).isEmpty)
        let offBased = try step(
            "title: Fruits\nbaseURL: https://example.org/shop/\nsitemap: false\n",
            "no sitemap, a base URL")
        #expect(!FileManager.default.fileExists(atPath: sitemap))
        #expect(try !robots().contains("Sitemap:"))
        #expect(sitemapWarnings(offBased).isEmpty)
    }

    /// A warning is repeated by every build until its file is fixed, not only by the build
    /// that parsed the file.
    @Test func warningsAreRepeatedUntilFixed() throws {
        let project = try Project(settled: true)
        defer { project.folder.remove() }
        try project.edit("Content/apple.md") {
            $0.replacingOccurrences(
                of: "---\n", with: "---\ncatgory: x\n", options: [], range: $0.range(of: "---\n"))
        }
        for step in ["first build", "no change", "another file changed"] {
            if step == "another file changed" {
                try project.edit("Content/kiwi.md") { $0 + "\nMore.\n" }
            }
            let build = try project.buildAndCompare(step)
            #expect(
                build.warnings.map(\.description) == [
                    project.folder.path
                        + "/Content/apple.md:2:1: warning: unknown key 'catgory' is passed to "
                        + "templates as fruit.params.catgory\n  hint: did you mean 'category'?"
                ], "\(step)")
        }
    }

    /// A copy of a content file moved to another folder keeps its slug and its page.
    @Test func aFileMovedToAnotherFolderKeepsItsPage() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        try FileManager.default.createDirectory(
            atPath: project.folder.path + "/Content/citrus", withIntermediateDirectories: true)
        // Apricot names no picture, which would stay behind.
        try project.move("Content/apricot.md", "Content/citrus/apricot.md")
        let moved = try project.buildAndCompare("moved into a folder")
        #expect(moved.written?.removed == 0 && moved.written?.written == 0)
    }

    /// Two files with one slug fail the build, and the site stays as it was.
    @Test func aDuplicateSlugFailsTheRebuild() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        try FileManager.default.createDirectory(
            atPath: project.folder.path + "/Content/more", withIntermediateDirectories: true)
        // Apricot names no picture, which the copy would not find beside it.
        try FileManager.default.copyItem(
            atPath: project.folder.path + "/Content/apricot.md",
            toPath: project.folder.path + "/Content/more/apricot.md")
        let failure = #expect(throws: BuildFailure.self) { try project.build() }
        #expect(
            failure?.diagnostics.contains {
                $0.location.path.hasSuffix("more/apricot.md")
                    && $0.message.hasPrefix("duplicate slug 'apricot'")
            } == true)
        try FileManager.default.removeItem(
            atPath: project.folder.path + "/Content/more/apricot.md")
        try project.buildAndCompare("the copy removed")
    }

    /// Categories whose names differ only in what their URL slug drops collide.
    @Test func collidingCategoriesFailTheBuild() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        try project.edit("Content/kiwi.md") {
            $0.replacingOccurrences(of: "Grapes & Vines", with: "Grapes and Vines")
        }
        try project.edit("Content/grape.md") {
            $0.replacingOccurrences(of: "Grapes & Vines", with: "Grapes-Vines")
        }
        let failure = #expect(throws: BuildFailure.self) { try project.build() }
        #expect(
            failure?.diagnostics.contains {
                $0.message.contains("both have the URL slug 'grapes-vines'")
            } == true)
    }

    /// Another content folder built into the same output, with the same cache, is read.
    @Test func anotherContentFolderIsRead() throws {
        var project = try Project(settled: true)
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        try FileManager.default.copyItem(
            atPath: project.folder.path + "/Content", toPath: project.folder.path + "/Other")
        try project.edit("Other/apple.md") { $0 + "\nFrom the other folder.\n" }
        project.options.contentDirectory = project.folder.path + "/Other"
        try project.buildAndCompare("another content folder")
        #expect(
            try project.folder.read("Output/fruits/apple/index.html")
                .contains("From the other folder."))
    }

    /// The content folder spelled otherwise (`./Content/`) is the same folder: its model is
    /// used, and its files keep their paths.
    @Test func theContentFolderSpelledOtherwiseIsTheSame() throws {
        var project = try Project(settled: true)
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        let given = project.options.contentDirectory
        for spelling in [given + "/", given + "//./", given + "/."] {
            project.options.contentDirectory = spelling
            #expect(project.options.contentDirectory == given)
            try project.edit("Content/apple.md") { $0 + "\nSpelled \(spelling).\n" }
            let rebuilt = try project.buildAndCompare("content folder given as \(spelling)")
            #expect(rebuilt.written?.isWholeFolder == false, "\(spelling)")
            #expect(rebuilt.notes.isEmpty, "\(spelling): \(rebuilt.notes)")
        }
        var options = BuildOptions()
        for (spelling, tidied) in [
            ("./Content", "Content"), ("/srv//site/./Content/", "/srv/site/Content"),
            (".", "."), ("./", "."), ("/", "/"), ("../Content", "../Content"),
        ] {
            options.contentDirectory = spelling
            options.templatesDirectory = spelling
            options.outputDirectory = spelling
            #expect(options.contentDirectory == tidied, "\(spelling)")
            #expect(options.templatesDirectory == tidied, "\(spelling)")
            #expect(options.outputDirectory == tidied, "\(spelling)")
        }
    }

    /// A saved model whose bytes were damaged is not used: the build starts afresh. Its
    /// first byte damaged, it no longer names itself a model: that is damage too.
    @Test(arguments: [0.0, 0.1, 0.5, 0.9])
    func aDamagedModelMakesACleanBuild(at fraction: Double) throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        try Self.changeSavedModel(of: project) { bytes in
            bytes[Int(Double(bytes.count) * fraction)] ^= 0x20
        }
        try project.edit("Content/apple.md") { $0 + "\nChanged.\n" }
        let rebuilt = try project.buildAndCompare("after damage")
        #expect(rebuilt.written?.isWholeFolder == true)
        #expect(rebuilt.notesButPictures == ["building clean: the saved model is damaged"])
    }

    /// A model another fruitsite saved is told apart from a damaged one.
    @Test func aModelOfAnotherFruitsiteMakesACleanBuildThatSaysSo() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        try Self.changeSavedModel(of: project) { bytes in
            // The format's version, after "fruitsite-model ".
            let version = try #require(bytes.firstIndex(of: UInt8(ascii: " "))) + 1
            bytes[version] = UInt8(ascii: "0")
        }
        let rebuilt = try project.buildAndCompare("after another fruitsite's model")
        #expect(
            rebuilt.notesButPictures == [
                "building clean: the saved model was written by another fruitsite"
            ])

        // This fruitsite's model of another output folder, copied over this one's.
        try Self.changeSavedModel(of: project) { bytes in
            let text = try #require(String(data: bytes, encoding: .isoLatin1))
            let other = text.replacingOccurrences(of: "/Output\n", with: "/Elsewhere\n")
            bytes = try #require(other.data(using: .isoLatin1))
        }
        let elsewhere = try project.buildAndCompare("after another output folder's model")
        #expect(
            elsewhere.notesButPictures == [
                "building clean: the saved model names another output folder (it was copied, or "
                    + "is damaged)"
            ])
    }

    /// Rewrites the model file the last build of `project` saved, changed by `change`.
    private static func changeSavedModel(
        of project: Project, _ change: (inout Data) throws -> Void
    ) throws {
        let cache = project.folder.path + "/.cache"
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: cache).first {
                $0.hasSuffix(".model")
            })
        var bytes = try #require(FileManager.default.contents(atPath: cache + "/" + name))
        try change(&bytes)
        try bytes.write(to: URL(fileURLWithPath: cache + "/" + name))
    }

    @Test func cleanRestoresAPageRemovedByHand() throws {
        var project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        try FileManager.default.removeItem(
            atPath: project.folder.path + "/Output/fruits/apple/index.html")
        project.options.clean = true
        let rebuilt = try project.buildAndCompare("after removing a page")
        #expect(rebuilt.written?.isWholeFolder == true)
        #expect(rebuilt.notesButPictures == ["building clean: --clean was given"])
    }

    /// `cp -p`, `touch -r` and archive tools set a file's modification time back; its
    /// change time still moves, and the file is read again.
    /// `search` loads the catalog from the model a build saved, reading only the
    /// files changed since, and find what parsing every file finds; with drafts, for which
    /// no build saved a model, every file is read.
    @Test func theCatalogIsLoadedFromTheSavedModel() throws {
        let project = try Project(settled: true)
        defer { project.folder.remove() }
        try project.build()
        try project.edit("Content/apple.md") {
            $0.replacingOccurrences(of: "name: Apple", with: "name: Zesty Apple")
        }
        let reads = EntryReads()
        func load(cached: Bool, drafts: Bool = false) -> ([String], reads: Int) {
            var options = project.options
            if !cached { options.cacheDirectory = nil }
            options.includeDrafts = drafts
            var builder = SiteBuilder(options: options, fileSystem: reads.fileSystem)
            builder.now = project.now
            reads.reset()
            let names =
                builder.loadCatalog(config: builder.loadConfig().config)
                .catalog?.fruits.map(\.name) ?? []
            return (names, reads.count)
        }
        let files = try FileManager.default.contentsOfDirectory(
            atPath: project.folder.path + "/Content"
        ).count { $0.hasSuffix(".md") }
        let (cached, cachedReads) = load(cached: true)
        let (parsed, parsedReads) = load(cached: false)
        #expect(cachedReads == 1)
        #expect(parsedReads == files)
        #expect(cached == parsed)
        #expect(cached.last == "Zesty Apple")
        // A model built without drafts serves a search with them: it holds every entry.
        let (withDrafts, draftReads) = load(cached: true, drafts: true)
        #expect(draftReads == 1)
        #expect(withDrafts == load(cached: false, drafts: true).0)
        #expect(withDrafts.count > cached.count)
    }

    /// `fruitsite new` checks an entry against every other, drafts too: read from the saved
    /// model whichever drafts setting built it, with only the files changed since.
    @Test func everyEntryIsLoadedFromTheSavedModelOfEitherDraftsSetting() throws {
        var project = try Project(settled: true)
        defer { project.folder.remove() }
        let reads = EntryReads()
        func load(cached: Bool) -> ([String], reads: Int) {
            var options = project.options
            if !cached { options.cacheDirectory = nil }
            var builder = SiteBuilder(options: options, fileSystem: reads.fileSystem)
            builder.now = project.now
            reads.reset()
            let slugs = builder.loadEntries(config: builder.loadConfig().config).entries?
                .map(\.fruit.slug).sorted()
            return (slugs ?? [], reads.count)
        }
        let files = try FileManager.default.contentsOfDirectory(
            atPath: project.folder.path + "/Content"
        ).count { $0.hasSuffix(".md") }
        let (parsed, parsedReads) = load(cached: false)
        #expect(parsedReads == files)
        #expect(parsed.count == files)
        for drafts in [false, true] {
            project.options.includeDrafts = drafts
            try project.build()
            try project.edit("Content/apple.md") { $0 + "\nOne more line.\n" }
            let (cached, cachedReads) = load(cached: true)
            #expect(cachedReads == 1, "drafts: \(drafts)")
            #expect(cached == parsed, "drafts: \(drafts)")
        }
    }

    @Test func seesAnEditThatKeepsTheSizeAndTheModificationTime() throws {
        let project = try Project(settled: true)
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        let path = project.folder.path + "/Content/apple.md"
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate]
        try project.edit("Content/apple.md") {
            $0.replacingOccurrences(of: "name: Apple", with: "name: Apfel")
        }
        try FileManager.default.setAttributes([.modificationDate: modified!], ofItemAtPath: path)
        let rebuilt = try project.buildAndCompare("same size, same modification time")
        #expect(rebuilt.parsed >= 1)
        #expect(try project.folder.read("Output/fruits/apple/index.html").contains("Apfel"))
    }

    /// A file whose status still matches the cache but whose bytes changed by the time its
    /// page needs its body would mix two versions of the entry into one site.
    @Test func aFileChangedDuringTheBuildIsAnError() throws {
        var project = try Project(settled: true)
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        let apple = project.folder.path + "/Content/apple.md"
        let frozen = FileStatus.of(apple)
        project.fileSystem.statuses = { paths in
            paths.map { $0 == apple ? frozen : FileStatus.of($0) }
        }
        try project.edit("Content/apple.md") { $0 + "\nWritten while building.\n" }
        try project.edit("Templates/fruit.mustache") { $0 + "\n" }
        let failure = #expect(throws: BuildFailure.self) { try project.build() }
        #expect(
            failure?.diagnostics.map(\.description).contains {
                $0.contains("apple.md") && $0.contains("the file changed during the build")
            } == true)
        // `serve` waits for the edit's own event rather than show this.
        #expect(failure?.isOnlyFilesChangedMeanwhile == true)
        try project.folder.write("Content/broken.md", "---\nname: [\n---\n")
        let other = #expect(throws: BuildFailure.self) { try project.build() }
        #expect(other?.isOnlyFilesChangedMeanwhile == false)
    }

    /// The marker names the model the folder matches; a build cut short leaves it naming
    /// another, and the next build is a clean one.
    @Test func aMarkerThatNamesAnotherModelMakesACleanBuild() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        let marker = project.folder.path + "/Output/.fruitsite-output"
        let text = try String(contentsOfFile: marker, encoding: .utf8)
        let other = text.replacingOccurrences(
            of: #"model=[0-9a-f]+"#, with: "model=1234", options: .regularExpression)
        #expect(other != text)
        try Data(other.utf8).write(to: URL(fileURLWithPath: marker))
        let rebuilt = try project.buildAndCompare("after a build cut short")
        #expect(rebuilt.written?.isWholeFolder == true)
        #expect(rebuilt.notes.first?.contains("not written by the build") == true)
    }

    @Test func refusesACacheFolderInsideTheOutput() throws {
        var project = try Project()
        defer { project.folder.remove() }
        project.options.cacheDirectory = project.folder.path + "/Output/.cache"
        let failure = #expect(throws: BuildFailure.self) { try project.build() }
        #expect(failure?.description.contains("must not be inside the output folder") == true)
        // Nor in the spare copy, which becomes the output folder.
        project.options.cacheDirectory = project.folder.path + "/.Output.fruitsite-spare"
        let spare = #expect(throws: BuildFailure.self) { try project.build() }
        #expect(spare?.description.contains("inside the output folder's spare copy") == true)
    }

    @Test func aFailedIncrementalBuildChangesNothing() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        let before = filesBelow(project.folder.path + "/Output").map {
            FileManager.default.contents(atPath: project.folder.path + "/Output/" + $0)
        }
        try project.edit("Content/apple.md") { $0 + "\nChanged.\n" }
        try project.folder.write("Content/broken.md", "---\nname: Broken\n---\n")
        #expect(throws: BuildFailure.self) { try project.build() }
        let after = filesBelow(project.folder.path + "/Output").map {
            FileManager.default.contents(atPath: project.folder.path + "/Output/" + $0)
        }
        #expect(before == after)
    }

    /// An asset that becomes a folder of the same name, and back: what the old site had
    /// there goes before what takes its name arrives.
    @Test func anAssetFileBecomesAFolderAndBack() throws {
        let project = try Project()
        defer { project.folder.remove() }
        let fonts = project.folder.path + "/Templates/assets/fonts"
        try project.folder.write("Templates/assets/fonts", "a file")
        try project.buildAndCompare("a file")
        try FileManager.default.removeItem(atPath: fonts)
        try project.folder.write("Templates/assets/fonts/x.css", "b {}")
        try project.buildAndCompare("a folder")
        try FileManager.default.removeItem(atPath: fonts)
        try project.folder.write("Templates/assets/fonts", "a file again")
        try project.buildAndCompare("a file again")
        try project.buildAndCompare("nothing changed")
    }

    /// A page that fails in a late batch, after earlier batches were staged, fails the whole
    /// build: the output is as it was, and nothing staged is left beside it.
    @Test(arguments: [false, true])
    func aPageFailingInALateBatchChangesNothing(clean: Bool) throws {
        var project = try Project()
        defer { project.folder.remove() }
        project.batchLimit.pages = 2
        try project.buildAndCompare("first build")
        let output = project.folder.path + "/Output"
        func contents() -> [Data?] {
            filesBelow(output).map { FileManager.default.contents(atPath: output + "/" + $0) }
        }
        let before = contents()
        // Watermelon's page comes last; its body alone outgrows the page size limit.
        try project.folder.write("fruitsite.yml", "maxPageSize: 64KB\n")
        project.options.configPath = project.folder.path + "/fruitsite.yml"
        project.options.clean = clean
        try project.edit("Content/watermelon.md") {
            $0 + "\n" + String(repeating: "Sweet and red. ", count: 5_000) + "\n"
        }
        let failure = #expect(throws: BuildFailure.self) { try project.build() }
        #expect(failure?.description.contains("grew past") == true)
        #expect(contents() == before)
        let beside = try FileManager.default.contentsOfDirectory(atPath: project.folder.path)
        #expect(!beside.contains { $0.contains(".fruitsite-tmp-") }, "\(beside)")
    }
}

extension SiteBuilder.Rendering {
    /// The notes but the picture stage's count, which every clean build of the sample has
    /// (`PicturePublisher`).
    var notesButPictures: [String] { notes.filter { !$0.hasPrefix("pictures: ") } }
}
