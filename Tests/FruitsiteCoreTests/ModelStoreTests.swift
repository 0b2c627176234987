import Foundation
@testable import FruitsiteCore
import TestSupport
import Testing

/// How the model is kept between builds: a build that changed little writes its changes
/// beside the model file, which stays as it was; many changes write the model whole again.
@Suite struct ModelStoreTests {
    @Test func fewChangesAreSavedBesideTheModelAndManyWriteItWhole() throws {
        let project = try IncrementalBuildTests.Project(settled: true)
        defer { project.folder.remove() }
        let manager = FileManager.default
        let (content, cache) = (project.folder.path + "/Content", project.folder.path + "/.cache")
        func cacheFile(_ suffix: String) -> String? {
            ((try? manager.contentsOfDirectory(atPath: cache)) ?? [])
                .first { $0.hasSuffix(suffix) }.map { cache + "/" + $0 }
        }
        /// Builds and compares with a clean build, and expects the saved model to be used.
        func build(_ step: String) throws {
            let rendering = try project.buildAndCompare(step)
            #expect(rendering.notes.isEmpty, "\(step): \(rendering.notes)")
        }

        try project.buildAndCompare("first build")
        let modelPath = try #require(cacheFile(".model"))
        #expect(cacheFile(".changes") == nil)
        let whole = try FileSystemBytes.read(modelPath)

        // A changed, an added and a removed entry: the model file stays as it was.
        try project.edit("Content/apple.md") { $0 + "\nMore.\n" }
        try build("a body edit")
        try project.folder.write(
            "Content/bluebarry.md", "---\nname: Bluebarry\ncategory: Berries\n---\nNew.\n")
        try build("an added fruit")
        try manager.removeItem(atPath: content + "/banana.md")
        try build("a removed fruit")
        #expect(try FileSystemBytes.read(modelPath) == whole)
        let changesPath = try #require(cacheFile(".changes"))
        let changes = try FileSystemBytes.read(changesPath)

        // Every entry changed: the model is written whole, and the changes go.
        for name in try manager.contentsOfDirectory(atPath: content) where name.hasSuffix(".md") {
            try project.edit("Content/" + name) { $0 + "\nRevised.\n" }
        }
        try build("every entry edited")
        #expect(cacheFile(".changes") == nil)
        #expect(try FileSystemBytes.read(modelPath) != whole)

        // Changes made for the model file as it was before are not applied to it: the build
        // starts clean, says why, and leaves no changes file.
        try Data(changes).write(to: URL(fileURLWithPath: changesPath))
        try project.edit("Content/apple.md") { $0 + "\nMore again.\n" }
        let stale = try project.buildAndCompare("stale changes beside the model")
        #expect(
            stale.notesButPictures == [
                "building clean: the saved model's changes file was made for another model file"
            ])
        #expect(cacheFile(".changes") == nil)
        try build("nothing changed")
    }

    /// `search` and `new` read the saved model wherever the cache folder is: a build refuses
    /// to write one, which holds drafts, into a published folder, but reading publishes
    /// nothing.
    @Test func theCatalogIsReadFromACacheFolderABuildRefuses() throws {
        var project = try IncrementalBuildTests.Project(settled: true)
        defer { project.folder.remove() }
        try project.build()
        let inside = project.options.contentDirectory + "/.cache"
        try FileManager.default.moveItem(
            atPath: try #require(project.options.cacheDirectory), toPath: inside)
        project.options.cacheDirectory = inside
        let refused = #expect(throws: BuildFailure.self) { try project.build() }
        #expect(refused?.description.contains("inside the content folder") == true)

        let reads = EntryReads()
        var builder = SiteBuilder(options: project.options, fileSystem: reads.fileSystem)
        builder.now = project.now
        let catalog = builder.loadCatalog(config: builder.loadConfig().config).catalog
        #expect(catalog?.fruits.isEmpty == false)
        // Nothing changed since the build: no entry was parsed.
        #expect(reads.count == 0)
    }

    /// Search postings that cannot be read, in a model whose checksum holds, are made again
    /// from the names, and `--verbose` says so: the site is what a clean build writes.
    @Test func damagedSearchPostingsAreMadeAgainAndSaidSo() throws {
        let project = try IncrementalBuildTests.Project(settled: true)
        defer { project.folder.remove() }
        try project.folder.write(
            "fruitsite.yml", "baseURL: https://example.org/\nsearch: {index: sharded}\n")
        try project.buildAndCompare("first build")
        let output = OutputWriter.absolute(project.options.outputDirectory)
        let store = ModelStore(
            directory: try #require(project.options.cacheDirectory), output: output)
        let id = try #require(OutputWriter.markerID(in: output))
        let saved = try store.load(
            markerID: id,
            settings: SiteModel.Settings(
                contentDirectory: project.options.contentDirectory, includesDrafts: false,
                facets: SiteConfig().facets, maximumEntrySize: SiteConfig.defaultMaximumEntrySize,
                maximumPageSize: SiteConfig.defaultMaximumPageSize)
        ).get()
        var model = try #require(saved.model())
        let grams = try #require(model.searchGrams)
        model.searchGrams = SearchShards.Grams(
            source: grams.source, buckets: grams.buckets, heavy: grams.heavy,
            saved: ByteSlice(copying: [0xFF, 0xFF]))
        try store.save(model, id: id, report: saved.head.report)

        // A new name moves the names, whose postings are then needed.
        try project.edit("Content/apple.md") {
            $0.replacingOccurrences(of: "name: Apple", with: "name: Zesty Apple")
        }
        let rebuilt = try project.buildAndCompare("after the postings' damage")
        #expect(
            rebuilt.notesButPictures == [
                "the saved model's search postings were damaged: they were made again from the "
                    + "fruits' names"
            ])
        try project.edit("Content/apple.md") {
            $0.replacingOccurrences(of: "name: Zesty Apple", with: "name: Apple")
        }
        #expect(try project.buildAndCompare("once made again").notes.isEmpty)
    }

    /// A build that finds nothing changed since the one that saved the model, neither the
    /// content nor the config nor the theme, reports what that one reported, warnings
    /// included, without decoding the model, and writes neither the cache nor the output.
    /// An edit to the config or the theme that changes no page writes no page, but saves
    /// the model with its report, so that the build after it finds nothing changed again.
    @Test func aBuildThatFindsNothingChangedReportsTheLastOne() throws {
        let project = try IncrementalBuildTests.Project(settled: true)
        defer { project.folder.remove() }
        let cache = project.folder.path + "/.cache"
        /// Each file of the cache and of the output with its status, which any write changes.
        func statuses() throws -> [String: FileStatus?] {
            var statuses: [String: FileStatus?] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: cache) {
                statuses[name] = FileStatus.of(cache + "/" + name)
            }
            for path in filesBelow(project.folder.path + "/Output") {
                statuses[path] = FileStatus.of(project.folder.path + "/Output/" + path)
            }
            return statuses
        }
        /// Builds with nothing changed, and expects the report of `last` and nothing written.
        func expectUnchanged(since last: SiteBuilder.Rendering, _ step: String) throws {
            let before = try statuses()
            let again = try project.buildAndCompare(step)
            let isSaved = if case .saved = again.models.first { true } else { false }
            #expect(isSaved, "\(step): the model was decoded")
            #expect(again.warnings == last.warnings, "\(step)")
            let counts = [\SiteBuilder.Rendering.htmlPageCount, \.fruitCount, \.categoryCount]
            #expect(counts.map { again[keyPath: $0] } == counts.map { last[keyPath: $0] })
            #expect(again.parsed == 0 && again.rendered == 0 && again.written?.written == 0)
            #expect(try statuses() == before, "\(step): a file was written")
        }
        try project.edit("Content/apple.md") {
            $0.replacingOccurrences(
                of: "---\n", with: "---\ncatgory: x\n", options: [], range: $0.range(of: "---\n"))
        }
        let first = try project.buildAndCompare("first build")
        #expect(first.warnings.count == 1)
        try expectUnchanged(since: first, "nothing changed")

        for (step, path, change) in [
            ("a comment in the config", "fruitsite.yml", "# A comment.\n"),
            ("a comment in a template", "Templates/404.mustache", "{{! A comment. }}"),
        ] {
            try project.edit(path) { $0 + change }
            let changed = try project.buildAndCompare(step)
            let isDecoded = if case .decoded = changed.models.first { true } else { false }
            #expect(isDecoded && changed.written?.written == 0, "\(step)")
            try expectUnchanged(since: changed, "nothing changed after \(step)")
        }
    }
}
