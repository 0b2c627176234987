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

    @Test func aRenameThatFailsUndoesTheOnesBefore() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        let writer = OutputWriter(outputDirectory: output, protectedDirectories: [])
        try writer.write(
            [
                RenderedPage(path: "a.html", text: "old a"),
                RenderedPage(path: "b/gone.html", text: "b"),
            ],
            id: 1)
        // A folder with a file in it where the build wants to put a file: that rename fails
        // after the one of a.html succeeded.
        try temporary.write("Output/c.html/blocker", "")
        let before = filesBelow(output)
        #expect(throws: BuildFailure.self) {
            try writer.write(
                [
                    RenderedPage(path: "a.html", text: "new a"),
                    RenderedPage(path: "d/new.html", text: "d"),
                    RenderedPage(path: "c.html", text: "c"),
                ],
                removing: ["b/gone.html"], isWhole: false, id: 2)
        }
        #expect(filesBelow(output) == before)
        #expect(try temporary.read("Output/a.html") == "old a")
        #expect(writer.markerID() == 1)
        #expect(!FileManager.default.fileExists(atPath: output + "/d"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == ["Output"])
    }

    @Test(arguments: [1, OutputWriter.wholeFolderThreshold + 1])
    func anIncrementalWriteGivesWhatItNames(changing count: Int) throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        let writer = OutputWriter(outputDirectory: output, protectedDirectories: [])
        let old = (0..<100).map { RenderedPage(path: "p/\($0)/index.html", text: "old \($0)") }
        try writer.write(old + [RenderedPage(path: "gone/index.html", text: "x")], id: 1)
        let changed = (0..<count).map {
            RenderedPage(path: "p/\($0)/index.html", text: "new \($0)")
        }
        let summary = try writer.write(
            changed, removing: ["gone/index.html"], isWhole: false, id: 2)
        #expect(summary.written == count && summary.removed == 1)
        #expect(filesBelow(output) == [".fruitsite-output"] + old.map(\.path).sorted())
        for index in 0..<100 {
            #expect(
                try temporary.read("Output/p/\(index)/index.html")
                    == (index < count ? "new" : "old") + " \(index)")
        }
        #expect(writer.markerID() == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == ["Output"])
    }

    /// Files staged over several `add`s, as a build hands them on a batch at a time, land as
    /// one write; a write with nothing to change makes not even a staging folder.
    @Test(arguments: [true, false])
    func stagesBatchesAndTouchesNothingWhenNothingChanges(isWhole: Bool) throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        let writer = OutputWriter(outputDirectory: output, protectedDirectories: [])
        try writer.write([RenderedPage(path: "a/index.html", text: "old")], id: 1)
        var staging = try writer.begin(isWhole: isWhole)
        for batch in 0..<3 {
            try staging.add(
                (0..<2).map { RenderedPage(path: "p/\(batch)-\($0)/index.html", text: "new") }
                    + (batch == 0 ? [RenderedPage(path: "a/index.html", text: "new")] : []))
            #expect(filesBelow(output).count == 2, "nothing changes before the commit")
        }
        let summary = try staging.commit(id: 2)
        #expect(summary.written == 7 && writer.markerID() == 2)
        #expect(try temporary.read("Output/a/index.html") == "new")
        #expect(filesBelow(output).count == 8)

        var unchanged = try writer.begin(isWhole: false)
        let before =
            try FileManager.default.attributesOfItem(atPath: temporary.path)[
                .modificationDate] as? Date
        let nothing = try unchanged.commit(id: 2)
        #expect(nothing.written == 0 && nothing.removed == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == ["Output"])
        #expect(
            try FileManager.default.attributesOfItem(atPath: temporary.path)[.modificationDate]
                as? Date == before)
    }

    @Test(arguments: [
        (1, 10, false), (64, 64, false), (65, 65, true), (65, 520, true), (65, 521, false),
        (1_250, 10_000, true), (1_249, 10_000, false),
    ])
    func swapsAWholeFolderOnlyForLargeChanges(_ changes: Int, _ siteFiles: Int, _ swaps: Bool) {
        #expect(OutputWriter.swapsWholeFolder(changing: changes, of: siteFiles) == swaps)
    }
}
