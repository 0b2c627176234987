import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FruitsiteCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SQLite's crash tests, for the output folder: each strategy's write is run once to count its
/// steps (the calls of its `OutputFileSystem`, and the model's save), then again from the same
/// old site for every step, failing that step with ENOSPC, EIO or EXDEV, or stopping every
/// call from that step on, as a `kill -9` would, before running recovery as the next build
/// does. Each time the output folder holds exactly the old site or the new one, its marker
/// names the model of the one it holds, a spare copy that names a model holds exactly that
/// model's site, and the next build, as `SiteBuilder.build` makes it, writes the new site.
@Suite struct CommitFaultTests {
    /// One way of writing, chosen by the kind of build and of output folder.
    struct Scenario: Sendable, CustomStringConvertible {
        var name: String
        var isWhole: Bool
        var keepsSpare: Bool
        /// The mount table names the output folder, as a bind mount of it would.
        var isMountPoint = false

        var description: String { name }
    }

    static let scenarios = [
        Scenario(name: "clean build, whole swap", isWhole: true, keepsSpare: false),
        Scenario(name: "clean build with a spare copy", isWhole: true, keepsSpare: true),
        Scenario(name: "incremental, changes renamed", isWhole: false, keepsSpare: false),
        Scenario(name: "incremental, spare swapped", isWhole: false, keepsSpare: true),
        Scenario(
            name: "clean build into a mount point", isWhole: true, keepsSpare: true,
            isMountPoint: true),
        Scenario(
            name: "incremental into a mount point", isWhole: false, keepsSpare: true,
            isMountPoint: true),
    ]

    /// The old site, model 1: a file changes, one stays, one goes with its folder.
    static let oldSite = [
        "index.html": "old index", "fruits/apple/index.html": "apple",
        "fruits/gone/index.html": "gone", "about/index.html": "about",
        "assets/site.css": "body {}",
    ]
    /// The new site, model 2: a file is new in a new folder.
    static let newSite = [
        "index.html": "new index", "fruits/apple/index.html": "apple",
        "fruits/new/index.html": "new", "about/index.html": "about, again",
        "assets/site.css": "body {}",
    ]

    enum Fault: Sendable, CustomStringConvertible {
        /// The step fails with this `errno`; the others run.
        case error(Int32)
        /// No call from the step on is made: the process died there.
        case kill

        var description: String {
            switch self {
            case .error(let code): String(cString: strerror(code))
            case .kill: "kill"
            }
        }
    }

    static let faults: [Fault] = [.error(ENOSPC), .error(EIO), .error(EXDEV), .kill]

    @Test(arguments: scenarios)
    func everyStepFailedLeavesTheOldSiteOrTheNewOne(scenario: Scenario) throws {
        let steps = try Self.run(scenario, failing: nil)
        #expect(steps > 20, "\(scenario): only \(steps) steps counted")
        for step in 0..<steps {
            for fault in Self.faults {
                try Self.run(scenario, failing: (step, fault))
            }
        }
    }

    /// Writes the old site, then the new one with `failing`'s fault at its step, recovers,
    /// checks, builds again and checks.
    /// - Returns: How many steps the write of the new site took.
    @discardableResult
    static func run(_ scenario: Scenario, failing: (step: Int, fault: Fault)?) throws -> Int {
        let temporary = try TemporaryDirectory(in: memory)
        defer { temporary.remove() }
        let output = temporary.path + "/Output"
        let context = "\(scenario), \(failing.map { "step \($0.step): \($0.fault)" } ?? "no fault")"
        var writer = OutputWriter(
            outputDirectory: output, protectedDirectories: [], keepsSpare: scenario.keepsSpare)
        try write(oldSite, id: 1, with: writer, scenario: scenario)

        // The write under test.
        let injection = Injection(failing: failing)
        let real = fileSystem(for: scenario, output: output)
        writer.fileSystem = injection.wrapping(real)
        var saved: UInt64 = 1
        let isWhole = scenario.isWhole
        _ = try? writer.write(
            pages(isWhole ? newSite : changes), removing: isWhole ? [] : removals,
            isWhole: isWhole, id: 2
        ) {
            if injection.step() == nil { saved = 2 }
        }
        writer.fileSystem = real
        if failing == nil { #expect(saved == 2, "\(context): the model was not saved") }
        if case .error = failing?.fault {
            // A failed write is over: nothing waits for the next build but hidden folders.
            expectOldOrNew(output, ignoringLeftovers: true, context + ", before recovery")
        }

        // The next build: recovery, then a write as the saved model and the marker call for.
        writer.recover()
        expectOldOrNew(output, ignoringLeftovers: false, context)
        expectSpareHoldsWhatItsMarkerNames(output, context)
        switch (writer.markerID(), saved) {
        case (2, 2): break
        case (1, 1):
            try write(
                changes, removing: removals, isWhole: false, id: 2, with: writer,
                scenario: scenario)
        default: try write(newSite, id: 2, with: writer, scenario: scenario)
        }
        #expect(tree(output) == newSite, "\(context): the next build")
        #expect(writer.markerID() == 2, "\(context): the next build's marker")
        expectSpareHoldsWhatItsMarkerNames(output, context + ", after the next build")
        let beside = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(
            beside.filter { !$0.hasSuffix(".fruitsite-spare") } == ["Output"],
            "\(context): \(beside)")
        return injection.steps
    }

    /// A file system in memory where there is one: the runs make thousands of folders, which
    /// took 40 s on a disk's journal and 2 s there.
    static let memory =
        FileManager.default.isWritableFile(atPath: "/dev/shm/")
        ? "/dev/shm/" : NSTemporaryDirectory()

    /// The changed files of the new site, and the paths it no longer has.
    static let changes = newSite.filter { oldSite[$0.key] != $0.value }
    static let removals = oldSite.keys.filter { newSite[$0] == nil }.sorted()

    static func pages(_ files: [String: String]) -> [RenderedPage] {
        files.sorted { $0.key < $1.key }.map { RenderedPage(path: $0.key, text: $0.value) }
    }

    /// A write without faults: the whole site, or the changes to it.
    static func write(
        _ files: [String: String], removing removals: [String] = [], isWhole: Bool = true,
        id: UInt64, with writer: OutputWriter, scenario: Scenario
    ) throws {
        var writer = writer
        writer.fileSystem = fileSystem(for: scenario, output: writer.outputDirectory)
        try writer.write(pages(files), removing: removals, isWhole: isWhole, id: id)
    }

    /// The real file system, its mount table naming `output` for a mount point.
    static func fileSystem(for scenario: Scenario, output: String) -> OutputFileSystem {
        var fileSystem = OutputFileSystem.local
        guard scenario.isMountPoint else { return fileSystem }
        let read = fileSystem.read
        fileSystem.read = { path, limit in
            let bytes = try read(path, limit)
            guard path == "/proc/self/mountinfo" else { return bytes }
            return bytes
                + Array("99 1 0:99 / \(OutputWriter.absolute(output)) rw - tmpfs x rw\n".utf8)
        }
        return fileSystem
    }

    // MARK: - Checks

    /// Expects `output` to hold exactly the old site with model 1's marker, or the new one
    /// with model 2's.
    static func expectOldOrNew(
        _ output: String, ignoringLeftovers: Bool, _ context: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        var files = tree(output)
        if ignoringLeftovers {
            files = files.filter { !$0.key.hasPrefix(".fruitsite-") }
        }
        let marker = OutputMarker.id(in: OutputWriter.absolute(output), fileSystem: .local)
        let isOld = files == oldSite && marker == 1
        let isNew = files == newSite && marker == 2
        #expect(
            isOld || isNew, "\(context): marker \(marker.map(String.init) ?? "none"), \(files)",
            sourceLocation: sourceLocation)
    }

    /// Expects a spare copy whose marker names a model to hold exactly that model's site.
    static func expectSpareHoldsWhatItsMarkerNames(
        _ output: String, _ context: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let spare =
            (output as NSString).deletingLastPathComponent + "/."
            + (output as NSString).lastPathComponent + ".fruitsite-spare"
        guard let id = OutputMarker.id(in: spare, fileSystem: .local) else { return }
        #expect(
            tree(spare) == [1: oldSite, 2: newSite][id], "\(context): the spare, marked \(id)",
            sourceLocation: sourceLocation)
    }

    /// Every file below `root` but its marker, by relative path, with its text; a folder
    /// with nothing in it shows as a path ending in "/".
    static func tree(_ root: String) -> [String: String] {
        var files: [String: String] = [:]
        let manager = FileManager.default
        for path in (manager.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        where path != OutputMarker.name {
            let full = root + "/" + path
            var isDirectory: ObjCBool = false
            _ = manager.fileExists(atPath: full, isDirectory: &isDirectory)
            if !isDirectory.boolValue {
                // The build's own reader: Foundation's leaks a buffer for some files under
                // AddressSanitizer.
                files[path] = String(
                    decoding: (try? FileSystem.local.read(full, .max)) ?? [], as: UTF8.self)
            } else if (try? manager.contentsOfDirectory(atPath: full))?.isEmpty ?? true {
                files[path + "/"] = ""
            }
        }
        return files
    }

    // MARK: - Injection

    /// Counts the calls of a file system and fails the chosen one, or every one from it on.
    final class Injection: Sendable {
        let failing: (step: Int, fault: Fault)?
        private let count = Atomic<Int>(0)

        init(failing: (step: Int, fault: Fault)?) {
            self.failing = failing
        }

        /// How many steps were taken.
        var steps: Int { count.load(ordering: .relaxed) }

        /// Takes a step: nil to make the call, else the error it fails with instead.
        func step() -> SystemError? {
            let index = count.add(1, ordering: .relaxed).oldValue
            switch failing?.fault {
            case .error(let code) where index == failing?.step: return SystemError(code: code)
            case .kill where index >= failing!.step: return SystemError(code: EIO)
            default: return nil
            }
        }

        /// `fileSystem` with each call a step.
        func wrapping(_ fileSystem: OutputFileSystem) -> OutputFileSystem {
            var wrapped = fileSystem
            wrapped.makeDirectory = { self.step() ?? fileSystem.makeDirectory($0) }
            wrapped.removeDirectory = { self.step() ?? fileSystem.removeDirectory($0) }
            wrapped.removeFile = { self.step() ?? fileSystem.removeFile($0) }
            wrapped.rename = { self.step() ?? fileSystem.rename($0, $1) }
            wrapped.exchange = { self.step() ?? fileSystem.exchange($0, $1) }
            wrapped.link = { self.step() ?? fileSystem.link($0, $1) }
            wrapped.writeFile = { self.step() ?? fileSystem.writeFile($0, $1, $2) }
            wrapped.status = { path throws(SystemError) in
                if let error = self.step() { throw error }
                return try fileSystem.status(path)
            }
            wrapped.linkStatus = { path throws(SystemError) in
                if let error = self.step() { throw error }
                return try fileSystem.linkStatus(path)
            }
            wrapped.changeGroup = { self.step() ?? fileSystem.changeGroup($0, $1) }
            wrapped.changeMode = { self.step() ?? fileSystem.changeMode($0, $1) }
            wrapped.checkWritable = { self.step() ?? fileSystem.checkWritable($0) }
            wrapped.list = {
                if let error = self.step() { throw error }
                return try fileSystem.list($0)
            }
            wrapped.read = {
                if let error = self.step() { throw error }
                return try fileSystem.read($0, $1)
            }
            wrapped.removeItem = { if self.step() == nil { fileSystem.removeItem($0) } }
            wrapped.resolve = { self.step() == nil ? fileSystem.resolve($0) : nil }
            return wrapped
        }
    }
}
