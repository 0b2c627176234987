import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// An incremental build must write exactly what a clean build writes, whatever changed.
@Suite struct IncrementalBuildTests {
    /// A copy of the sample content and theme in a temporary folder, built into `Output`.
    struct Project {
        let folder: TemporaryDirectory
        var options = BuildOptions()
        var fileSystem = FileSystem.local

        /// - Parameter settled: Files report times an hour old, so their status is trusted
        ///   at once; else every file just written is read again (see `racyWindow`).
        init(settled: Bool = false) throws {
            folder = try TemporaryDirectory()
            let manager = FileManager.default
            for name in ["Content", "Templates"] {
                try manager.copyItem(
                    atPath: repositoryRoot + "/" + name, toPath: folder.path + "/" + name)
            }
            options.contentDirectory = folder.path + "/Content"
            options.templatesDirectory = folder.path + "/Templates"
            options.outputDirectory = folder.path + "/Output"
            options.cacheDirectory = folder.path + "/.cache"
            if settled { fileSystem.status = Self.anHourAgo }
        }

        /// The file's status with both times an hour earlier.
        @Sendable static func anHourAgo(_ path: String) -> FileStatus? {
            guard var status = FileStatus.of(path) else { return nil }
            status.modified -= 3_600_000_000_000
            status.changed -= 3_600_000_000_000
            return status
        }

        func build() throws -> SiteBuilder.Rendering {
            try SiteBuilder(options: options, fileSystem: fileSystem).build()
        }

        /// Builds into `Output` (incrementally when it holds a build), then cleanly into
        /// `Clean`, and expects the two folders to hold the same files with the same bytes,
        /// the markers included: equal markers mean equal manifests.
        @discardableResult
        func buildAndCompare(_ step: String) throws -> SiteBuilder.Rendering {
            let incremental = try build()
            var clean = options
            clean.outputDirectory = folder.path + "/Clean"
            clean.cacheDirectory = folder.path + "/.clean-cache"
            clean.clean = true
            _ = try SiteBuilder(options: clean).build()
            let files = filesBelow(folder.path + "/Output")
            #expect(files == filesBelow(folder.path + "/Clean"), "\(step): different files")
            for file in files {
                let a = FileManager.default.contents(atPath: folder.path + "/Output/" + file)
                let b = FileManager.default.contents(atPath: folder.path + "/Clean/" + file)
                #expect(a == b, "\(step): \(file) differs from a clean build")
            }
            return incremental
        }

        func edit(_ path: String, _ change: (String) -> String) throws {
            let full = folder.path + "/" + path
            let text = try String(contentsOfFile: full, encoding: .utf8)
            try Data(change(text).utf8).write(to: URL(fileURLWithPath: full))
        }

        func move(_ from: String, _ to: String) throws {
            try FileManager.default.moveItem(
                atPath: folder.path + "/" + from, toPath: folder.path + "/" + to)
        }
    }

    /// Both ways a rebuild knows a file is unchanged: by its status, or, for files changed
    /// too recently to trust it, by its bytes.
    @Test(arguments: [true, false])
    func matchesACleanBuildAcrossEdits(settled: Bool) throws {
        let project = try Project(settled: settled)
        defer { project.folder.remove() }
        let first = try project.buildAndCompare("first build")
        let entries = first.parsed

        let nothing = try project.buildAndCompare("no change")
        #expect(nothing.written?.written == 0 && nothing.written?.removed == 0)
        #expect(nothing.parsed == 0, "every entry comes from the cache")
        #expect(nothing.catalog == nil, "a steady rebuild: no catalog is made")

        try project.edit("Content/apple.md") { $0 + "\nOne more paragraph.\n" }
        let body = try project.buildAndCompare("body edit")
        #expect(body.written?.written == 1, "only the apple page changes")
        #expect(body.parsed == 1, "only the apple entry is parsed")
        #expect(body.catalog == nil, "a body edit leaves the catalog as it was")

        try project.edit("Content/kiwi.md") {
            $0.replacingOccurrences(of: "name: Kiwi", with: "name: Kiwifruit")
        }
        let renamed = try project.buildAndCompare("rename a fruit")
        #expect(renamed.catalog != nil, "a new name can move the fruit: the catalog is made")

        try project.folder.write(
            "Content/zucchini.md",
            "---\nname: Zucchini\ncategory: Squashes\n---\nA fruit, botanically.\n")
        try project.buildAndCompare("add an entry and a category")

        try FileManager.default.removeItem(atPath: project.folder.path + "/Content/banana.md")
        try project.buildAndCompare("delete an entry")

        try project.move("Content/zucchini.md", "Content/courgette.md")
        try project.buildAndCompare("rename a file (slug)")

        try project.edit("Content/courgette.md") {
            $0.replacingOccurrences(of: "Squashes", with: "Berries")
        }
        let removedCategory = try project.buildAndCompare("move the only fruit of a category")
        #expect((removedCategory.written?.removed ?? 0) >= 1)
        #expect(
            !FileManager.default.fileExists(
                atPath: project.folder.path + "/Output/categories/squashes"))

        for file in ["grape", "kiwi", "passion-fruit"] {
            try project.edit("Content/\(file).md") {
                $0.replacingOccurrences(of: "Grapes & Vines", with: "Vines")
            }
        }
        try project.buildAndCompare("rename a category")

        try project.edit("Templates/fruit.mustache") {
            $0.replacingOccurrences(of: "Category", with: "Group")
        }
        let template = try project.buildAndCompare("template change")
        #expect(template.parsed == entries - 1, "every fruit page needs its body; not the draft")

        try project.edit("Templates/assets/site.css") { $0 + "\n/* changed */\n" }
        let asset = try project.buildAndCompare("asset change")
        #expect(asset.written?.written == 1)

        try project.folder.write(
            "fruitsite.yml", "title: Fruits of the World\nrawHTML: true\n")
        var configured = project
        configured.options.configPath = project.folder.path + "/fruitsite.yml"
        try configured.buildAndCompare("config change")

        var drafts = project
        drafts.options.includeDrafts = true
        try drafts.buildAndCompare("drafts included")
    }

    /// Edits that keep every summary leave the catalog as it was: the rebuild stays steady
    /// (no catalog is made) and still writes what a clean build writes.
    @Test func steadyRebuildsMatchACleanBuild() throws {
        let project = try Project(settled: true)
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")

        try project.folder.write("Content/.notes", "not an entry")
        let hidden = try project.buildAndCompare("a hidden file in the content folder")
        #expect(hidden.catalog == nil && hidden.written?.written == 0)

        try project.edit("Content/loquat.md") { $0 + "\nStill a draft.\n" }
        let draft = try project.buildAndCompare("a draft's text")
        #expect(draft.catalog == nil && draft.written?.written == 0)

        try project.edit("Content/banana.md") { $0 + "\nRipe.\n" }
        try project.edit("Content/cherry.md") { $0 + "\nSour.\n" }
        let two = try project.buildAndCompare("two entries' text")
        #expect(two.catalog == nil && two.written?.written == 2)

        try project.edit("Templates/assets/site.css") { $0 + "\n/* steady */\n" }
        let asset = try project.buildAndCompare("an asset")
        #expect(asset.catalog == nil && asset.written?.written == 1)

        try project.edit("Content/banana.md") {
            $0.replacingOccurrences(of: "category: Tropical Fruits", with: "category: Berries")
        }
        let summary = try project.buildAndCompare("an entry's summary")
        #expect(summary.catalog != nil, "a changed summary needs the catalog")
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

    /// A rebuild that patches the cache clears the manifest's id first: should it stop
    /// there, the manifest names no output and the next build is a clean one.
    @Test func aManifestWithoutItsIdMakesACleanBuild() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        let cache = project.folder.path + "/.cache"
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: cache).first {
                $0.hasSuffix(".manifest")
            })
        var bytes = try #require(FileManager.default.contents(atPath: cache + "/" + name))
        let header = try #require(bytes.firstIndex(of: UInt8(ascii: "\n")))
        bytes.replaceSubrange((header + 1)..<(header + 9), with: [UInt8](repeating: 0, count: 8))
        try bytes.write(to: URL(fileURLWithPath: cache + "/" + name))
        let rebuilt = try project.buildAndCompare("after a rebuild cut short")
        #expect(rebuilt.written?.isWholeFolder == true)
    }

    @Test func cleanRestoresAPageRemovedByHand() throws {
        var project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        try FileManager.default.removeItem(
            atPath: project.folder.path + "/Output/fruits/apple/index.html")
        project.options.clean = true
        let rebuilt = try project.buildAndCompare("after removing a page")
        #expect(rebuilt.written?.written == rebuilt.pages.count)
    }

    /// `cp -p`, `touch -r` and archive tools set a file's modification time back; its
    /// change time still moves, and the file is read again.
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
        let frozen = Project.anHourAgo(apple)
        project.fileSystem.status = { path in
            path == apple ? frozen : Project.anHourAgo(path)
        }
        try project.edit("Content/apple.md") { $0 + "\nWritten while building.\n" }
        try project.edit("Templates/fruit.mustache") { $0 + "\n" }
        let failure = #expect(throws: BuildFailure.self) { try project.build() }
        #expect(
            failure?.diagnostics.map(\.description).contains {
                $0.contains("apple.md") && $0.contains("the file changed during the build")
            } == true)
    }

    /// The marker names the manifest the folder matches; a build cut short leaves it naming
    /// another, and the next build is a clean one.
    @Test func aMarkerThatNamesAnotherManifestMakesACleanBuild() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        let marker = project.folder.path + "/Output/.fruitsite-output"
        let text = try String(contentsOfFile: marker, encoding: .utf8)
        let other = text.replacingOccurrences(
            of: #"manifest=[0-9a-f]+"#, with: "manifest=1234", options: .regularExpression)
        #expect(other != text)
        try Data(other.utf8).write(to: URL(fileURLWithPath: marker))
        let rebuilt = try project.buildAndCompare("after a build cut short")
        #expect(rebuilt.written?.written == rebuilt.pages.count)
    }

    @Test func refusesACacheFolderInsideTheOutput() throws {
        var project = try Project()
        defer { project.folder.remove() }
        project.options.cacheDirectory = project.folder.path + "/Output/.cache"
        let failure = #expect(throws: BuildFailure.self) { try project.build() }
        #expect(failure?.description.contains("must not be inside the output folder") == true)
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
}
