import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the finished site: a clean build into a temporary sibling folder swapped in once
/// every file is written; a later build only the files that changed, each renamed into place.
/// Either way a failed build leaves the previous site as it was.
///
/// The only stage that touches the output folder.
public struct OutputWriter: Sendable {
    /// The file that marks a folder as fruitsite's own output, safe to replace.
    public static let markerName = ".fruitsite-output"
    static let markerText =
        "This folder is written by `fruitsite build`, which may replace or remove any file in it.\n"

    /// The output folder as the user named it.
    public var outputDirectory: String
    /// Folders the output must neither be nor contain (the project, content and templates).
    public var protectedDirectories: [String]
    /// Folders the output must not sit inside either (content and templates).
    public var sourceDirectories: [String]
    /// Replace a non-empty folder that fruitsite did not create.
    public var force: Bool

    /// Creates a writer.
    /// - Parameters:
    ///   - outputDirectory: Where the site goes.
    ///   - protectedDirectories: Folders that must never be replaced.
    ///   - sourceDirectories: Folders the output must not be written into.
    ///   - force: Replace a non-empty folder without fruitsite's marker file.
    public init(
        outputDirectory: String, protectedDirectories: [String], sourceDirectories: [String] = [],
        force: Bool = false
    ) {
        self.outputDirectory = outputDirectory
        self.protectedDirectories = protectedDirectories + sourceDirectories
        self.sourceDirectories = sourceDirectories
        self.force = force
    }

    /// Checks that the output folder is safe to replace, without writing anything.
    /// - Throws: `BuildFailure` naming the folder and why it is refused.
    public func validate() throws(BuildFailure) {
        let output = Self.absolute(outputDirectory)
        func refuse(_ message: String, hint: String? = nil) -> BuildFailure {
            BuildFailure([.error(at: SourceLocation(path: outputDirectory), message, hint: hint)])
        }
        let home = Self.absolute(NSHomeDirectory())
        if output == "/" || output == home {
            throw refuse(
                "refusing to use \(output == "/" ? "/" : "the home folder") as the output folder")
        }
        for directory in protectedDirectories.map(Self.absolute) {
            if output == directory || directory.hasPrefix(output + "/") {
                throw refuse(
                    "refusing to write the site over '\(directory)'",
                    hint:
                        "the output folder must not be, or contain, the project, content or templates"
                )
            }
        }
        for directory in sourceDirectories.map(Self.absolute)
        where output.hasPrefix(directory + "/") {
            throw refuse("refusing to write the site inside '\(directory)'")
        }
        var isDirectory: ObjCBool = false
        let manager = FileManager.default
        guard manager.fileExists(atPath: output, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            throw refuse("the output path exists and is not a folder")
        }
        let entries = (try? manager.contentsOfDirectory(atPath: output)) ?? []
        if !entries.isEmpty && !entries.contains(Self.markerName) && !force {
            throw refuse(
                "refusing to replace a folder that fruitsite did not create",
                hint:
                    "it is not empty and has no \(Self.markerName) file; pass --force to replace it"
            )
        }
    }

    /// The id of the site model that describes the output folder, as its marker records
    /// it; nil when there is no marker or it names none (the folder comes from an older
    /// fruitsite).
    public func markerID() -> UInt64? {
        let path = Self.absolute(outputDirectory) + "/" + Self.markerName
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix(Self.markerText),
            let line = text.split(separator: "\n").dropFirst().first,
            line.hasPrefix(Self.markerPrefix)
        else { return nil }
        return UInt64(line.dropFirst(Self.markerPrefix.count), radix: 16)
    }

    static let markerPrefix = "fruitsite-output model="

    /// The marker file: a sentence for people, then the id of the model of the folder.
    static func marker(id: UInt64) -> [UInt8] {
        Array((markerText + markerPrefix + String(id, radix: 16) + "\n").utf8)
    }

    /// How much a write changed.
    public struct Summary: Sendable, Equatable {
        /// Files written (new or changed).
        public var written: Int
        /// Files of the previous build removed because the site no longer has them.
        public var removed: Int
        /// A whole new folder replaced the old one (a clean build).
        public var isWholeFolder = false
    }

    /// Writes the site in the one order that lets a build cut short anywhere leave either
    /// the previous site or the new one, and a next build that knows which: stage every file
    /// beside the output folder, save the model (`saveModel`), move the files into place
    /// with signals held, and write the marker last.
    ///
    /// Until the marker names the new model's `id`, the folder's marker names a model the
    /// cache no longer holds, so the next build starts clean.
    /// - Parameters:
    ///   - files: The files to write: every file of the site when `isWhole`, else those
    ///     whose bytes changed.
    ///   - removals: Files the site no longer has.
    ///   - isWhole: Write a whole new folder and swap it in (a clean build).
    ///   - id: The id of the model that describes the new folder, for the marker.
    ///   - saveModel: Saves that model; called once the files are staged.
    /// - Throws: `BuildFailure` when the folder is refused or a write fails; the previous
    ///   site is then left as it was.
    @discardableResult
    public func write(
        _ files: [RenderedPage], removing removals: [String] = [], isWhole: Bool = true,
        id: UInt64 = 0, saveModel: () -> Void = {}
    ) throws(BuildFailure) -> Summary {
        try writing { output, parent, name in
            isWhole
                ? try writeWhole(
                    files, id: id, saveModel: saveModel, output: output, parent: parent, name: name)
                : try writeChanges(
                    files, removing: removals, id: id, saveModel: saveModel, output: output,
                    parent: parent, name: name)
        }
    }

    /// Checks the folder, clears what an interrupted build left beside it, then runs `body`
    /// with the folder's absolute path, its parent and its name; any error becomes a
    /// `BuildFailure` naming the folder.
    private func writing(_ body: (String, String, String) throws -> Summary)
        throws(BuildFailure) -> Summary
    {
        try validate()
        let output = Self.absolute(outputDirectory)
        let parent = (output as NSString).deletingLastPathComponent
        let name = (output as NSString).lastPathComponent
        cleanUpLeftovers(parent: parent, name: name)
        do {
            return try body(output, parent, name)
        } catch let failure as BuildFailure {
            throw failure
        } catch {
            throw BuildFailure([
                .error(
                    at: SourceLocation(path: outputDirectory), "could not write the site: \(error)")
            ])
        }
    }

    /// A clean build: everything into a staging folder, then two renames.
    private func writeWhole(
        _ pages: [RenderedPage], id: UInt64, saveModel: () -> Void, output: String,
        parent: String, name: String
    ) throws -> Summary {
        let manager = FileManager.default
        let staging = "\(parent)/.\(name).fruitsite-tmp-\(getpid())"
        do {
            try? manager.removeItem(atPath: staging)
            try manager.createDirectory(atPath: staging, withIntermediateDirectories: true)
            // An empty marker first: should the build die now, the next one knows the folder
            // as its own leftover. The real one replaces it once every page is written.
            try Self.writeFile(staging + "/" + Self.markerName, [])
            try Self.writeAll(pages, into: staging)
            try Self.writeFile(staging + "/" + Self.markerName, Self.marker(id: id))
        } catch {
            try? manager.removeItem(atPath: staging)
            throw error
        }
        saveModel()

        // Two renames: the old site moves aside, the new one takes its place. Should the
        // process die between them, the next build puts the old one back (cleanUpLeftovers).
        let retired = "\(parent)/.\(name).fruitsite-old-\(getpid())"
        try SignalDeferral.run {
            if manager.fileExists(atPath: output) {
                guard rename(output, retired) == 0 else {
                    try? manager.removeItem(atPath: staging)
                    throw BuildFailure([
                        .error(
                            at: SourceLocation(path: outputDirectory),
                            "could not move the previous site aside: \(String(cString: strerror(errno)))"
                        )
                    ])
                }
            }
            guard rename(staging, output) == 0 else {
                let reason = String(cString: strerror(errno))
                _ = rename(retired, output)
                try? manager.removeItem(atPath: staging)
                throw BuildFailure([
                    .error(
                        at: SourceLocation(path: outputDirectory),
                        "could not swap in the new site: \(reason)")
                ])
            }
        }
        Self.removeLeftover(retired)
        return Summary(written: pages.count, removed: 0, isWholeFolder: true)
    }

    /// An incremental build: each changed file is written beside the output folder and
    /// renamed into place, so every file is either its old or its new self; files the site no
    /// longer has are removed; the marker is replaced last.
    private func writeChanges(
        _ changed: [RenderedPage], removing: [String], id: UInt64, saveModel: () -> Void,
        output: String, parent: String, name: String
    ) throws -> Summary {
        if changed.isEmpty && removing.isEmpty && markerID() == id {
            saveModel()
            return Summary(written: 0, removed: 0)
        }
        let staging = "\(parent)/.\(name).fruitsite-tmp-\(getpid())"
        let manager = FileManager.default
        try? manager.removeItem(atPath: staging)
        try manager.createDirectory(atPath: staging, withIntermediateDirectories: true)
        defer { try? manager.removeItem(atPath: staging) }
        // The staging folder holds the marker too, so cleanUpLeftovers knows it as ours.
        try Self.writeFile(staging + "/" + Self.markerName, [])
        let staged = changed.indices.map { RenderedPage(path: "\($0)", bytes: changed[$0].bytes) }
        try Self.writeAll(staged, into: staging)
        try Self.writeFile(staging + "/marker", Self.marker(id: id))
        saveModel()
        // From here the folder changes: keep Ctrl-C from stopping it half way.
        let removed = try SignalDeferral.run { () throws -> Int in
            try Self.createDirectories(for: changed, in: output)
            for (index, page) in changed.enumerated() {
                guard rename("\(staging)/\(index)", output + "/" + page.path) == 0 else {
                    throw SystemError.last
                }
            }
            var removed = 0
            for path in removing.sorted() {
                if unlink(output + "/" + path) == 0 { removed += 1 }
                // Remove folders the site no longer has, such as fruits/<old-slug>/.
                var folder = (path as NSString).deletingLastPathComponent
                while !folder.isEmpty, rmdir(output + "/" + folder) == 0 {
                    folder = (folder as NSString).deletingLastPathComponent
                }
            }
            guard rename(staging + "/marker", output + "/" + Self.markerName) == 0 else {
                throw SystemError.last
            }
            return removed
        }
        return Summary(written: changed.count, removed: removed)
    }

    // MARK: - Files

    private static func writeAll(_ pages: [RenderedPage], into root: String) throws {
        try createDirectories(for: pages, in: root)
        nonisolated(unsafe) var firstError: Error?
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: pages.count) { index in
            do {
                try writeFile(root + "/" + pages[index].path, pages[index].bytes)
            } catch {
                lock.lock()
                if firstError == nil { firstError = error }
                lock.unlock()
            }
        }
        if let firstError { throw firstError }
    }

    /// Creates every folder the pages need below `root`.
    private static func createDirectories(for pages: [RenderedPage], in root: String) throws {
        var directories = Set<String>()
        for page in pages {
            var path = page.path
            while let slash = path.lastIndex(of: "/") {
                path = String(path[..<slash])
                if !directories.insert(path).inserted { break }
            }
        }
        // Sorted, parents come before their children, so plain mkdir suffices; it is much
        // cheaper than FileManager's, which checks every parent again.
        for directory in directories.sorted() where mkdir(root + "/" + directory, 0o755) != 0 {
            guard errno == EEXIST else { throw SystemError.last }
        }
    }

    /// One `open`/`write`/`close`: no intermediate `Data` copy.
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw SystemError.last }
        defer { close(descriptor) }
        var offset = 0
        try bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = systemWrite(
                    descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else { throw SystemError.last }
                offset += written
            }
        }
    }

    #if canImport(Glibc)
        private static let systemWrite = Glibc.write
    #else
        private static let systemWrite = Darwin.write
    #endif

    /// Removes what an interrupted build left beside the output folder, and restores the
    /// previous site if a build died between its two renames.
    private func cleanUpLeftovers(parent: String, name: String) {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: parent) else { return }
        let output = parent + "/" + name
        for entry in entries.sorted() {
            let path = parent + "/" + entry
            guard entry.hasPrefix(".\(name).fruitsite-"),
                manager.fileExists(atPath: path + "/" + Self.markerName)
            else { continue }
            if entry.hasPrefix(".\(name).fruitsite-old-"), !manager.fileExists(atPath: output) {
                _ = rename(path, output)
            } else {
                Self.removeLeftover(path)
            }
        }
    }

    /// Removes one of our own hidden folders, its marker last, so that a removal cut short
    /// still leaves the folder recognisable to the next build's clean-up.
    private static func removeLeftover(_ folder: String) {
        let manager = FileManager.default
        for entry in (try? manager.contentsOfDirectory(atPath: folder)) ?? []
        where entry != markerName {
            try? manager.removeItem(atPath: folder + "/" + entry)
        }
        try? manager.removeItem(atPath: folder)
    }

    /// The absolute, standardized path, with symbolic links resolved where the path exists.
    static func absolute(_ path: String) -> String {
        let url = URL(
            fileURLWithPath: path,
            relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.resolvingSymlinksInPath().path
    }
}
