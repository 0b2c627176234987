import Foundation
import TestSupport
import Testing

@testable import FruitsiteServe

/// The watcher wakes for changes under its folders, new folders included, and to the file
/// it watches apart; it sleeps through editors' temporaries.
@Suite(.timeLimit(.minutes(1))) struct FolderWatcherTests {
    /// Runs `change` a moment after `wait()` has started, and returns once `wait()` has
    /// (the suite's time limit fails a wait that never ends).
    private func wakes(
        _ watcher: FolderWatcher, after change: @escaping @Sendable () throws -> Void
    ) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
            try? change()
        }
        watcher.wait()
    }

    @Test func wakesForChangesInFoldersMadeLaterAndTheConfig() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/apple.md", "a")
        try folder.write("fruitsite.yml", "title: A")
        let watcher = FolderWatcher(
            folders: [folder.path + "/Content"], files: [folder.path + "/fruitsite.yml"],
            polls: false)
        #expect(watcher.usesNotifications)
        wakes(watcher) { try folder.write("Content/apple.md", "b") }
        wakes(watcher) { try folder.write("Content/citrus/lemon.md", "c") }
        wakes(watcher) { try folder.write("Content/citrus/lime.md", "d") }
        wakes(watcher) { try folder.write("fruitsite.yml", "title: B") }
        // A temporary first, then a real change: only the second ends the wait, which the
        // rename's arrival after the temporary's proves no sooner than it is made.
        let start = Date()
        wakes(watcher) {
            try folder.write("Content/.apple.md.swp", "x")
            try folder.write("Content/apple.md~", "x")
            Thread.sleep(forTimeInterval: 0.5)
            try folder.write("Content/apple.md", "e")
        }
        #expect(Date().timeIntervalSince(start) >= 0.5)
    }

    @Test func pollsWhenAsked() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let watcher = FolderWatcher(folders: [folder.path], files: [], polls: true)
        #expect(!watcher.usesNotifications)
        wakes(watcher) {}
    }
}
