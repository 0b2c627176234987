import Foundation
import FruitsiteCore
import TestSupport
import Testing

@testable import FruitsiteCLI
@testable import FruitsiteServe

#if canImport(Glibc)
    import Glibc
#endif

/// `serve`'s update loop over a copy of the sample in one language, with a real watcher and real files,
/// with inotify and polling: a save still being written, or made while an update reads, never
/// shows an error and the server keeps the last good site; a file saved wrong and left so
/// shows its error, with its line, once the quiet period is over.
@Suite(.timeLimit(.minutes(1))) struct UpdateLoopTests {
    /// The loop, the server it publishes to (not listening: what it serves is read from it),
    /// and what it printed.
    final class Served: @unchecked Sendable {
        let folder: TemporaryDirectory
        let server: SiteServer
        var loop: UpdateLoop
        private let output = Output()
        /// Whether the server was ever seen showing errors after a step.
        private(set) var hasShownErrors = false

        init(polls: Bool, fileSystem: FileSystem = .local) throws {
            folder = try TemporaryDirectory()
            try Sample.copyInOneLanguage(to: folder.path)
            try folder.write("fruitsite.yml", "title: Fruits\n")
            var options = BuildOptions()
            options.contentDirectory = folder.path + "/Content"
            options.templatesDirectory = folder.path + "/Templates"
            options.configPath = folder.path + "/fruitsite.yml"
            server = try SiteServer(host: "127.0.0.1", port: 0, basePath: "/")
            let watcher = FolderWatcher(
                folders: [options.contentDirectory, options.templatesDirectory],
                files: [folder.path + "/fruitsite.yml"], polls: polls)
            let output = output
            loop = UpdateLoop(
                site: SiteBuilder.LiveSite(
                    builder: SiteBuilder(options: options, fileSystem: fileSystem)),
                server: server, watcher: watcher,
                terminal: Terminal(
                    standardOutput: { _ in }, standardError: output.append, isInteractive: false))
            loop.update(changing: nil)
            #expect(server.hasSite && !loop.isHolding, "\(printed)")
        }

        deinit { folder.remove() }

        /// What the loop printed on standard error.
        var printed: String { output.text }

        /// Runs the loop's steps until `isDone` (at most 50: a loop step waits a quiet
        /// period at most once nothing changes), noting whether errors were shown.
        func step(until isDone: () -> Bool = { true }) {
            for _ in 0..<50 {
                loop.next()
                if !server.current.errors.isEmpty { hasShownErrors = true }
                if isDone() { return }
            }
            Issue.record("the loop never got there: \(printed)")
        }

        /// The file the server serves at `path`, as text.
        func page(_ path: String) -> String? {
            server.current.files[path].map { String(decoding: $0.bytes, as: UTF8.self) }
        }

        func path(_ name: String) -> String { folder.path + "/Content/" + name }
    }

    /// Standard error, as the loop writes it.
    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var written = ""
        var text: String { lock.withLock { written } }
        func append(_ text: String) { lock.withLock { written += text } }
    }

    /// `text` written over the file at `path` in place, as an editor that does not rename.
    static func overwrite(_ path: String, with text: String) {
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.withCString { write(file, $0, strlen($0)) }
        close(file)
    }

    static let zucchini = "---\nname: Zucchini\ncategory: Gourds\n---\nA summer squash.\n"

    /// A new file opened, then written half, then the rest, and closed: it is read empty and
    /// half written on the way (the polling update, or inotify's create and its close window
    /// of 0.5 s, get there first), and no error shows.
    @Test(arguments: [false, true]) func aNewFileWrittenSlowlyShowsNoError(polls: Bool) throws {
        let served = try Served(polls: polls)
        let file = open(served.path("zucchini.md"), O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(file >= 0)
        served.step()
        #expect(served.loop.isHolding, "the empty file was read and its error held")
        let (half, rest) = (Self.zucchini.prefix(20), Self.zucchini.dropFirst(20))
        _ = String(half).withCString { write(file, $0, strlen($0)) }
        served.step()
        #expect(served.loop.isHolding, "the half-written file was read and its error held")
        _ = String(rest).withCString { write(file, $0, strlen($0)) }
        close(file)
        served.step { served.page("fruits/zucchini/index.html") != nil }
        #expect(!served.loop.isHolding)
        #expect(!served.hasShownErrors)
        #expect(!served.printed.contains("error"), "\(served.printed)")
    }

    /// Under polling, a save that empties the file and writes it 0.35 s later is read empty
    /// by a poll in between, and no error shows.
    @Test func aPolledFileEmptiedThenWrittenShowsNoError() throws {
        let served = try Served(polls: true)
        let path = served.path("apple.md")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let file = open(path, O_WRONLY | O_TRUNC)
        try #require(file >= 0)
        let emptied = Date()
        served.step()
        #expect(served.loop.isHolding, "a poll read the empty file and held its error")
        Thread.sleep(until: emptied + 0.35)
        let edited = text.replacingOccurrences(of: "name: Apple", with: "name: Crab Apple")
        _ = edited.withCString { write(file, $0, strlen($0)) }
        close(file)
        served.step { served.page("fruits/apple/index.html")?.contains("Crab Apple") == true }
        #expect(!served.loop.isHolding)
        #expect(!served.hasShownErrors)
        #expect(!served.printed.contains("error"), "\(served.printed)")
    }

    /// A file saved wrong and left so shows its error, with its line, once it has kept still
    /// for the quiet period; the last good site is still served. Once shown, it shows at once
    /// with every other save.
    @Test(arguments: [false, true]) func aFileLeftWrongShowsItsError(polls: Bool) throws {
        let served = try Served(polls: polls)
        Self.overwrite(served.path("banana.md"), with: "---\nname: [\n---\n")
        served.step()
        #expect(served.loop.isHolding)
        #expect(served.server.current.errors.isEmpty)
        served.step { !served.server.current.errors.isEmpty }
        #expect(!served.loop.isHolding)
        #expect(served.printed.contains("banana.md:3:1: error: invalid YAML"), "\(served.printed)")
        #expect(served.printed.contains("1 error; serving the last good site"))
        #expect(served.page("fruits/banana/index.html")?.contains("Banana") == true)
        guard !polls else { return }
        // Polling tells the same errors once; a watched save answers with them again.
        let before = served.printed.components(separatedBy: "invalid YAML").count
        let apple = served.path("apple.md")
        Self.overwrite(
            apple, with: try String(contentsOfFile: apple, encoding: .utf8) + "\nMore.\n")
        served.step()
        #expect(!served.loop.isHolding)
        #expect(served.printed.components(separatedBy: "invalid YAML").count == before + 1)
    }

    /// Reads that a save races: `act` replaces one read of a file, once armed, and is given
    /// the real read.
    final class Race: @unchecked Sendable {
        typealias Act = (_ read: () throws -> [UInt8]) throws -> [UInt8]
        private let lock = NSLock()
        private var armed: (path: String, read: Int, act: Act)?
        private var reads = 0
        private(set) var hasRun = false

        /// Runs `act` in place of the `read`th read of `path` from now on.
        func arm(_ path: String, atRead read: Int, _ act: @escaping Act) {
            lock.withLock { (armed, reads, hasRun) = ((path, read, act), 0, false) }
        }

        /// The disk, with the armed read raced.
        var fileSystem: FileSystem {
            var fileSystem = FileSystem.local
            let read = fileSystem.read
            fileSystem.read = { [self] path, limit in
                guard let act = take(path) else { return try read(path, limit) }
                return try act { try read(path, limit) }
            }
            return fileSystem
        }

        private func take(_ path: String) -> Act? {
            lock.withLock {
                guard let armed, armed.path == path else { return nil }
                reads += 1
                guard reads == armed.read else { return nil }
                self.armed = nil
                hasRun = true
                return armed.act
            }
        }
    }

    /// How a save races an update's read of apple.md: emptied and written again around it
    /// ("the file is empty"), renamed just before it ("No such file or directory"), or
    /// written after the scan and before its page reads it ("the file changed during the
    /// build").
    enum Racing: CaseIterable { case emptied, renamed, changed }

    /// A save made while an update reads the file shows no error: the update after it reads
    /// the file as the save left it.
    @Test(arguments: Racing.allCases, [false, true])
    func aSaveDuringAnUpdateShowsNoError(racing: Racing, polls: Bool) throws {
        let race = Race()
        let served = try Served(polls: polls, fileSystem: race.fileSystem)
        let path = served.path("apple.md")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let saved = text.replacingOccurrences(of: "name: Apple", with: "name: Crab Apple")
        switch racing {
        case .emptied:
            race.arm(path, atRead: 1) { read in
                Self.overwrite(path, with: "")
                defer { Self.overwrite(path, with: saved) }
                return try read()
            }
        case .renamed:
            race.arm(path, atRead: 1) { read in
                rename(path, served.path("crab-apple.md"))
                return try read()
            }
        case .changed:
            race.arm(path, atRead: 1) { read in
                Self.overwrite(path, with: saved)
                return try read()
            }
        }
        // An edit, for the update to read the file: its own, or the template's, whose pages
        // read their fruits' files again.
        if racing == .changed {
            let template = served.folder.path + "/Templates/fruit.mustache"
            let page = try String(contentsOfFile: template, encoding: .utf8)
            Self.overwrite(template, with: page + "<!-- edited -->\n")
        } else {
            Self.overwrite(path, with: text + "\nEdited.\n")
        }
        served.step { race.hasRun }
        let isDone = {
            switch racing {
            case .emptied, .changed:
                served.page("fruits/apple/index.html")?.contains("Crab Apple") == true
            case .renamed:
                served.page("fruits/crab-apple/index.html") != nil
                    && served.page("fruits/apple/index.html") == nil
            }
        }
        if !isDone() { served.step(until: isDone) }
        #expect(!served.loop.isHolding)
        #expect(!served.hasShownErrors)
        #expect(!served.printed.contains("error"), "\(served.printed)")
    }
}
