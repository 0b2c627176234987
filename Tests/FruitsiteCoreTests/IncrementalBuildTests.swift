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

        init() throws {
            folder = try TemporaryDirectory()
            let manager = FileManager.default
            for name in ["Content", "Templates"] {
                try manager.copyItem(
                    atPath: repositoryRoot + "/" + name, toPath: folder.path + "/" + name)
            }
            options.contentDirectory = folder.path + "/Content"
            options.templatesDirectory = folder.path + "/Templates"
            options.outputDirectory = folder.path + "/Output"
        }

        /// Builds into `Output` (incrementally when it holds a build), then cleanly into
        /// `Clean`, and expects the two folders to hold the same files with the same bytes.
        @discardableResult
        func buildAndCompare(_ step: String) throws -> OutputWriter.Summary? {
            let incremental = try SiteBuilder(options: options).build()
            var clean = options
            clean.outputDirectory = folder.path + "/Clean"
            clean.clean = true
            _ = try SiteBuilder(options: clean).build()
            let files = filesBelow(folder.path + "/Output")
            #expect(files == filesBelow(folder.path + "/Clean"), "\(step): different files")
            for file in files {
                let a = FileManager.default.contents(atPath: folder.path + "/Output/" + file)
                let b = FileManager.default.contents(atPath: folder.path + "/Clean/" + file)
                #expect(a == b, "\(step): \(file) differs from a clean build")
            }
            return incremental.written
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

    @Test func matchesACleanBuildAcrossEdits() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")

        let nothing = try project.buildAndCompare("no change")
        #expect(nothing?.written == 0 && nothing?.removed == 0)

        try project.edit("Content/apple.md") { $0 + "\nOne more paragraph.\n" }
        let body = try project.buildAndCompare("body edit")
        #expect(body?.written == 1, "only the apple page changes")

        try project.edit("Content/kiwi.md") {
            $0.replacingOccurrences(of: "name: Kiwi", with: "name: Kiwifruit")
        }
        try project.buildAndCompare("rename a fruit")

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
        #expect((removedCategory?.removed ?? 0) >= 1)
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
        try project.buildAndCompare("template change")

        try project.edit("Templates/assets/site.css") { $0 + "\n/* changed */\n" }
        let asset = try project.buildAndCompare("asset change")
        #expect(asset?.written == 1)

        var drafts = project
        drafts.options.includeDrafts = true
        try drafts.buildAndCompare("drafts included")
    }

    @Test func restoresAFileRemovedFromTheOutput() throws {
        let project = try Project()
        defer { project.folder.remove() }
        try project.buildAndCompare("first build")
        try FileManager.default.removeItem(
            atPath: project.folder.path + "/Output/fruits/apple/index.html")
        let written = try project.buildAndCompare("after removing a page")
        #expect(written?.written == 1)
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
        #expect(throws: BuildFailure.self) { try SiteBuilder(options: project.options).build() }
        let after = filesBelow(project.folder.path + "/Output").map {
            FileManager.default.contents(atPath: project.folder.path + "/Output/" + $0)
        }
        #expect(before == after)
    }
}
