import Foundation
import FruitsiteCore
import TestSupport
import Testing

@Suite struct OutputWriterTests {
    static let pages = [
        RenderedPage(path: "index.html", text: "new"),
        RenderedPage(path: "fruits/apple/index.html", text: "apple"),
    ]

    @Test func replacesItsOwnOutputWhole() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        let writer = OutputWriter(
            outputDirectory: output, protectedDirectories: [temporary.path + "/Content"])
        try writer.write([RenderedPage(path: "stale.html", text: "old")])
        try writer.write(Self.pages)
        #expect(
            filesBelow(output) == [".fruitsite-output", "fruits/apple/index.html", "index.html"])
        #expect(try temporary.read("Output/index.html") == "new")
        // Nothing is left beside the output folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == ["Output"])
    }

    @Test func refusesAFolderItDidNotCreate() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        try temporary.write("Output/notes.txt", "mine")
        let writer = OutputWriter(
            outputDirectory: temporary.path + "/Output", protectedDirectories: [])
        #expect(throws: BuildFailure.self) { try writer.write(Self.pages) }
        #expect(try temporary.read("Output/notes.txt") == "mine")

        let forced = OutputWriter(
            outputDirectory: temporary.path + "/Output", protectedDirectories: [], force: true)
        try forced.write(Self.pages)
        #expect(try temporary.read("Output/index.html") == "new")
    }

    @Test func refusesDangerousFolders() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let content = temporary.path + "/site/Content"
        try FileManager.default.createDirectory(atPath: content, withIntermediateDirectories: true)
        for output in [
            "/", NSHomeDirectory(), content, temporary.path + "/site", temporary.path,
            content + "/out",
        ] {
            let writer = OutputWriter(
                outputDirectory: output, protectedDirectories: [temporary.path + "/site"],
                sourceDirectories: [content])
            #expect(throws: BuildFailure.self, "\(output)") { try writer.validate() }
        }
    }

    @Test func cleansUpWhatAnInterruptedBuildLeft() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        try temporary.write("Output/.fruitsite-output", "")
        try temporary.write(".Output.fruitsite-tmp-999999/.fruitsite-output", "")
        try temporary.write(".Output.fruitsite-tmp-999999/index.html", "half")
        try OutputWriter(outputDirectory: temporary.path + "/Output", protectedDirectories: [])
            .write(Self.pages)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == ["Output"])
    }

    @Test func restoresTheSiteIfABuildDiedBetweenItsRenames() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        try temporary.write(".Output.fruitsite-old-999999/.fruitsite-output", "")
        try temporary.write(".Output.fruitsite-old-999999/index.html", "previous")
        let writer = OutputWriter(
            outputDirectory: temporary.path + "/Output", protectedDirectories: [])
        try writer.write(Self.pages)
        #expect(try temporary.read("Output/index.html") == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == ["Output"])
    }

    @Test func aFailedBuildLeavesThePreviousOutputAsItWas() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        var options = SiteBuildTests.options(
            site: repositoryRoot, output: temporary.path + "/Output")
        _ = try SiteBuilder(options: options).build()
        let before = filesBelow(temporary.path + "/Output")
        let index = try temporary.read("Output/index.html")
        try temporary.write("Content/broken.md", "---\nname: Broken\n")
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Content/apple.md",
            toPath: temporary.path + "/Content/apple.md")
        options.contentDirectory = temporary.path + "/Content"
        #expect(throws: BuildFailure.self) { try SiteBuilder(options: options).build() }
        #expect(filesBelow(temporary.path + "/Output") == before)
        #expect(try temporary.read("Output/index.html") == index)
    }
}
