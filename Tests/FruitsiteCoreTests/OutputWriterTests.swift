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
        // Nothing is left beside the output folder but its spare copy.
        #expect(try Self.beside(output) == ["Output"])
        try Self.expectSpareMirrors(output)
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

    /// A folder is judged by where it really is: through symbolic links, and with `..`,
    /// whether or not its last names exist yet.
    @Test func judgesFoldersByWhereTheyLead() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let content = temporary.path + "/site/Content"
        try FileManager.default.createDirectory(atPath: content, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: temporary.path + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: temporary.path + "/to-content", withDestinationPath: content)
        try FileManager.default.createSymbolicLink(
            atPath: temporary.path + "/to-elsewhere", withDestinationPath: "elsewhere")
        func validate(_ output: String) throws {
            try OutputWriter(
                outputDirectory: output, protectedDirectories: [temporary.path + "/site"],
                sourceDirectories: [content]
            ).validate()
        }
        for output in [
            "to-content", "to-content/out", "to-content/new/deeper", "site/Content/../Content/out",
            "site/missing/../Content/out", "elsewhere/../site", "to-elsewhere/../site/Content/x",
        ] {
            #expect(throws: BuildFailure.self, "\(output)") {
                try validate(temporary.path + "/" + output)
            }
        }
        for output in ["to-elsewhere", "to-elsewhere/new", "site/../elsewhere/out", "site/./out"] {
            #expect(throws: Never.self, "\(output)") { try validate(temporary.path + "/" + output) }
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
        #expect(try Self.beside(temporary.path + "/Output") == ["Output"])
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
        #expect(try Self.beside(temporary.path + "/Output") == ["Output"])
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

    /// With a spare copy the failure comes before the swap; without one (a mount point),
    /// renames into the output folder are undone.
    @Test(arguments: [true, false])
    func aRenameThatFailsChangesNothing(keepsSpare: Bool) throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        let writer = OutputWriter(
            outputDirectory: output, protectedDirectories: [], keepsSpare: keepsSpare)
        try writer.write(
            [
                RenderedPage(path: "a.html", text: "old a"),
                RenderedPage(path: "b/gone.html", text: "b"),
            ],
            id: 1)
        // A folder with a file in it where the build wants to put a file: that rename fails
        // after the one of a.html succeeded.
        try temporary.write("Output/c.html/blocker", "")
        if keepsSpare { try temporary.write(".Output.fruitsite-spare/c.html/blocker", "") }
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
        #expect(try Self.beside(output) == ["Output"])
    }

    @Test(arguments: [1, 100], [true, false])
    func anIncrementalWriteGivesWhatItNames(changing count: Int, keepsSpare: Bool) throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        let writer = OutputWriter(
            outputDirectory: output, protectedDirectories: [], keepsSpare: keepsSpare)
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
        #expect(!FileManager.default.fileExists(atPath: output + "/gone"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
                == (keepsSpare ? [".Output.fruitsite-spare", "Output"] : ["Output"]))
        if keepsSpare { try Self.expectSpareMirrors(output) }
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
        #expect(try Self.beside(output) == ["Output"])
        #expect(
            try FileManager.default.attributesOfItem(atPath: temporary.path)[.modificationDate]
                as? Date == before)
    }

    /// After every kind of write the spare copy mirrors the output folder, whatever state
    /// it was left in; a spare that is not a copy of the site is made anew.
    @Test func theSpareMirrorsTheSiteAfterEveryWrite() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        let spare = temporary.path + "/.Output.fruitsite-spare"
        let writer = OutputWriter(outputDirectory: output, protectedDirectories: [])
        let site = (0..<5).map { RenderedPage(path: "fruits/\($0)/index.html", text: "\($0)") }
        try writer.write(site + [RenderedPage(path: "index.html", text: "all")], id: 1)
        try Self.expectSpareMirrors(output)

        // A change, a new page in a new folder, a removal that empties its folder.
        var summary = try writer.write(
            [
                RenderedPage(path: "index.html", text: "all, again"),
                RenderedPage(path: "fruits/new/index.html", text: "new"),
            ], removing: ["fruits/0/index.html"], isWhole: false, id: 2)
        #expect(!summary.madeSpare && summary.written == 2 && summary.removed == 1)
        #expect(try temporary.read("Output/index.html") == "all, again")
        #expect(!FileManager.default.fileExists(atPath: output + "/fruits/0"))
        try Self.expectSpareMirrors(output)

        // A spare left by a build killed mid-change, one killed just before its swap, and
        // one gone.
        let damages: [() throws -> Void] = [
            { try temporary.write(".Output.fruitsite-spare/.fruitsite-output", "") },
            {
                try temporary.write(
                    ".Output.fruitsite-spare/.fruitsite-output",
                    "This folder is written by `fruitsite build`, which may replace or remove any "
                        + "file in it.\nfruitsite-output model=99\n")
            },
            { try FileManager.default.removeItem(atPath: spare) },
        ]
        for (number, damage) in damages.enumerated() {
            try damage()
            let id = UInt64(3 + number)
            summary = try writer.write(
                [RenderedPage(path: "fruits/2/index.html", text: "edit \(id)")], isWhole: false,
                id: id)
            #expect(summary.madeSpare, "damage \(number)")
            #expect(try temporary.read("Output/fruits/2/index.html") == "edit \(id)")
            #expect(writer.markerID() == id)
            try Self.expectSpareMirrors(output)
        }

        // A clean build over it makes a new spare of the new site.
        try writer.write([RenderedPage(path: "index.html", text: "fresh")], id: 9)
        #expect(filesBelow(output) == [".fruitsite-output", "index.html"])
        try Self.expectSpareMirrors(output)
    }

    /// A link put in the spare's place is removed, never followed: what it names keeps its
    /// files, and the spare is made anew as a folder.
    @Test func aLinkInTheSparesPlaceIsNeverFollowed() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        let spare = temporary.path + "/.Output.fruitsite-spare"
        let writer = OutputWriter(outputDirectory: output, protectedDirectories: [])
        try writer.write(Self.pages, id: 1)
        try temporary.write("important/notes/todo.txt", "precious")
        try temporary.write(
            "important/.fruitsite-output",
            "This folder is written by `fruitsite build`, which may replace or remove any "
                + "file in it.\nfruitsite-output model=1\n")
        try FileManager.default.removeItem(atPath: spare)
        try FileManager.default.createSymbolicLink(
            atPath: spare, withDestinationPath: temporary.path + "/important")
        let summary = try writer.write(
            [RenderedPage(path: "index.html", text: "again")], isWhole: false, id: 2)
        #expect(summary.madeSpare)
        #expect(try temporary.read("important/notes/todo.txt") == "precious")
        let kind =
            try FileManager.default.attributesOfItem(atPath: spare)[.type] as? FileAttributeType
        #expect(kind == .typeDirectory)
        try Self.expectSpareMirrors(output)
        // A link named as a leftover is removed too, and what it names is kept.
        try FileManager.default.createSymbolicLink(
            atPath: temporary.path + "/.Output.fruitsite-retired-1",
            withDestinationPath: temporary.path + "/important")
        _ = writer.recover()
        #expect(
            !FileManager.default.fileExists(atPath: temporary.path + "/.Output.fruitsite-retired-1")
        )
        #expect(try temporary.read("important/notes/todo.txt") == "precious")
    }

    /// A link to nowhere in the output folder's place is refused before anything is done.
    @Test func refusesALinkToNowhere() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        try FileManager.default.createSymbolicLink(
            atPath: output, withDestinationPath: temporary.path + "/nowhere")
        let writer = OutputWriter(outputDirectory: output, protectedDirectories: [])
        let failure = #expect(throws: BuildFailure.self) { try writer.validate() }
        #expect(failure?.description.contains("a link to a place that does not exist") == true)
    }

    /// A folder above named `…-spare…` takes nothing from the spare's own name.
    @Test func aFolderAboveNamedSpareKeepsTheSpare() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        try FileManager.default.createDirectory(
            atPath: temporary.path + "/car-spare-parts", withIntermediateDirectories: false)
        let output = temporary.path + "/car-spare-parts/Output"
        let writer = OutputWriter(outputDirectory: output, protectedDirectories: [])
        try writer.write(Self.pages, id: 1)
        try writer.write(Self.pages, id: 2)  // a clean build retires the spare of the first
        let summary = try writer.write(
            [RenderedPage(path: "index.html", text: "again")], isWhole: false, id: 3)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        try Self.expectSpareMirrors(output)
    }

    /// A folder swapped in takes the permissions the output folder had, as a folder left in
    /// place would keep them: clean and incremental writes alike.
    @Test func theOutputFolderKeepsItsPermissions() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        let writer = OutputWriter(outputDirectory: output, protectedDirectories: [])
        try writer.write(Self.pages, id: 1)
        let manager = FileManager.default
        try manager.setAttributes([.posixPermissions: 0o2750], ofItemAtPath: output)
        let permissions = {
            try manager.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        }
        try writer.write(
            [RenderedPage(path: "index.html", text: "changed")], isWhole: false, id: 2)
        #expect(try temporary.read("Output/index.html") == "changed")
        #expect(try permissions() == 0o2750)
        try writer.write(Self.pages, id: 3)
        #expect(try permissions() == 0o2750)
        try writer.write(
            [RenderedPage(path: "index.html", text: "again")], isWhole: false, id: 4)
        #expect(try permissions() == 0o2750)
    }

    /// What lies beside the output folder, its lock file and spare copy aside.
    static func beside(_ output: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(
            atPath: (output as NSString).deletingLastPathComponent
        ).filter { !$0.hasSuffix(".fruitsite-spare") }.sorted()
    }

    /// The spare beside `output` has the same folders and files, each file a hard link to
    /// the output's own, and a marker naming the same model.
    static func expectSpareMirrors(
        _ output: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let spare =
            (output as NSString).deletingLastPathComponent + "/."
            + (output as NSString).lastPathComponent + ".fruitsite-spare"
        let manager = FileManager.default
        let entries = { (root: String) in
            (manager.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
        }
        #expect(entries(spare) == entries(output), sourceLocation: sourceLocation)
        for path in filesBelow(output) {
            let inode = { (root: String) in
                try manager.attributesOfItem(atPath: root + "/" + path)[.systemFileNumber]
                    as? Int
            }
            if path == OutputWriter.markerName {
                #expect(
                    manager.contents(atPath: spare + "/" + path)
                        == manager.contents(atPath: output + "/" + path),
                    sourceLocation: sourceLocation)
            } else {
                #expect(
                    try inode(spare) == inode(output), "\(path)", sourceLocation: sourceLocation)
            }
        }
    }
}
