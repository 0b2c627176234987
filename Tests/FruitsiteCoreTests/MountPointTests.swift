import Foundation
import TestSupport
import Testing

/// An output folder that is a mount point cannot be renamed: its contents are replaced. A
/// real tmpfs is mounted in a user and mount namespace (`unshare -rm`), around the real
/// `fruitsite` executable built beside these tests.
@Suite(.enabled(if: Mounting.isPossible, "needs unshare -rm and the fruitsite executable"))
struct MountPointTests {
    @Test func aMountPointHasItsContentsReplaced() throws {
        let folder = try Mounting.project()
        defer { folder.remove() }
        let fruitsite = try #require(Mounting.executable)
        // Clean, incremental and clean again into the mount; then the mount's contents are
        // copied out (the mount ends with the namespace) with what the builds printed.
        let status = Mounting.run(
            """
            set -e
            mkdir Output Copy
            unshare -rm sh -c '
                set -e
                mount -t tmpfs fruitsite Output
                echo stale > Output/stale.html
                "\(fruitsite)" build --force --cache-dir .cache > first.txt 2>&1
                printf "\\nOne more line.\\n" >> Content/apple.md
                "\(fruitsite)" build --cache-dir .cache > second.txt 2>&1
                "\(fruitsite)" build --clean --cache-dir .cache > third.txt 2>&1
                cp -R Output/. Copy/
                ls -a Output > listing.txt
            '
            """, in: folder.path)
        #expect(status == 0, "\((try? folder.read("first.txt")) ?? "")")
        #expect(
            try folder.read("first.txt").contains("(a mount point: its contents were replaced)"))
        #expect(try folder.read("second.txt").contains("1 file changed"))
        #expect(
            try folder.read("third.txt").contains("(a mount point: its contents were replaced)"))
        #expect(try folder.read("Copy/fruits/apple/index.html").contains("One more line."))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Copy/stale.html"))
        // Nothing of the build's own is left inside the mount.
        let listing = try folder.read("listing.txt").split(separator: "\n")
        #expect(
            !listing.contains { $0.hasPrefix(".fruitsite-tmp") || $0.hasPrefix(".fruitsite-old") })
    }

    /// A file system with no room for the spare copy: the builds go on without it and say
    /// so. A tmpfs counts folders and hard links against its number of inodes; the small one
    /// has as many as the site needs with half of its spare.
    @Test func withNoRoomForTheSpareTheSiteIsBuiltWithoutIt() throws {
        let folder = try Mounting.project()
        defer { folder.remove() }
        let fruitsite = try #require(Mounting.executable)
        let status = Mounting.run(
            """
            set -e
            mkdir Roomy Small
            unshare -rm sh -c '
                set -e
                mount -t tmpfs roomy Roomy
                cp -R Content Templates Roomy/
                (cd Roomy && "\(fruitsite)" build --cache-dir .cache > /dev/null)
                used=$(df -i Roomy | awk "NR == 2 { print \\$3 }")
                spare=$(find Roomy/.Output.fruitsite-spare | wc -l)
                mount -t tmpfs -o nr_inodes=$((used - spare / 2)) small Small
                cp -R Content Templates Small/
                cd Small
                "\(fruitsite)" build --cache-dir .cache > ../first.txt 2>&1
                printf "\\nOne more line.\\n" >> Content/apple.md
                "\(fruitsite)" build --cache-dir .cache > ../second.txt 2>&1
                cp Output/fruits/apple/index.html ../apple.html
                ls -a > ../listing.txt
            '
            """, in: folder.path)
        #expect(status == 0, "\((try? folder.read("first.txt")) ?? "")")
        for build in ["first.txt", "second.txt"] {
            let printed = try folder.read(build)
            #expect(
                printed.contains("warning: could not keep a spare copy of the site"), "\(printed)")
            #expect(printed.contains("No space left on device"), "\(printed)")
            #expect(printed.contains("no free inodes"), "\(printed)")
            #expect(printed.contains("Built "), "\(printed)")
        }
        #expect(try folder.read("second.txt").contains("1 file changed"))
        #expect(try folder.read("apple.html").contains("One more line."))
        // The half-made spare was removed, freeing its inodes for the site.
        let listing = try folder.read("listing.txt").split(separator: "\n")
        #expect(
            !listing.contains { $0.contains("fruitsite-spare") || $0.contains("fruitsite-retired") }
        )
    }

    /// SIGTERM while a build renders: the build removes what it staged and ends by the signal,
    /// leaving the site as it was, both in a mount point (where the staging folder is inside
    /// the published folder) and in a plain folder (where it is beside it).
    @Test(arguments: [true, false])
    func aSignalWhileRenderingLeavesNothingStaged(isMount: Bool) throws {
        let folder = try Mounting.project(generating: 4_000)
        defer { folder.remove() }
        let fruitsite = try #require(Mounting.executable)
        // Enough fruits that rendering them takes a while; the signal is sent once the
        // staging folder exists.
        let staged = isMount ? "Output/.fruitsite-tmp-" : ".Output.fruitsite-tmp-"
        let status = Mounting.run(
            """
            set -e
            mkdir Output
            unshare -rm sh -c '
                set -e
                \(isMount ? "mount -t tmpfs fruitsite Output" : "")
                "\(fruitsite)" build --cache-dir .cache > /dev/null 2>&1
                cp Output/fruits/apple/index.html before.html
                printf "\\nOne more line.\\n" >> Content/apple.md
                "\(fruitsite)" build --clean --cache-dir .cache > build.txt 2>&1 &
                build=$!
                tries=0
                until ls -d \(staged)* > /dev/null 2>&1; do
                    tries=$((tries + 1))
                    [ $tries -lt 6000 ] || exit 3
                    sleep 0.01
                done
                kill -TERM $build
                status=0
                wait $build || status=$?
                echo $status > status.txt
                cmp Output/fruits/apple/index.html before.html
                ls -a . Output > listing.txt
            '
            """, in: folder.path)
        #expect(status == 0, "\((try? folder.read("build.txt")) ?? "")")
        // 128 + SIGTERM: the signal ended the build, after its clean-up.
        #expect(try folder.read("status.txt") == "143\n")
        let listing = try folder.read("listing.txt").split(separator: "\n")
        #expect(!listing.contains { $0.contains("fruitsite-tmp") }, "\(listing)")
    }

    /// SIGTERM once a clean build has put the new site in place, while it removes the old one
    /// beside it: the build ends by the signal without finishing the removal, and the next
    /// build removes what is left. The build is stopped (SIGSTOP) as soon as the new site
    /// shows, so that the signal comes while the old site is still there.
    @Test func aSignalOnceTheNewSiteIsInPlaceLeavesTheOldOneToTheNextBuild() throws {
        let folder = try Mounting.project(generating: 4_000)
        defer { folder.remove() }
        let fruitsite = try #require(Mounting.executable)
        let status = Mounting.run(
            """
            set -e
            mkdir Output
            "\(fruitsite)" build --cache-dir .cache > /dev/null 2>&1
            printf "\\nOne more line.\\n" >> Content/apple.md
            "\(fruitsite)" build --clean --cache-dir .cache > build.txt 2>&1 &
            build=$!
            tries=0
            until grep -q "One more line" Output/fruits/apple/index.html; do
                tries=$((tries + 1))
                [ $tries -lt 100000 ] || exit 3
            done
            kill -STOP $build
            ls -d .Output.fruitsite-tmp-* > caught.txt
            kill -TERM $build
            kill -CONT $build
            status=0
            wait $build || status=$?
            echo $status > status.txt
            grep -q "One more line" Output/fruits/apple/index.html
            ls -a . > after.txt
            "\(fruitsite)" build --cache-dir .cache > next.txt 2> next-errors.txt
            ls -a . > final.txt
            """, in: folder.path)
        #expect(status == 0, "\((try? folder.read("build.txt")) ?? "")")
        // The old site was still beside the new one when the signal came.
        #expect(try folder.read("caught.txt").contains(".Output.fruitsite-tmp-"))
        #expect(try folder.read("status.txt") == "143\n")
        #expect(try folder.read("after.txt").contains(".Output.fruitsite-tmp-"))
        #expect(try !folder.read("final.txt").contains("fruitsite-tmp"))
        #expect(try folder.read("next.txt").hasPrefix("Built "))
    }
}

/// Whether these tests can mount, and how they run the executable.
enum Mounting {
    /// A temporary folder with a copy of the sample in one language, and `count` more
    /// fruits, so many that building them takes a while.
    static func project(generating count: Int = 0) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try Sample.copyInOneLanguage(to: folder.path)
        for number in 0..<count {
            try folder.write(
                "Content/generated-\(number).md",
                "---\nname: Fruit \(number)\ncategory: Test\n---\nAbout fruit \(number).\n")
        }
        return folder
    }

    /// The `fruitsite` executable built beside the test bundle.
    static let executable: String? = Bundle.main.executablePath.map {
        (($0 as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("fruitsite")
    }

    static let isPossible: Bool = {
        guard let executable, FileManager.default.isExecutableFile(atPath: executable) else {
            return false
        }
        return run("unshare -rm true") == 0
    }()

    /// Runs a shell script; its exit status.
    @discardableResult
    static func run(_ script: String, in folder: String? = nil) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        // Under `make sanitize` the executable is built with AddressSanitizer, whose leak
        // check would fail every run: a command leaves its result to the process's end on
        // purpose (see `CLI.endsProcess`).
        var environment = ProcessInfo.processInfo.environment
        environment["ASAN_OPTIONS"] = [environment["ASAN_OPTIONS"], "detect_leaks=0"]
            .compactMap { $0 }.joined(separator: ":")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
