import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// One build at a time per output folder: another holder of the lock (here this process,
/// through a descriptor of its own: `flock` locks belong to open files, so two descriptors
/// conflict as two processes would) makes a build refuse, or wait with `waitsForLock`.
@Suite struct OutputLockTests {
    /// Holds the output folder's lock until `end()`, or until `seconds` pass, when it touches
    /// `released` first.
    final class Holder: @unchecked Sendable {
        let released: String
        /// Guards `descriptor`: an `NSLock`, as ThreadSanitizer sees a pthread mutex and not the
        /// futex a `Mutex` waits on.
        private let lock = NSLock()
        private var descriptor: Int32

        init(output: String, seconds: Int) throws {
            let path = OutputLock.path(besideOutput: output)
            released = path + ".released"
            try FileManager.default.createDirectory(
                atPath: (output as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard opened >= 0, flock(opened, LOCK_EX | LOCK_NB) == 0 else {
                throw SystemError(code: errno)
            }
            descriptor = opened
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
                [self] in
                _ = FileManager.default.createFile(atPath: released, contents: nil)
                end()
            }
        }

        var isHolding: Bool { lock.withLock { descriptor >= 0 } }

        /// Lets go of the lock, once.
        func end() {
            lock.withLock {
                if descriptor >= 0 { close(descriptor) }
                descriptor = -1
            }
        }
    }

    static func options(_ folder: TemporaryDirectory) -> BuildOptions {
        var options = SiteBuildTests.options(site: repositoryRoot, output: folder.path + "/Output")
        options.cacheDirectory = folder.path + "/.cache"
        return options
    }

    @Test func aSecondBuildIsRefusedAndTouchesNothing() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let options = Self.options(folder)
        // What a running build has staged beside the folder must survive.
        try folder.write(".Output.fruitsite-tmp-999999/.fruitsite-output", "")
        try folder.write(".Output.fruitsite-tmp-999999/index.html", "staged")
        let holder = try Holder(output: folder.path + "/Output", seconds: 60)
        defer { holder.end() }
        #expect(holder.isHolding)
        do {
            _ = try SiteBuilder(options: options).build()
            Issue.record("the build did not stop")
        } catch {
            #expect(
                error.diagnostics.map(\.message) == ["another build is writing this output folder"])
            #expect(error.diagnostics.first?.hint?.contains("--wait") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Output"))
        #expect(try folder.read(".Output.fruitsite-tmp-999999/index.html") == "staged")

        holder.end()
        _ = try SiteBuilder(options: options).build()
        #expect(FileManager.default.fileExists(atPath: folder.path + "/Output/index.html"))
        #expect(
            !FileManager.default.fileExists(atPath: folder.path + "/.Output.fruitsite-tmp-999999"))
    }

    @Test func aBuildThatWaitsRunsOnceTheOtherIsDone() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var options = Self.options(folder)
        options.waitsForLock = true
        let holder = try Holder(output: folder.path + "/Output", seconds: 1)
        defer { holder.end() }
        _ = try SiteBuilder(options: options).build()
        // The holder touched this just before it let go of the lock.
        #expect(FileManager.default.fileExists(atPath: holder.released))
        #expect(FileManager.default.fileExists(atPath: folder.path + "/Output/index.html"))
    }
}
