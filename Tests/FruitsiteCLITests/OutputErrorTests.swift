import Foundation
import TestSupport
import Testing

/// Every command, run as the built executable, whose standard output cannot be written: a
/// full disk is one line of error and status 1, a closed pipe a quiet status 141; no crash.
@Suite struct OutputErrorTests {
    /// Each command, run in a copy of the sample site, and the file it leaves, if any.
    static let commands: [(arguments: [String], leaves: String?)] = [
        (["search", ""], nil),
        (["build", "--output", "Output"], "Output/index.html"),
        (["new", "Medlar", "--category", "Pome Fruits"], "Content/medlar.md"),
        (["--help"], nil),
    ]

    @Test(arguments: commands)
    func aFullDiskIsOneLineOfErrorAndStatusOne(arguments: [String], leaves: String?) throws {
        let run = try Self.run(arguments, standardOutput: FileHandle(forWritingAtPath: "/dev/full"))
        defer { run.folder.remove() }
        #expect(run.reason == .exit, "\(run.standardError)")
        #expect(run.status == 1)
        #expect(
            run.standardError.hasSuffix(
                "error: could not write to standard output: No space left on device\n"),
            "\(run.standardError)")
        // What the command did stays done: `new`'s entry is written when its path is not.
        if let leaves {
            #expect(FileManager.default.fileExists(atPath: run.folder.path + "/" + leaves))
        }
    }

    @Test(arguments: commands)
    func aClosedPipeEndsQuietlyWithSIGPIPEsStatus(arguments: [String], leaves: String?) throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let run = try Self.run(arguments, standardOutput: pipe.fileHandleForWriting)
        defer { run.folder.remove() }
        #expect(run.reason == .exit, "\(run.standardError)")
        #expect(run.status == 141)
        #expect(run.standardError.isEmpty, "\(run.standardError)")
        if let leaves {
            #expect(FileManager.default.fileExists(atPath: run.folder.path + "/" + leaves))
        }
    }

    /// Whether this process runs with ThreadSanitizer (`make sanitize`), whose runtime in the
    /// executable dies of SIGBUS under a file-size limit before fruitsite runs.
    static let isThreadSanitized = dlsym(nil, "__tsan_init") != nil

    /// Past a file-size limit `init` and `new` fail, as on a full disk, and leave nothing:
    /// the next run succeeds.
    @Test(.disabled(if: isThreadSanitized, "ThreadSanitizer's runtime dies under ulimit -f"))
    func aFileSizeLimitLeavesNothingBehind() throws {
        // `ulimit -f` counts blocks of 512 bytes or 1 KiB: the config fits, the theme does not.
        let initRun = try Self.run(
            ["init", "site"], standardOutput: FileHandle.nullDevice, shell: "ulimit -f 2")
        defer { initRun.folder.remove() }
        #expect(initRun.reason == .exit && initRun.status == 1, "\(initRun.standardError)")
        #expect(initRun.standardError.contains("File too large"), "\(initRun.standardError)")
        #expect(initRun.standardError.contains("nothing was written"))
        let folder = initRun.folder.path
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "Content", "Templates", "fruitsite.yml",
            ])
        let newRun = try Self.run(
            ["new", "Medlar", "--category", "Pome Fruits"], standardOutput: FileHandle.nullDevice,
            shell: "ulimit -f 0", in: initRun.folder)
        #expect(newRun.reason == .exit && newRun.status == 1, "\(newRun.standardError)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/Content")
                .filter { $0.hasPrefix(".") || $0 == "medlar.md" }.isEmpty)
        for arguments in [["init", "site"], ["new", "Medlar", "--category", "Pome Fruits"]] {
            let run = try Self.run(
                arguments, standardOutput: FileHandle.nullDevice, in: initRun.folder)
            #expect(run.status == 0, "\(arguments): \(run.standardError)")
        }
    }

    /// The `fruitsite` executable built beside the test bundle.
    static let executable: String? = Bundle.main.executablePath.map {
        (($0 as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("fruitsite")
    }

    /// Runs the executable after `shell`, by default ignoring SIGPIPE as a shell's
    /// `trap '' PIPE` makes it, in a copy of the sample in one language or in `folder`, with its standard
    /// output to `standardOutput`.
    static func run(
        _ arguments: [String], standardOutput: FileHandle?, shell: String = "trap '' PIPE",
        in folder: TemporaryDirectory? = nil
    ) throws -> (
        reason: Process.TerminationReason, status: Int32, standardError: String,
        folder: TemporaryDirectory
    ) {
        let executable = try #require(executable)
        try #require(FileManager.default.isExecutableFile(atPath: executable))
        let output = try #require(standardOutput)
        let folder = try folder ?? TemporaryDirectory()
        if !FileManager.default.fileExists(atPath: folder.path + "/Content") {
            try Sample.copyInOneLanguage(to: folder.path)
            // Without the warning that the sample, which has no base URL, has no sitemap.
            try folder.write("fruitsite.yml", "sitemap: false\n")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", shell + #"; exec "$0" "$@""#, executable] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        var environment = ProcessInfo.processInfo.environment
        environment["ASAN_OPTIONS"] = [environment["ASAN_OPTIONS"], "detect_leaks=0"]
            .compactMap { $0 }.joined(separator: ":")
        process.environment = environment
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        try output.close()
        let text = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus, text, folder)
    }
}
