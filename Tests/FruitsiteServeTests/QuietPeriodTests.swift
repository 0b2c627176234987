import Foundation
import FruitsiteCore
import Testing

@testable import FruitsiteServe

/// Errors wait until the files they name have kept their statuses for the quiet period; the
/// clock and the statuses are given, so nothing sleeps.
@Suite struct QuietPeriodTests {
    /// A quiet period of half a second over files whose statuses a test sets (a size alone
    /// tells one from another), with times in seconds from an origin.
    final class Files {
        var sizes: [String: Int64] = [:]
        private var period = QuietPeriod(length: 0.5)

        init() {
            period = QuietPeriod(length: 0.5) { [unowned self] path in
                sizes[path].map {
                    FileStatus(device: 1, inode: 1, size: $0, modified: 0, changed: 0)
                }
            }
        }

        func holds(_ paths: [String], at seconds: TimeInterval) -> Bool {
            period.holds(errorsAbout: paths, at: Date(timeIntervalSinceReferenceDate: seconds))
        }

        /// When the held errors are tried again, in seconds from the origin.
        var heldUntil: TimeInterval? { period.heldUntil?.timeIntervalSinceReferenceDate }

        func reset() { period.reset() }
    }

    @Test func anErrorShowsOnceItsFileHasKeptStillForThePeriod() {
        let files = Files()
        files.sizes["a.md"] = 10
        // First named now: the file has just been seen to change.
        #expect(files.holds(["a.md"], at: 0))
        #expect(files.heldUntil == 0.5)
        #expect(files.holds(["a.md"], at: 0.25))
        #expect(files.heldUntil == 0.5)
        #expect(!files.holds(["a.md"], at: 0.5))
        #expect(files.heldUntil == nil)
        // Still wrong and still: shown at once, each time.
        #expect(!files.holds(["a.md"], at: 5))
    }

    @Test func aFileThatChangesAgainWaitsAgain() {
        let files = Files()
        files.sizes["a.md"] = 0
        #expect(files.holds(["a.md"], at: 0))
        files.sizes["a.md"] = 5
        #expect(files.holds(["a.md"], at: 0.25))
        #expect(files.heldUntil == 0.75)
        // Gone, as a rename takes it away: another status, which waits too.
        files.sizes["a.md"] = nil
        #expect(files.holds(["a.md"], at: 0.5))
        #expect(files.holds(["a.md"], at: 0.75))
        #expect(!files.holds(["a.md"], at: 1))
    }

    /// Errors about several files wait for the last of them to settle, and an error about a
    /// file that kept still is held with them, at most for the period.
    @Test func errorsWaitForTheLastOfTheirFiles() {
        let files = Files()
        files.sizes = ["a.md": 1, "b.md": 1]
        #expect(files.holds(["a.md"], at: 0))
        #expect(!files.holds(["a.md"], at: 1))
        #expect(files.holds(["a.md", "b.md", "b.md"], at: 1.25))
        #expect(files.heldUntil == 1.75)
        #expect(!files.holds(["b.md", "a.md"], at: 1.75))
    }

    /// An update that builds ends what was held; a file named again later is a new save, as
    /// is one that no error named in between.
    @Test func aBuildForgetsTheFiles() {
        let files = Files()
        files.sizes["a.md"] = 1
        #expect(files.holds(["a.md"], at: 0))
        files.reset()
        #expect(files.heldUntil == nil)
        #expect(files.holds(["a.md"], at: 2))
        #expect(!files.holds(["a.md"], at: 3))
        #expect(files.holds(["b.md"], at: 4))
        #expect(files.holds(["a.md"], at: 5))
    }
}
