import Foundation
import TestSupport
import Testing

@testable import FruitsiteServe

/// The watcher wakes for changes under its folders, new folders included, and to the file
/// it watches apart; it sleeps through editors' temporaries.
@Suite(.timeLimit(.minutes(10))) struct FolderWatcherTests {
    /// Runs `change` a moment after `wait()` has started, and returns what `wait()` says
    /// changed (the suite's time limit fails a wait that never ends).
    private func wakes(
        _ watcher: FolderWatcher, after change: @escaping @Sendable () throws -> Void
    ) -> Set<String>? {
        later(change)
        return watcher.wait()
    }

    /// Runs `change` a moment from now, once the next `wait()` has started.
    private func later(_ change: @escaping @Sendable () throws -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { try? change() }
    }

    /// What successive waits report until one names `path`, together; nil if one of them
    /// did not know (the events of one write may straddle two waits on a busy machine).
    private func reports(_ path: String, from watcher: FolderWatcher) -> Set<String>? {
        var all: Set<String> = []
        while !all.contains(path) {
            guard let paths = watcher.wait() else { return nil }
            all.formUnion(paths)
        }
        return all
    }

    /// Whether successive waits come to one that does not know what changed, those before it
    /// naming nothing but `leftover`: the last events of the write before may come late.
    private func isUnknown(leaving leftover: String, from watcher: FolderWatcher) -> Bool {
        while let paths = watcher.wait() {
            guard paths.isSubset(of: [leftover]) else { return false }
        }
        return true
    }

    /// Lets the late events of the changes before pass, on a busy machine told by a wait of
    /// their own: returns once a second went by without any.
    private func settle(_ watcher: FolderWatcher) {
        while true {
            let deadline = Date(timeIntervalSinceNow: 1)
            _ = watcher.wait(until: deadline)
            if Date() >= deadline { return }
        }
    }

    /// A save that truncates the file, then writes it, while it is open: the change is told
    /// once the file is closed, not while it is empty.
    @Test func waitsForAFileBeingWrittenToBeClosed() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/apple.md", "---\nname: Apple\n---\n")
        let content = folder.path + "/Content"
        let path = content + "/apple.md"
        let watcher = FolderWatcher(folders: [content], files: [], polls: false)
        let text = "---\nname: Apple\ncategory: Pome\n---\n"
        later {
            let file = open(path, O_WRONLY | O_TRUNC)
            guard file >= 0 else { return }
            // Longer than the quiet window, well within the close window.
            usleep(150_000)
            _ = text.withCString { write(file, $0, strlen($0)) }
            close(file)
        }
        var seen = watcher.wait()
        // What the wait said changed is there whole when it returns.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        while seen?.contains(path) == false { seen = watcher.wait() }
        #expect(seen?.contains(path) == true)
    }

    /// With nothing changing, a wait ends at its deadline, not before, and says to look at
    /// everything; a change before the deadline is told as ever.
    @Test(arguments: [false, true]) func aWaitEndsAtItsDeadline(polls: Bool) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/apple.md", "a")
        let content = folder.path + "/Content"
        let watcher = FolderWatcher(folders: [content], files: [], polls: polls)
        let deadline = Date(timeIntervalSinceNow: 0.1)
        #expect(watcher.wait(until: deadline) == nil)
        #expect(Date() >= deadline)
        guard !polls else { return }
        later { try folder.write("Content/apple.md", "b") }
        let paths = watcher.wait(until: Date(timeIntervalSinceNow: 600))
        #expect(paths == [content + "/apple.md"])
    }

    @Test func saysWhichFilesChangedUnderItsFoldersAndFoldersMadeLater() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/apple.md", "a")
        try folder.write("fruitsite.yml", "title: A")
        let content = folder.path + "/Content"
        let watcher = FolderWatcher(
            folders: [content], files: [folder.path + "/fruitsite.yml"], polls: false)
        #expect(watcher.usesNotifications)

        later { try folder.write("Content/apple.md", "b") }
        #expect(reports(content + "/apple.md", from: watcher) == [content + "/apple.md"])

        // A new folder: what it holds is not known, so everything is to be looked at; then
        // its files are watched.
        later {
            try FileManager.default.createDirectory(
                atPath: content + "/citrus", withIntermediateDirectories: false)
        }
        #expect(watcher.wait() == nil)
        later { try folder.write("Content/citrus/lemon.md", "c") }
        #expect(
            reports(content + "/citrus/lemon.md", from: watcher) == [content + "/citrus/lemon.md"])

        // The config wakes it, and is no content file (the last write's late events may
        // come with it).
        later { try folder.write("fruitsite.yml", "title: B") }
        #expect(watcher.wait()?.isSubset(of: [content + "/citrus/lemon.md"]) == true)

        // Editors' temporaries are never reported.
        later {
            try folder.write("Content/.apple.md.swp", "x")
            try folder.write("Content/apple.md~", "x")
            try folder.write("Content/4913", "x")
            try folder.write("Content/apple.md", "e")
        }
        #expect(reports(content + "/apple.md", from: watcher) == [content + "/apple.md"])

        // A folder moved out is out: its files are not reported under the path they left.
        later {
            try FileManager.default.moveItem(
                atPath: content + "/citrus", toPath: folder.path + "/citrus")
        }
        #expect(watcher.wait() == nil)
        later {
            try folder.write("citrus/lemon.md", "d")
            try folder.write("Content/apple.md", "f")
        }
        #expect(reports(content + "/apple.md", from: watcher) == [content + "/apple.md"])
    }

    /// A content folder made after the watcher started, or removed and put back, is seen,
    /// and so are the files it then holds: the folder that holds it is watched too.
    @Test func seesItsFolderMadeLaterOrPutBack() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let content = folder.path + "/Content"
        let watcher = FolderWatcher(folders: [content], files: [], polls: false)
        later { try folder.write("Content/apple.md", "a") }
        #expect(watcher.wait() == nil)
        later { try folder.write("Content/apple.md", "b") }
        #expect(reports(content + "/apple.md", from: watcher) == [content + "/apple.md"])

        later { try FileManager.default.removeItem(atPath: content) }
        // The folder's files go before it, and on a busy machine their events may come in
        // a wait of their own before the folder's.
        var removed = watcher.wait()
        while let paths = removed, paths.allSatisfy({ $0.hasPrefix(content + "/") }) {
            removed = watcher.wait()
        }
        #expect(removed == nil)
        later { try folder.write("Content/pear.md", "p") }
        #expect(watcher.wait() == nil)
        later { try folder.write("Content/pear.md", "q") }
        #expect(reports(content + "/pear.md", from: watcher) == [content + "/pear.md"])

        // A folder beside it is none of its business.
        later {
            try folder.write("Output/index.html", "x")
            try folder.write("Content/pear.md", "r")
        }
        #expect(reports(content + "/pear.md", from: watcher) == [content + "/pear.md"])
    }

    /// A folder above its folders or its file, made later, moved away or put back, is seen,
    /// and so are the edits below it from then on.
    @Test func seesTheFoldersAboveItsOwn() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let site = folder.path + "/site"
        let content = site + "/Content"
        let watcher = FolderWatcher(
            folders: [content], files: [site + "/conf/site.yml"], polls: false)
        later { try folder.write("site/Content/apple.md", "a") }
        #expect(watcher.wait() == nil)
        // The two folders and the file made at once may be told in more than one wait.
        settle(watcher)
        later { try folder.write("site/Content/apple.md", "b") }
        #expect(reports(content + "/apple.md", from: watcher) == [content + "/apple.md"])

        let away = folder.path + "/away"
        later { try FileManager.default.moveItem(atPath: site, toPath: away) }
        #expect(isUnknown(leaving: content + "/apple.md", from: watcher))
        later { try FileManager.default.moveItem(atPath: away, toPath: site) }
        #expect(watcher.wait() == nil)
        settle(watcher)
        later { try folder.write("site/Content/apple.md", "c") }
        #expect(reports(content + "/apple.md", from: watcher) == [content + "/apple.md"])

        later { try folder.write("site/conf/site.yml", "title: A") }
        #expect(isUnknown(leaving: content + "/apple.md", from: watcher))
        #expect(wakes(watcher) { try folder.write("site/conf/site.yml", "title: B") } == [])
    }

    @Test func findsTheFolderThatHoldsAPath() {
        let cases = [
            ("g", "."), ("g/Content", "g"), ("a//b/", "a"), ("../conf", ".."), ("/a", "/"),
            ("/", "/"), ("/x/y/", "/x"),
        ]
        for (path, folder) in cases { #expect(FolderWatcher.folder(of: path) == folder, "\(path)") }
    }

    /// One folder under two names (here through a link; `.` and its absolute path are
    /// another) is one watch, whose events count under both.
    @Test func aFolderWatchedUnderTwoNamesAnswersToBoth() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            atPath: folder.path + "/site", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/link", withDestinationPath: folder.path + "/site")
        let content = folder.path + "/site/Content"
        let watcher = FolderWatcher(
            folders: [content], files: [folder.path + "/link/site.yml"], polls: false)
        later { try folder.write("site/Content/apple.md", "a") }
        #expect(watcher.wait() == nil)
        // The two folders and the file made at once may be told in more than one wait.
        settle(watcher)
        later { try folder.write("site/Content/apple.md", "b") }
        #expect(reports(content + "/apple.md", from: watcher) == [content + "/apple.md"])
        // The write under the link's name wakes the watcher. On a slow machine (under the
        // sanitizers) the close of the write before can come after that wait, and is told
        // with this one.
        let woken = wakes(watcher) { try folder.write("link/site.yml", "title: A") }
        #expect(
            woken?.isSubset(of: [content + "/apple.md"]) == true, "\(String(describing: woken))")
    }

    /// A file whose name is not UTF-8 cannot be named: the change says to look at everything.
    @Test func aNameThatIsNotUTF8MeansLookAtEverything() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/apple.md", "a")
        let content = folder.path + "/Content"
        let watcher = FolderWatcher(folders: [content], files: [], polls: false)
        let path = Array((content + "/bad").utf8) + [0xFF] + Array(".md".utf8) + [0]
        let paths = wakes(watcher) {
            _ = path.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { close(creat($0.baseAddress!, 0o644)) }
            }
        }
        #expect(paths == nil)
    }

    /// Paths are spelt as the folders are: `Content/x` in the current folder, not `./Content/x`.
    @Test func joinsNamesWithoutADotFolder() {
        #expect(FolderWatcher.join(".", "Content") == "Content")
        #expect(FolderWatcher.join("site", "Content") == "site/Content")
    }

    @Test func pollsWhenAsked() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let watcher = FolderWatcher(folders: [folder.path], files: [], polls: true)
        #expect(!watcher.usesNotifications)
        let paths = wakes(watcher, after: {})
        #expect(paths == nil)
    }
}
