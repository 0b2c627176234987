import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// Whole builds: the bundled sample and the fixture sites under `Tests/Fixtures/Sites/`.
@Suite struct SiteBuildTests {
    static func options(site: String, output: String) -> BuildOptions {
        var options = BuildOptions()
        options.contentDirectory = site + "/Content"
        options.templatesDirectory = repositoryRoot + "/Templates"
        options.outputDirectory = output
        let config = site + "/fruitsite.yml"
        options.configPath = FileManager.default.fileExists(atPath: config) ? config : nil
        return options
    }

    /// The default theme's totals read as English: "1 fruit in 1 category", else plurals.
    @Test(arguments: [(1, "1 fruit in 1 category"), (2, "2 fruits in 2 categories")])
    func theTotalsAreSingularForOne(count: Int, expected: String) throws {
        let entries = (0..<count).map { ("f\($0)", "name: F\($0)\ncategory: C\($0)") }
        let (folder, options) = try temporarySite(config: "", entries: entries)
        defer { folder.remove() }
        _ = try SiteBuilder(options: options).build()
        let index = try folder.read("Output/index.html")
        #expect(index.contains(expected + ". Built with fruitsite."), "\(index)")
        #expect(index.contains(#"role="status" aria-live="polite">\#(expected)</p>"#))
    }

    /// The sample in each of its languages: English at the root, French in `fr/`, each with a
    /// page per fruit and category, its own search index, theme and 404 page, and every
    /// English entry translated.
    @Test func buildsEveryPageOfTheSample() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let builder = SiteBuilder(
            options: Self.options(site: repositoryRoot, output: temporary.path + "/Output"))
        let rendering = try builder.build()
        let files = filesBelow(temporary.path + "/Output")
        let config = builder.loadConfig().config
        var catalogs: [Catalog] = []
        for (language, folder) in [(nil, ""), ("fr", "fr/")] as [(String?, String)] {
            let part = try #require(config.part(inLanguage: language))
            let catalog = try #require(builder.loadCatalog(config: part).catalog)
            catalogs.append(catalog)
            #expect(catalog.fruits.count >= 40)
            #expect(catalog.categories.count >= 8)
            for fruit in catalog.fruits {
                #expect(files.contains(folder + "fruits/\(fruit.slug)/index.html"))
            }
            for category in catalog.categories {
                #expect(files.contains(folder + "categories/\(category.slug)/index.html"))
            }
            for file in [
                "index.html", "404.html", "search-index.json", "assets/site.css",
                "assets/favicon.svg",
            ] {
                // The search index by its name stamped with its bytes.
                #expect(
                    files.contains { ContentName.unstamped($0) == folder + file },
                    "\(folder)\(file)")
            }
            #expect(!catalog.fruits.contains { $0.isDraft }, "drafts are left out")
        }
        let (english, french) = (catalogs[0], catalogs[1])
        // Every English entry translated: no French page shows one in place of its
        // translation, which would ask search engines not to index it.
        #expect(french.fruits.count == english.fruits.count)
        for fruit in french.fruits {
            let page = try temporary.read("Output/fr/fruits/\(fruit.slug)/index.html")
            #expect(!page.contains(#"<meta name="robots" content="noindex">"#), "\(fruit.slug)")
        }
        #expect(french.categories.count == english.categories.count)
        #expect(rendering.fruitCount == english.fruits.count + french.fruits.count)
        for file in ["robots.txt", ".fruitsite-output"] {
            #expect(files.contains(file))
        }
        // The sample has no base URL, so that it works on any host: so no sitemap, whose
        // addresses would need one.
        #expect(!files.contains { $0.hasSuffix("sitemap.xml") })
    }

    @Test func twoBuildsAreByteIdentical() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        for name in ["first", "second"] {
            _ = try SiteBuilder(
                options: Self.options(site: repositoryRoot, output: temporary.path + "/" + name)
            ).build()
        }
        let first = filesBelow(temporary.path + "/first")
        #expect(first == filesBelow(temporary.path + "/second"))
        for file in first {
            let a = FileManager.default.contents(atPath: temporary.path + "/first/" + file)
            let b = FileManager.default.contents(atPath: temporary.path + "/second/" + file)
            #expect(a == b, "\(file) differs between two builds")
        }
    }

    @Test func everyLinkResolvesToAFileInTheOutput() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        _ = try SiteBuilder(options: Self.options(site: repositoryRoot, output: output)).build()
        let files = try filesBelow(output).map { file in
            RenderedPage(
                path: file,
                bytes: Array(try Data(contentsOf: URL(fileURLWithPath: output + "/" + file))))
        }
        let links = files.filter { $0.path.hasSuffix(".html") }.map {
            HTMLAttributes.scan($0.bytes).links.count
        }
        #expect(links.reduce(0, +) > 500)
        let broken = LinkChecker(files: files, basePath: "/").brokenLinks()
        #expect(broken.isEmpty, "\(broken)")
    }

    // MARK: - Golden files

    @Test(arguments: [
        "index.html", "fruits/apple/index.html", "fruits/blood-orange/index.html",
        "fruits/cherry/index.html", "categories/citrus/index.html", "404.html",
        "vitamins/c/index.html", "search-index.json", "sitemap.xml", "robots.txt",
        "categories/index.html", "vitamins/index.html", "fruits/index.html",
    ])
    func matchesGoldenFile(_ page: String) throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let site = repositoryRoot + "/Tests/Fixtures/Sites/basic"
        _ = try SiteBuilder(options: Self.options(site: site, output: temporary.path + "/Output"))
            .build()
        // A file named by its bytes is compared under its own name.
        let path = try #require(
            filesBelow(temporary.path + "/Output").first { ContentName.unstamped($0) == page })
        let actual = try temporary.read("Output/" + path)
        try Golden.assertMatches(
            actual, name: "basic-" + page.replacingOccurrences(of: "/", with: "-"))
    }

    /// The `paged` fixture: 13 fruits, `pageSize: 2`, so the index has seven pages and a
    /// category three.
    @Test(arguments: [
        "index.html", "page/2/index.html", "page/7/index.html",
        "categories/berries/page/2/index.html", "vitamins/c/page/2/index.html",
        "page/index.html", "categories/berries/page/index.html",
    ])
    func matchesPagedGoldenFile(_ page: String) throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let site = repositoryRoot + "/Tests/Fixtures/Sites/paged"
        _ = try SiteBuilder(options: Self.options(site: site, output: temporary.path + "/Output"))
            .build()
        let actual = try temporary.read("Output/" + page)
        try Golden.assertMatches(
            actual, name: "paged-" + page.replacingOccurrences(of: "/", with: "-"))
    }

    /// Every page of every listing is written, and no page beyond the last; every folder of
    /// their addresses has a page too.
    @Test func writesEveryPageOfEveryListing() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let site = repositoryRoot + "/Tests/Fixtures/Sites/paged"
        let rendering = try SiteBuilder(
            options: Self.options(site: site, output: temporary.path + "/Output")
        ).build()
        let listings = filesBelow(temporary.path + "/Output").filter {
            $0.hasSuffix("index.html") && !$0.hasPrefix("fruits/") || $0 == "fruits/index.html"
        }
        #expect(
            listings.sorted() == [
                "categories/berries/index.html", "categories/berries/page/2/index.html",
                "categories/berries/page/3/index.html", "categories/berries/page/index.html",
                "categories/core-fruits/index.html", "categories/core-fruits/page/2/index.html",
                "categories/core-fruits/page/3/index.html",
                "categories/core-fruits/page/index.html", "categories/index.html",
                "categories/stone-fruits/index.html", "fruits/index.html", "index.html",
                "page/2/index.html", "page/3/index.html", "page/4/index.html",
                "page/5/index.html", "page/6/index.html", "page/7/index.html",
                "page/index.html", "vitamins/a/index.html", "vitamins/c/index.html",
                "vitamins/c/page/2/index.html", "vitamins/c/page/3/index.html",
                "vitamins/c/page/4/index.html", "vitamins/c/page/index.html",
                "vitamins/e/index.html", "vitamins/index.html", "vitamins/k/index.html",
            ])
        // 13 fruits, 14 listing pages, 7 pages of vitamins, the 404 page, the categories' and
        // the vitamins' pages, and 5 folders that lead on: fruits/ and 4 listings' page/.
        #expect(rendering.htmlPageCount == 42)
    }

    /// Past the budget of bodies kept in memory from the parse, details go to a scratch file
    /// and come back for their pages; when the file cannot be made, the entry's file is read
    /// and parsed again, which `--verbose` says. The site is the same every way.
    @Test func bodiesPastTheBudgetComeBackFromAScratchFileOrAreParsedAgain() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        final class Reads: @unchecked Sendable {
            let lock = NSLock()
            var count: [String: Int] = [:]
        }
        let reads = Reads()
        var counting = FileSystem.local
        counting.read = { path, limit in
            reads.lock.withLock { reads.count[path, default: 0] += 1 }
            return try FileSystem.local.read(path, limit)
        }
        var sites: [[String: Data]] = []
        let ways = [
            (budget: SiteBuilder(options: BuildOptions()).detailsBudget, scratch: temporary.path),
            (0, temporary.path), (0, temporary.path + "/no-such-folder"),
        ]
        for (index, (budget, scratch)) in ways.enumerated() {
            let output = temporary.path + "/Output-\(index)"
            var builder = SiteBuilder(
                options: Self.options(site: repositoryRoot, output: output), fileSystem: counting)
            builder.detailsBudget = budget
            builder.scratchDirectory = scratch
            reads.lock.withLock { reads.count = [:] }
            let rendering = try builder.build()
            let entries = reads.lock.withLock { reads.count.filter { $0.key.hasSuffix(".md") } }
            // Parsed again: every fruit's file, but no draft's, which has no page.
            let readTwice = entries.values.count { $0 == 2 }
            #expect(entries.count > rendering.fruitCount && rendering.fruitCount > 40)
            #expect(
                readTwice == (index == 2 ? rendering.fruitCount : 0)
                    && entries.values.allSatisfy { $0 <= 2 }, "way \(index): \(entries)")
            let failed = rendering.notes.filter { $0.contains("could not be kept") }
            if index == 2 {
                // Every parsed entry of each language, drafts too: none could be kept.
                let french = entries.keys.count { $0.hasSuffix(".fr.md") }
                #expect(
                    failed
                        == [("en", entries.count - french), ("fr", french)].map {
                            "\($0): the details of \($1) parsed entries could not be kept in a "
                                + "scratch file in \(scratch) (No such file or directory): their "
                                + "pages parsed their files again"
                        }, "\(rendering.notes)")
            } else {
                #expect(failed.isEmpty, "way \(index): \(rendering.notes)")
            }
            var files: [String: Data] = [:]
            for file in filesBelow(output) {
                files[file] = FileManager.default.contents(atPath: output + "/" + file)
            }
            sites.append(files)
        }
        #expect(sites[0] == sites[1] && sites[0] == sites[2])
        // The scratch file was unlinked as soon as it was made.
        #expect(!filesBelow(temporary.path).contains { $0.contains(".fruitsite-details") })
    }

    @Test func includesDraftsWhenAsked() throws {
        var options = Self.options(
            site: repositoryRoot + "/Tests/Fixtures/Sites/basic", output: "/unused")
        options.includeDrafts = true
        let builder = SiteBuilder(options: options)
        let catalog = builder.loadCatalog(config: builder.loadConfig().config).catalog
        #expect(catalog?.fruits.map(\.slug).contains("draft-fruit") == true)
        #expect(try builder.check().fruitCount == catalog?.fruits.count)
    }

    // MARK: - Invalid sites

    @Test func reportsEveryContentAndTemplateErrorTogether() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        try temporary.write("Content/a.md", "---\nname: A\n---\n")
        try temporary.write("Content/b.md", "---\nname: [B]\ncategory: X\n---\n")
        try temporary.write("Content/sub/a.md", "---\nname: A2\ncategory: X\n---\n")
        try temporary.write("Templates/index.mustache", "{{#fruits}}\n{{name}}\n")
        try temporary.write("Templates/fruit.mustache", "{{> missing}}")
        try temporary.write("Templates/category.mustache", "ok")
        try temporary.write("Templates/404.mustache", "ok")
        var options = BuildOptions()
        options.contentDirectory = temporary.path + "/Content"
        options.templatesDirectory = temporary.path + "/Templates"
        options.outputDirectory = temporary.path + "/Output"
        #expect(throws: BuildFailure.self) { try SiteBuilder(options: options).build() }
        do {
            _ = try SiteBuilder(options: options).build()
        } catch {
            let text = error.diagnostics.map(\.description)
            let root = temporary.path
            #expect(
                text.contains {
                    $0.hasPrefix("\(root)/Content/a.md:1:1: error: missing required key 'category'")
                }, "\(text)")
            #expect(
                text.contains {
                    $0.hasPrefix("\(root)/Content/b.md:2:7: error: 'name' must be a string")
                }, "\(text)")
            #expect(
                text.contains {
                    $0.hasPrefix(
                        "\(root)/Templates/index.mustache:3:1: error: unclosed section 'fruits' (opened at 1:1)"
                    )
                }, "\(text)")
            #expect(
                text.contains {
                    $0.hasPrefix(
                        "\(root)/Templates/fruit.mustache:1:1: error: unknown partial 'missing'")
                }, "\(text)")
        }
        #expect(!FileManager.default.fileExists(atPath: temporary.path + "/Output"))
    }

    /// A config error does not hide the content's and the theme's: all are found together,
    /// and nothing is written.
    @Test func reportsTheConfigsErrorsWithTheContentsAndTheThemes() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("fruitsite.yml", "titel: Mine\n")
        try folder.write("Content/a.md", "---\nname: A\n---\n")
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Templates", toPath: folder.path + "/Templates")
        try folder.write("Templates/fruit.mustache", "{{#fruit}}\n")
        var options = Self.options(site: folder.path, output: folder.path + "/Output")
        options.templatesDirectory = folder.path + "/Templates"
        options.cacheDirectory = folder.path + "/.cache"
        do throws(BuildFailure) {
            _ = try SiteBuilder(options: options).build()
            Issue.record("a build with errors succeeded")
        } catch {
            let errors = error.diagnostics.filter(\.isError).map(\.location.path)
            #expect(
                errors == [
                    folder.path + "/Content/a.md", folder.path + "/Templates/fruit.mustache",
                    folder.path + "/fruitsite.yml",
                ], "\(error.diagnostics)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Output"))
    }
}

/// Symbolic links in the content folder are followed only when they stay inside it.
@Suite struct SymbolicLinkTests {
    @Test func followsLinksInsideTheContentFolderOnly() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        try temporary.write("Content/real/apple.md", "---\nname: Apple\ncategory: Core\n---\n")
        try temporary.write("Elsewhere/secret.md", "---\nname: Secret\ncategory: Core\n---\n")
        let manager = FileManager.default
        try manager.createSymbolicLink(
            atPath: temporary.path + "/Content/inside",
            withDestinationPath: temporary.path + "/Content/real")
        try manager.createSymbolicLink(
            atPath: temporary.path + "/Content/outside.md",
            withDestinationPath: temporary.path + "/Elsewhere/secret.md")
        try manager.createSymbolicLink(
            atPath: temporary.path + "/Content/outside-folder",
            withDestinationPath: temporary.path + "/Elsewhere")

        let loaded = ContentScanner(
            contentDirectory: temporary.path + "/Content", fileSystem: .local,
            parser: FruitParser(), now: 0
        ).list()
        let paths = loaded.paths.map { String($0.dropFirst(temporary.path.count)) }
        #expect(paths.sorted() == ["/Content/inside/apple.md", "/Content/real/apple.md"])
        let warnings = loaded.diagnostics.map(\.description)
        #expect(warnings.count == 2)
        #expect(
            warnings.allSatisfy {
                $0.contains("symbolic link not followed: it points outside the content folder")
            })
        #expect(
            warnings.contains { $0.hasPrefix(temporary.path + "/Content/outside.md: warning:") })
    }
}

/// Large inputs build (the 50 MB and 100,000-entry cases are run by hand; see
/// docs/reference/errors.md).
@Suite struct LargeInputTests {
    @Test func buildsAnEntryWithAFiveMegabyteBody() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let paragraph = "A *long* paragraph about [fruit](https://example.org) & more.\n\n"
        let body = String(repeating: paragraph, count: 5_000_000 / paragraph.utf8.count)
        try temporary.write("Content/big.md", "---\nname: Big\ncategory: Large\n---\n" + body)
        var options = BuildOptions()
        options.contentDirectory = temporary.path + "/Content"
        options.templatesDirectory = repositoryRoot + "/Templates"
        options.outputDirectory = temporary.path + "/Output"
        _ = try SiteBuilder(options: options).build()
        let page = try temporary.read("Output/fruits/big/index.html")
        #expect(page.utf8.count > 5_000_000)
        #expect(page.contains("<em>long</em>"))
    }
}
