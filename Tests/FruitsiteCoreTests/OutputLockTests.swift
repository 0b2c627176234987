import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// One build at a time per output folder: another process holding the lock (here the
/// `flock` command, a real process taking the same `flock` a build takes) makes a build
/// refuse, or wait with `waitsForLock`.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
struct OutputLockTests {
    /// A process that holds the output folder's lock until it is ended or `seconds` pass,
    /// then touches `released`.
    final class Holder {
        let process = Process()
        let ready: String
        let released: String

        init(output: String, seconds: Int) throws {
            let lock = OutputLock.path(besideOutput: output)
            ready = lock + ".ready"
            released = lock + ".released"
            try FileManager.default.createDirectory(
                atPath: (output as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "flock", "--close", lock, "sh", "-c",
                "touch '\(ready)'; sleep \(seconds); touch '\(released)'",
            ]
            try process.run()
            // Until the holder has the lock; it says so by touching `ready`.
            while !FileManager.default.fileExists(atPath: ready) && process.isRunning {
                usleep(10_000)
            }
        }

        func end() {
            // Killed, so that the lock is free now; `waitpid`, as `Process` would wait for the
            // holder's own child too.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            _ = waitpid(process.processIdentifier, nil, 0)
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
        #expect(holder.process.isRunning)
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
