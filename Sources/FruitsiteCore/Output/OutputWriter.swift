import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the finished site: a clean build into a temporary sibling folder swapped in once
/// every file is written; a later build only the files that changed, into a spare copy of the
/// site made of hard links, swapped in the same way. Either way a failed build leaves the
/// previous site as it was, and a build cut short anywhere leaves the old site or the new one.
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
    /// Keep a spare copy of the site beside it (see `Staging.spare`), which only later,
    /// incremental builds use.
    public var keepsSpare: Bool

    /// Creates a writer.
    /// - Parameters:
    ///   - outputDirectory: Where the site goes.
    ///   - protectedDirectories: Folders that must never be replaced.
    ///   - sourceDirectories: Folders the output must not be written into.
    ///   - force: Replace a non-empty folder without fruitsite's marker file.
    ///   - keepsSpare: Keep a spare copy for incremental builds; false when every build is
    ///     a clean one.
    public init(
        outputDirectory: String, protectedDirectories: [String], sourceDirectories: [String] = [],
        force: Bool = false, keepsSpare: Bool = true
    ) {
        self.outputDirectory = outputDirectory
        self.protectedDirectories = protectedDirectories + sourceDirectories
        self.sourceDirectories = sourceDirectories
        self.force = force
        self.keepsSpare = keepsSpare
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
        var info = stat()
        if lstat(outputDirectory, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
            stat(outputDirectory, &info) != 0
        {
            throw refuse(
                "the output folder is a link to a place that does not exist",
                hint: "create the folder it names, or remove the link")
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
        Self.markerID(in: Self.absolute(outputDirectory))
    }

    /// The model id the marker in `folder` records, if any.
    static func markerID(in folder: String) -> UInt64? {
        let path = folder + "/" + Self.markerName
        // Our own reader: FileManager's leaks its buffer on an empty file, as a spare's
        // marker is while it is changed.
        guard let data = try? FileSystem.readBytes(path, limit: 4096) else { return nil }
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
        /// The folder is a mount point, so its contents were replaced instead of the folder.
        public var isInPlace = false
        /// The spare copy an incremental build changes was missing or out of date, so this
        /// build made it anew from the whole site.
        public var madeSpare = false
        /// Problems that did not stop the build, such as a leftover folder that could not be
        /// removed.
        public var warnings: [Diagnostic] = []
    }

    /// Writes the site in the one order that lets a build cut short anywhere leave either
    /// the previous site or the new one, and a next build that knows which: stage every file
    /// beside the output folder, save the model (`saveModel`), then put the new site in
    /// place in one atomic swap, its marker in it. `begin`, `Staging.add` and
    /// `Staging.commit` are the same steps for files that come a batch at a time.
    ///
    /// Until the marker names the new model's `id`, the folder's marker names a model the
    /// cache no longer holds, so the next build starts clean. A write that fails leaves the
    /// output folder as it was.
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
        var staging = try begin(isWhole: isWhole)
        do {
            try staging.add(files)
            return try staging.commit(removing: removals, id: id, saveModel: saveModel)
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Starts a write whose files come a batch at a time (`Staging.add`), so that a build
    /// holds one batch of pages in memory, not the site: nothing in the output folder
    /// changes until `Staging.commit`.
    /// - Parameter isWhole: Write a whole new folder and swap it in (a clean build), rather
    ///   than the files that changed.
    /// - Throws: `BuildFailure` when the folder is refused.
    public func begin(isWhole: Bool) throws(BuildFailure) -> Staging {
        try validate()
        let warnings = recover()
        let output = Self.absolute(outputDirectory)
        let isInPlace = Self.isMountPoint(output)
        let parent = (output as NSString).deletingLastPathComponent
        let name = (output as NSString).lastPathComponent
        // Inside a mount point, so that renames stay on its file system.
        let folder =
            isInPlace
            ? "\(output)/.fruitsite-tmp-\(getpid())"
            : "\(parent)/.\(name).fruitsite-tmp-\(getpid())"
        let spare = Self.spareFolder(parent: parent, name: name)
        let keepsSpare = keepsSpare && !isInPlace
        // A spare from before the folder became a mount point would be out of date.
        if !keepsSpare { try? Self.retireSpare(spare) }
        return Staging(
            writer: self, output: output, parent: parent, name: name, folder: folder,
            spare: keepsSpare ? spare : nil,
            isWhole: isWhole, isInPlace: isInPlace, warnings: warnings)
    }

    /// The spare copy of the output folder `parent/name` (see `Staging.spare`).
    static func spareFolder(parent: String, name: String) -> String {
        "\(parent)/.\(name).fruitsite-spare"
    }

    /// A write in progress (see `begin(isWhole:)`): files staged in a hidden folder beside the
    /// output folder, or inside it when it is a mount point.
    public struct Staging {
        let writer: OutputWriter
        /// The output folder, absolute, with its parent folder and its name.
        let output: String
        let parent: String
        let name: String
        /// Where files are staged, made with the first file.
        let folder: String
        /// A copy of the site beside the output folder whose files are hard links to the
        /// output's own (no file's bytes are copied), its marker naming the same model when it
        /// is up to date. An incremental build moves its changes into it and swaps it with
        /// the output folder in one atomic step, then brings the old folder, now the spare, up
        /// to date by linking the files that changed: each build costs what it changes, and a
        /// kill at any moment leaves the old site or the new one. A clean build links every
        /// file it writes into a new spare. Nil for a mount point, which cannot be swapped,
        /// and once a spare could not be made (`giveUpSpare`).
        var spare: String?
        let isWhole: Bool
        /// The output folder is a mount point, so its contents are replaced instead.
        let isInPlace: Bool
        var warnings: [Diagnostic]
        /// For changes, the path of each file staged, by its number in `folder`.
        private var paths: [String] = []
        /// How many files were staged.
        private var written = 0
        private var isMade = false

        fileprivate init(
            writer: OutputWriter, output: String, parent: String, name: String, folder: String,
            spare: String?, isWhole: Bool, isInPlace: Bool, warnings: [Diagnostic]
        ) {
            self.writer = writer
            self.output = output
            self.parent = parent
            self.name = name
            self.folder = folder
            self.spare = spare
            self.isWhole = isWhole
            self.isInPlace = isInPlace
            self.warnings = warnings
        }

        /// Stages files: every file of the site for a whole folder, else files whose bytes
        /// changed. The output folder does not change.
        /// - Throws: `BuildFailure` also when a signal is pending (see `SignalDeferral`):
        ///   the build is to stop and discard what it staged.
        public mutating func add(_ files: [RenderedPage]) throws(BuildFailure) {
            if SignalDeferral.isPending { throw writer.interrupted }
            guard !files.isEmpty else { return }
            try writer.reporting { () throws in
                try makeFolder()
                do {
                    try stage(files)
                } catch  where spare != nil {
                    // The spare's folders may be what filled the disk: the site comes first.
                    giveUpSpare(error)
                    try stage(files)
                }
                if !isWhole { paths += files.map(\.path) }
                written += files.count
            }
        }

        private mutating func stage(_ files: [RenderedPage]) throws {
            if isWhole {
                if let problem = try OutputWriter.writeAll(files, into: folder, linkingInto: spare)
                {
                    giveUpSpare(problem)
                }
            } else {
                // Numbered, not named: the folder holds the marker, and paths would need
                // folders.
                let numbered = files.indices.map {
                    RenderedPage(path: "\(paths.count + $0)", bytes: files[$0].bytes)
                }
                _ = try OutputWriter.writeAll(numbered, into: folder, linkingInto: nil)
            }
        }

        /// Puts what was staged in place, removes `removals`, and writes the marker last.
        /// - Parameters:
        ///   - removals: Files the site no longer has.
        ///   - id: The id of the model that describes the new folder, for the marker.
        ///   - saveModel: Saves that model; called once every file is staged.
        /// - Throws: `BuildFailure`; the output folder is then as it was, and the staged
        ///   files gone.
        public mutating func commit(
            removing removals: [String] = [], id: UInt64, saveModel: () -> Void = {}
        ) throws(BuildFailure) -> Summary {
            if SignalDeferral.isPending { throw writer.interrupted }
            var summary: Summary
            do {
                summary = try writer.reporting { () throws -> Summary in
                    // Nothing staged, nothing to remove, the marker right: touch nothing.
                    if !isWhole && paths.isEmpty && removals.isEmpty && writer.markerID() == id {
                        saveModel()
                        return Summary(written: 0, removed: 0)
                    }
                    try makeFolder()
                    if isWhole {
                        return isInPlace
                            ? try replaceContents(id: id, saveModel: saveModel)
                            : try swapInWhole(id: id, saveModel: saveModel)
                    }
                    let madeSpare = readySpare()
                    if let spare {
                        var summary = try swapInChanges(
                            spare: spare, removing: removals, id: id, saveModel: saveModel)
                        summary.madeSpare = madeSpare
                        return summary
                    }
                    return try renameChanges(removing: removals, id: id, saveModel: saveModel)
                }
            } catch {
                discard()
                throw error
            }
            summary.warnings = warnings + summary.warnings
            return summary
        }

        /// Removes what was staged, and a clean build's unfinished spare; the output folder is
        /// left as it was.
        public func discard() {
            if isWhole, let spare { try? OutputWriter.retireSpare(spare) }
            guard FileManager.default.fileExists(atPath: folder) else { return }
            if isInPlace {
                OutputWriter.discard(folder)
            } else {
                _ = OutputWriter.removeLeftover(folder)
            }
        }

        private mutating func makeFolder() throws {
            guard !isMade else { return }
            try? FileManager.default.removeItem(atPath: folder)
            // An empty marker first: should the build die now, the next one knows the folder
            // as its own leftover. A whole folder's real one replaces it once every file is
            // written.
            try OutputWriter.makeMarkedDirectory(folder)
            if isWhole, let spare {
                // The old spare copies a site this build replaces.
                do {
                    try OutputWriter.retireSpare(spare)
                    try OutputWriter.makeMarkedDirectory(spare)
                } catch {
                    giveUpSpare(error)
                }
            }
            isMade = true
        }

        /// Makes the spare copy up to date for an incremental build, from the whole site when
        /// its marker does not name the output's model.
        /// - Returns: Whether it was made anew.
        private mutating func readySpare() -> Bool {
            guard let spare else { return false }
            let current = OutputWriter.markerID(in: output)
            // A link in the spare's place is no spare, whatever its marker says.
            var info = stat()
            let isFolder = lstat(spare, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            guard current == nil || !isFolder || OutputWriter.markerID(in: spare) != current else {
                return false
            }
            do {
                try OutputWriter.retireSpare(spare)
                try OutputWriter.makeMarkedDirectory(spare)
                try OutputWriter.linkTree(from: output, to: spare)
                return true
            } catch {
                giveUpSpare(error)
                return false
            }
        }

        /// Goes on without a spare copy when one cannot be made (no inodes left, a folder
        /// that cannot be written): changed files are then renamed into place one by one,
        /// as into a mount point, and the build says so.
        private mutating func giveUpSpare(_ problem: any Error) {
            guard let spare else { return }
            try? OutputWriter.retireSpare(spare)
            warnings.append(
                .warning(
                    at: SourceLocation(path: spare),
                    "could not keep a spare copy of the site: \(problem)",
                    hint:
                        "changed files are renamed into place one by one until it can, so a kill "
                        + "during that can leave some pages old and others new"))
            self.spare = nil
        }

        // MARK: Clean builds

        /// A clean build: everything was staged in a folder beside the output; one atomic
        /// exchange with the old folder (or, where the system has none, two renames).
        private mutating func swapInWhole(id: UInt64, saveModel: () -> Void) throws -> Summary {
            for site in [folder] + (spare.map { [$0] } ?? []) {
                try OutputWriter.writeMarker(in: site, id: id)
            }
            saveModel()
            guard try writer.swapIn(folder, output: output, parent: parent, name: name) else {
                if let spare { try? OutputWriter.retireSpare(spare) }
                // The folder cannot be renamed: a mount point the check in `begin` did not
                // see. Stage the site again inside it.
                var inside = Staging(
                    writer: writer, output: output, parent: parent, name: name,
                    folder: "\(output)/.fruitsite-tmp-\(getpid())", spare: nil, isWhole: true,
                    isInPlace: true, warnings: [])
                try? FileManager.default.removeItem(atPath: inside.folder)
                try FileManager.default.copyItem(atPath: folder, toPath: inside.folder)
                _ = OutputWriter.removeLeftover(folder)
                inside.isMade = true
                inside.written = written
                return try inside.replaceContents(id: id, saveModel: {})
            }
            var summary = Summary(written: written, removed: 0, isWholeFolder: true)
            // The new site is in place: a signal need not wait for the old one's removal,
            // which the next build finishes.
            if !OutputWriter.removeLeftover(folder, stopsOnSignal: true),
                !SignalDeferral.isPending
            {
                summary.warnings += [OutputWriter.leftoverWarning(folder)]
            }
            return summary
        }

        /// Replaces the contents of an output folder that cannot itself be renamed (a mount
        /// point): the new site was staged inside it; the old entries are moved into a hidden
        /// folder inside it and the new ones up, the marker last. A failure undoes the moves;
        /// a build killed in their middle is finished by the next one (`recoverInPlace`).
        private func replaceContents(id: UInt64, saveModel: () -> Void) throws -> Summary {
            let names = try OutputWriter.names(in: folder).filter { $0 != OutputWriter.markerName }
            try OutputWriter.writeFile(
                folder + "/" + OutputWriter.namesFile,
                Array(names.sorted().joined(separator: "\0").utf8))
            try OutputWriter.writeFile(
                folder + "/" + OutputWriter.markerName, OutputWriter.marker(id: id))
            saveModel()
            try SignalDeferral.run { () throws in
                do {
                    try OutputWriter.moveContents(from: folder, into: output)
                } catch {
                    OutputWriter.undoMove(staging: folder, output: output)
                    OutputWriter.discard(folder)
                    _ = OutputWriter.removeLeftover(OutputWriter.retiredFolder(for: folder))
                    throw writer.failure(
                        "could not replace the contents of the output folder", error)
                }
            }
            var summary = Summary(
                written: written, removed: 0, isWholeFolder: true, isInPlace: true)
            for path in [folder, OutputWriter.retiredFolder(for: folder)]
            where !OutputWriter.removeLeftover(path) {
                summary.warnings.append(OutputWriter.leftoverWarning(path))
            }
            return summary
        }

        // MARK: Incremental builds

        /// An incremental build with no spare (into a mount point, which cannot be swapped):
        /// each changed file, staged under its number, is renamed into place, so every file is
        /// either its old or its new self; files the site no longer has are removed; the
        /// marker is replaced last. Every folder to be changed is checked writable first, and
        /// a rename that fails all the same undoes those before it.
        private func renameChanges(removing: [String], id: UInt64, saveModel: () -> Void)
            throws -> Summary
        {
            let (output, folder, paths) = (output, folder, paths)
            try OutputWriter.writeFile(folder + "/marker", OutputWriter.marker(id: id))
            try writer.checkWritable(paths + removing + [OutputWriter.markerName], in: output)
            saveModel()
            // From here the folder changes: keep Ctrl-C from stopping it half way.
            let removed = try SignalDeferral.run { () throws -> Int in
                var undo: [() -> Void] = []
                do {
                    // Removals first: a file that becomes a folder (or the reverse) must be
                    // out of the way of what takes its name.
                    var removed = 0
                    for (index, path) in removing.sorted().enumerated() {
                        let backup = "\(folder)/removed-\(index)"
                        guard rename(output + "/" + path, backup) == 0 else {
                            if errno == ENOENT { continue }
                            throw SystemError.last
                        }
                        undo.append { rename(backup, output + "/" + path) }
                        removed += 1
                        // Remove folders the site no longer has, such as fruits/<old-slug>/.
                        var parent = OutputWriter.folder(of: path)
                        while !parent.isEmpty, rmdir(output + "/" + parent) == 0 {
                            let made = parent
                            undo.append { mkdir(output + "/" + made, 0o755) }
                            parent = OutputWriter.folder(of: parent)
                        }
                    }
                    let made = try OutputWriter.createDirectories(for: paths, in: output)
                    undo.append { for made in made.reversed() { rmdir(output + "/" + made) } }
                    for (index, path) in paths.enumerated() {
                        let target = output + "/" + path
                        let backup = "\(folder)/old-\(index)"
                        let hadOld = link(target, backup) == 0
                        guard rename("\(folder)/\(index)", target) == 0 else {
                            throw SystemError.last
                        }
                        undo.append {
                            if hadOld { rename(backup, target) } else { unlink(target) }
                        }
                    }
                    guard
                        rename(folder + "/marker", output + "/" + OutputWriter.markerName) == 0
                    else {
                        throw SystemError.last
                    }
                    return removed
                } catch {
                    for step in undo.reversed() { step() }
                    throw error
                }
            }
            discard()
            return Summary(written: written, removed: removed)
        }

        /// An incremental build: the spare copy, up to date (`readySpare`), takes the staged files and
        /// loses the removed ones, gets the new marker, and is swapped with the output folder
        /// in one atomic step. The old folder, now the spare, is then brought up to date by
        /// linking the changed files, so the next build finds it ready.
        private func swapInChanges(
            spare: String, removing: [String], id: UInt64, saveModel: () -> Void
        ) throws -> Summary {
            let (output, folder, paths) = (output, folder, paths)
            var summary = Summary(written: written, removed: 0)
            // From the first change on, the spare is no copy of any site.
            try OutputWriter.writeMarker(in: spare, id: nil)
            // Removals first: a file that becomes a folder (or the reverse) must be out of the
            // way of what takes its name.
            summary.removed = try OutputWriter.remove(removing, from: spare)
            try OutputWriter.createDirectories(for: paths, in: spare)
            // On every core, here and below: a file replaced is freed in the call, which was
            // most of a build that moved a fruit across the catalog.
            try OutputWriter.forEachConcurrently(Array(paths.enumerated())) { index, path in
                guard rename("\(folder)/\(index)", spare + "/" + path) == 0 else {
                    throw PathError(path: spare + "/" + path, error: .last)
                }
            }
            try OutputWriter.writeMarker(in: spare, id: id)
            saveModel()
            guard try writer.swapIn(spare, output: output, parent: parent, name: name) else {
                try? OutputWriter.retireSpare(spare)
                throw writer.failure("could not swap in the new site", SystemError(code: EBUSY))
            }
            discard()
            // The spare holds the old site now. Should this fail, the next build makes a new
            // one.
            do {
                try OutputWriter.writeMarker(in: spare, id: nil)
                _ = try OutputWriter.remove(removing, from: spare)
                try OutputWriter.createDirectories(for: paths, in: spare)
                try OutputWriter.forEachConcurrently(paths) { path in
                    unlink(spare + "/" + path)
                    guard link(output + "/" + path, spare + "/" + path) == 0 else {
                        throw PathError(path: spare + "/" + path, error: .last)
                    }
                }
                try OutputWriter.writeMarker(in: spare, id: id)
            } catch {
                try? OutputWriter.retireSpare(spare)
            }
            return summary
        }
    }

    /// Clears what builds that are gone left beside and inside the output folder: puts the
    /// previous site back if a build died between two renames, finishes or undoes a
    /// replacement of a mount point's contents. Call it holding the `OutputLock`, which is
    /// what tells that the builds that left them are gone.
    /// - Returns: Warnings for leftovers that could not be removed.
    @discardableResult
    public func recover() -> [Diagnostic] {
        let output = Self.absolute(outputDirectory)
        let parent = (output as NSString).deletingLastPathComponent
        let name = (output as NSString).lastPathComponent
        var warnings: [Diagnostic] = []
        for path in recoverInPlace(output) + cleanUpLeftovers(parent: parent, name: name) {
            warnings.append(
                .warning(
                    at: SourceLocation(path: path),
                    "could not remove a folder an interrupted build left",
                    hint: "remove it by hand"))
        }
        return warnings
    }

    // MARK: - Swaps

    /// Puts the complete folder `staging` in the place of `output`: one atomic exchange
    /// where the system has it, else two renames (a build that dies between them is undone
    /// by the next one's clean-up). Afterwards `staging` holds the old site, if there was
    /// one.
    /// - Returns: False when `output` is a folder that cannot be moved (a mount point);
    ///   nothing was changed then.
    private func swapIn(_ staging: String, output: String, parent: String, name: String)
        throws -> Bool
    {
        try SignalDeferral.run { () throws -> Bool in
            var old = stat()
            guard stat(output, &old) == 0 else {
                guard rename(staging, output) == 0 else {
                    throw failure("could not move the new site into place", SystemError.last)
                }
                return true
            }
            // The new folder takes the old one's permissions and, where allowed, its group
            // (a web server's, say), as the folder that stays in place would keep them.
            _ = chown(staging, uid_t.max, old.st_gid)
            chmod(staging, old.st_mode & 0o7777)
            if let code = Self.exchange(staging, output) {
                if code == 0 { return true }
                if code == EBUSY || code == EXDEV { return false }
                if code != EINVAL && code != ENOSYS {
                    throw failure("could not swap in the new site", SystemError(code: code))
                }
            }
            // No atomic exchange here: two renames.
            let retired = "\(parent)/.\(name).fruitsite-old-\(getpid())"
            guard rename(output, retired) == 0 else {
                let error = SystemError.last
                if error.code == EBUSY || error.code == EXDEV { return false }
                throw failure("could not move the previous site aside", error)
            }
            guard rename(staging, output) == 0 else {
                let error = SystemError.last
                _ = rename(retired, output)
                throw failure("could not swap in the new site", error)
            }
            _ = rename(retired, staging)
            return true
        }
    }

    /// Checks, before anything is renamed, that every folder a change touches can be
    /// written: the deepest existing folder on the way to each path.
    private func checkWritable(_ paths: [String], in output: String) throws {
        var checked = Set<String>()
        for path in paths {
            var folder = Self.folder(of: path)
            while !folder.isEmpty, !FileManager.default.fileExists(atPath: output + "/" + folder) {
                folder = Self.folder(of: folder)
            }
            let full = folder.isEmpty ? output : output + "/" + folder
            guard checked.insert(full).inserted else { continue }
            if access(full, W_OK) != 0 {
                throw failure("cannot write to the folder '\(full)'", SystemError.last)
            }
        }
    }

    // MARK: - Mount points

    /// The file in a staging folder inside a mount point that lists the names the new site
    /// has at its top, separated by NUL bytes: what lets a cut replacement be finished.
    static let namesFile = ".fruitsite-names"

    /// Moves every entry of `output` (its marker and hidden working folders aside) into a
    /// retired folder inside it, then every entry of `staging` up into `output`, the marker
    /// last. Run again after a cut, it carries on where it stopped: an entry the new site has
    /// that is no longer in `staging` was already moved up.
    private static func moveContents(from staging: String, into output: String) throws {
        let manager = FileManager.default
        let retired = retiredFolder(for: staging)
        if !manager.fileExists(atPath: retired) {
            try makeDirectory(retired)
            try writeFile(retired + "/" + markerName, [])
        }
        let names = try stagedNames(staging)
        for entry in try Self.names(in: output).sorted()
        where entry != markerName && !entry.hasPrefix(".fruitsite-") {
            let isMovedUp =
                names.contains(entry) && !manager.fileExists(atPath: staging + "/" + entry)
            if !isMovedUp, rename(output + "/" + entry, retired + "/" + entry) != 0 {
                throw SystemError.last
            }
        }
        for entry in names.sorted() where manager.fileExists(atPath: staging + "/" + entry) {
            guard rename(staging + "/" + entry, output + "/" + entry) == 0 else {
                throw SystemError.last
            }
        }
        guard rename(staging + "/" + markerName, output + "/" + markerName) == 0 else {
            throw SystemError.last
        }
    }

    private static func retiredFolder(for staging: String) -> String {
        let name = (staging as NSString).lastPathComponent
        return (staging as NSString).deletingLastPathComponent + "/"
            + name.replacingOccurrences(of: "-tmp-", with: "-old-")
    }

    private static func stagedNames(_ staging: String) throws -> Set<String> {
        let bytes = try FileSystem.readBytes(staging + "/" + namesFile)
        return Set(bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }

    /// Undoes a `moveContents` that failed: new entries back into `staging`, old ones back
    /// up.
    private static func undoMove(staging: String, output: String) {
        let manager = FileManager.default
        let retired = retiredFolder(for: staging)
        for entry in (try? stagedNames(staging)) ?? []
        where !manager.fileExists(atPath: staging + "/" + entry) {
            _ = rename(output + "/" + entry, staging + "/" + entry)
        }
        for entry in (try? manager.contentsOfDirectory(atPath: retired)) ?? []
        where entry != markerName {
            _ = rename(retired + "/" + entry, output + "/" + entry)
        }
    }

    /// Finishes a replacement of a mount point's contents that a build was cut short in:
    /// forward when its staged site was complete (its marker written, and not yet moved up);
    /// otherwise nothing had moved yet, or everything had.
    /// - Returns: Leftover folders that could not be removed.
    private func recoverInPlace(_ output: String) -> [String] {
        let manager = FileManager.default
        var stuck: [String] = []
        let entries = ((try? manager.contentsOfDirectory(atPath: output)) ?? []).sorted()
        for entry in entries where entry.hasPrefix(".fruitsite-tmp-") {
            let staging = output + "/" + entry
            let marker = staging + "/" + Self.markerName
            if ((try? FileSystem.readBytes(marker)) ?? []).count > 0 {
                if (try? Self.moveContents(from: staging, into: output)) == nil {
                    Self.undoMove(staging: staging, output: output)
                    Self.discard(staging)
                }
            }
        }
        for entry in (try? manager.contentsOfDirectory(atPath: output)) ?? []
        where entry.hasPrefix(".fruitsite-tmp-") || entry.hasPrefix(".fruitsite-old-") {
            if !Self.removeLeftover(output + "/" + entry) { stuck.append(output + "/" + entry) }
        }
        return stuck
    }

    /// Whether `path` is a mount point, which cannot be renamed: on another device than its
    /// parent, or listed in the process's mount table (a bind mount of the same device).
    static func isMountPoint(_ path: String) -> Bool {
        var own = stat()
        var parent = stat()
        guard stat(path, &own) == 0, stat(path + "/..", &parent) == 0 else { return false }
        if own.st_dev != parent.st_dev { return true }
        #if os(Linux)
            guard let table = try? FileSystem.readBytes("/proc/self/mountinfo") else {
                return false
            }
            for line in String(decoding: table, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count > 4 else { continue }
                // Spaces and other bytes in mount points are written as octal escapes.
                if Self.unescapeMountPath(fields[4]) == path { return true }
            }
        #endif
        return false
    }

    private static func unescapeMountPath(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        var characters = Array(field.utf8)[...]
        while let byte = characters.popFirst() {
            if byte == UInt8(ascii: "\\"), characters.count >= 3,
                let value = UInt8(String(decoding: characters.prefix(3), as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                characters = characters.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - System calls

    #if os(Linux)
        private typealias RenameAt2 =
            @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32)
            -> Int32
        /// glibc's `renameat2`, which Swift's Glibc module does not show (it needs
        /// _GNU_SOURCE); looked up once.
        private static let renameAt2: RenameAt2? = dlsym(nil, "renameat2").map {
            unsafeBitCast($0, to: RenameAt2.self)
        }
    #endif

    /// Swaps two paths in one atomic step (`renameat2` with `RENAME_EXCHANGE`).
    /// - Returns: 0, or the `errno` of the failure; nil where the system has no such call.
    static func exchange(_ first: String, _ second: String) -> Int32? {
        #if os(Linux)
            guard let renameAt2 else { return nil }
            let renameExchange: UInt32 = 1 << 1
            return renameAt2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0 ? 0 : errno
        #else
            return nil
        #endif
    }

    /// A failure naming the output folder, with the system's own reason.
    /// Runs a step of a write, reporting an error other than a `BuildFailure` as one that
    /// names the output folder.
    private func reporting<Result>(_ step: () throws -> Result) throws(BuildFailure) -> Result {
        do {
            return try step()
        } catch let failure as BuildFailure {
            throw failure
        } catch {
            throw BuildFailure([
                .error(
                    at: SourceLocation(path: outputDirectory), "could not write the site: \(error)")
            ])
        }
    }

    /// What a build stopped by a signal throws, after which the signal takes its course.
    private var interrupted: BuildFailure {
        BuildFailure([
            .error(
                at: SourceLocation(path: outputDirectory),
                "the build was interrupted; the output folder is as it was")
        ])
    }

    private func failure(_ message: String, _ error: any Error) -> BuildFailure {
        BuildFailure([.error(at: SourceLocation(path: outputDirectory), "\(message): \(error)")])
    }

    private static func leftoverWarning(_ path: String) -> Diagnostic {
        .warning(
            at: SourceLocation(path: path), "could not remove a folder this build left",
            hint: "remove it by hand")
    }

    // MARK: - Files

    /// Writes pages below `root` on every core, after making their folders, then hard-links
    /// each into the same place below `spare`, if any, which has the same folders as `root`.
    /// Folders an earlier call made are made again and answer EEXIST: a few calls per batch,
    /// where remembering them took 110 bytes a fruit.
    /// - Returns: Why the pages could not all be linked into `spare`, if they could not.
    /// - Throws: When a page cannot be written below `root`.
    private static func writeAll(
        _ pages: [RenderedPage], into root: String, linkingInto spare: String?
    ) throws -> (any Error)? {
        let folders = try createDirectories(for: pages.map(\.path), in: root)
        try forEachConcurrently(pages) { page in
            try writeFile(root + "/" + page.path, page.bytes)
        }
        guard let spare else { return nil }
        do {
            for folder in folders { try makeDirectory(spare + "/" + folder) }
            try forEachConcurrently(pages) { page in
                guard link(root + "/" + page.path, spare + "/" + page.path) == 0 else {
                    throw PathError(path: spare + "/" + page.path, error: .last)
                }
            }
            return nil
        } catch {
            return error
        }
    }

    /// Runs `body` for every element of `items` on every core.
    /// - Throws: The first error `body` threw, once every element has had its turn.
    private static func forEachConcurrently<Item: Sendable>(
        _ items: [Item], _ body: @Sendable (Item) throws -> Void
    ) throws {
        nonisolated(unsafe) var firstError: Error?
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            do {
                try body(items[index])
            } catch {
                lock.lock()
                if firstError == nil { firstError = error }
                lock.unlock()
            }
        }
        if let firstError { throw firstError }
    }

    /// Creates every folder the files at `paths` need below `root`; those that exist answer
    /// EEXIST.
    /// - Returns: The folders made, parents first.
    @discardableResult
    private static func createDirectories(
        for paths: [String], in root: String
    ) throws -> [String] {
        var directories = Set<String>()
        for var path in paths {
            while let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) {
                path = String(path[..<slash])
                if !directories.insert(path).inserted { break }
            }
        }
        // Sorted, parents come before their children, so plain mkdir suffices; it is much
        // cheaper than FileManager's, which checks every parent again.
        var made: [String] = []
        for directory in directories.sorted() {
            if mkdir(root + "/" + directory, 0o755) == 0 {
                made.append(directory)
            } else if errno != EEXIST {
                throw SystemError.last
            }
        }
        return made
    }

    /// The names in a folder, with the folder's path in the error.
    private static func names(in folder: String) throws -> [String] {
        do {
            return try FileSystem.local.list(folder).map(\.name)
        } catch let error as SystemError {
            throw PathError(path: folder, error: error)
        }
    }

    /// The folder part of a relative path: "" for a file at the top.
    static func folder(of path: String) -> String {
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? ""
    }

    /// `mkdir` with the folder's path in the error.
    private static func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 else { throw PathError(path: path, error: .last) }
    }

    /// Makes one of our hidden folders with an empty marker in it: should the build die now,
    /// the next one knows the folder as its own, and as a copy of no site.
    private static func makeMarkedDirectory(_ path: String) throws {
        try makeDirectory(path)
        try writeFile(path + "/" + markerName, [])
    }

    /// Replaces the marker in `folder` with a new file naming model `id`, or an empty one
    /// for none. A new file, not the old one rewritten: the old one may be the live site's.
    private static func writeMarker(in folder: String, id: UInt64?) throws {
        let path = folder + "/" + markerName
        let temporary = folder + "/" + markerName + ".new"
        try writeFile(temporary, id.map(marker(id:)) ?? [])
        guard rename(temporary, path) == 0 else { throw PathError(path: path, error: .last) }
    }

    /// Removes the files at `paths` below `root`, and the folders that leaves empty, such as
    /// fruits/<old-slug>/.
    /// - Returns: How many of the files were there.
    private static func remove(_ paths: [String], from root: String) throws -> Int {
        var removed = 0
        for path in paths {
            guard unlink(root + "/" + path) == 0 else {
                if errno == ENOENT { continue }
                throw PathError(path: root + "/" + path, error: .last)
            }
            removed += 1
            var parent = folder(of: path)
            while !parent.isEmpty, rmdir(root + "/" + parent) == 0 {
                parent = folder(of: parent)
            }
        }
        return removed
    }

    /// Recreates the folders below `source` in `destination` and hard-links every file but
    /// the marker.
    private static func linkTree(from source: String, to destination: String) throws {
        var pending = [""]
        while let folder = pending.popLast() {
            let path = folder.isEmpty ? source : source + "/" + folder
            let entries: [FileSystem.Entry]
            do {
                entries = try FileSystem.local.list(path)
            } catch let error as SystemError {
                throw PathError(path: path, error: error)
            }
            for entry in entries {
                let relative = folder.isEmpty ? entry.name : folder + "/" + entry.name
                if relative == markerName { continue }
                let from = source + "/" + relative
                let to = destination + "/" + relative
                switch entry.kind {
                case .directory:
                    try makeDirectory(to)
                    pending.append(relative)
                default:
                    guard link(from, to) == 0 else { throw PathError(path: to, error: .last) }
                }
            }
        }
    }

    /// One `open`/`write`/`close`: no intermediate `Data` copy. Unless `replacing`, a file
    /// already at `path` is an error (`EEXIST`) and stays as it was.
    static func writeFile(_ path: String, _ bytes: [UInt8], replacing: Bool = true) throws {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replacing ? O_TRUNC : O_EXCL)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw PathError(path: path, error: .last) }
        defer { close(descriptor) }
        try write(bytes, to: descriptor, path: path)
    }

    /// Writes all of `bytes` to an open file; `path` names it in errors.
    static func write(_ bytes: some ContiguousBytes, to descriptor: Int32, path: String) throws {
        var offset = 0
        try bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = systemWrite(
                    descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else {
                    if written < 0 && errno == EINTR { continue }
                    throw PathError(path: path, error: .last)
                }
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
    /// previous site if a build died between its two renames. The spare copy stays: a build
    /// checks its marker before it uses it.
    /// - Returns: The leftovers that could not be removed.
    private func cleanUpLeftovers(parent: String, name: String) -> [String] {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: parent) else { return [] }
        let output = parent + "/" + name
        var stuck: [String] = []
        let spare = (Self.spareFolder(parent: parent, name: name) as NSString).lastPathComponent
        for entry in entries.sorted() where entry != spare {
            let path = parent + "/" + entry
            guard entry.hasPrefix(".\(name).fruitsite-") else { continue }
            // Never ours: a link is removed, not followed, nor moved into the output's place.
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                unlink(path)
                continue
            }
            // Made by a build killed before it could write the marker: nothing to lose.
            if rmdir(path) == 0 { continue }
            guard manager.fileExists(atPath: path + "/" + Self.markerName) else { continue }
            if entry.hasPrefix(".\(name).fruitsite-old-"), !manager.fileExists(atPath: output) {
                _ = rename(path, output)
            } else if !Self.removeLeftover(path) {
                stuck.append(path)
            }
        }
        return stuck
    }

    /// Removes one of our own hidden folders, its marker last, so that a removal cut short
    /// still leaves the folder recognisable to the next build's clean-up.
    /// - Parameter stopsOnSignal: Stop once a signal is held (`SignalDeferral.isPending`),
    ///   if the folder has a marker: the next build's clean-up then removes the rest.
    /// - Returns: Whether the folder is gone.
    private static func removeLeftover(_ folder: String, stopsOnSignal: Bool = false) -> Bool {
        // A link (or a file) in a leftover's place is removed itself, never what it names:
        // anyone who can write beside the output folder could point it anywhere.
        var info = stat()
        guard lstat(folder, &info) == 0 else { return errno == ENOENT }
        if info.st_mode & S_IFMT != S_IFDIR { return unlink(folder) == 0 || errno == ENOENT }
        guard let entries = try? FileSystem.local.list(folder) else {
            return access(folder, F_OK) != 0
        }
        let stops = stopsOnSignal && entries.contains { $0.name == markerName }
        let isStopped = { @Sendable in stops && SignalDeferral.isPending }
        // What lies two levels down first, on every core: a site is mostly `fruits/<slug>/`,
        // and removing 100,000 of those one by one took 2.9 s on tmpfs, two at a time 1.7 s.
        // The loop below then removes what is left, and what this could not.
        var below: [(path: String, isDirectory: Bool)] = []
        for entry in entries where entry.kind == .directory {
            let path = folder + "/" + entry.name
            for child in (try? FileSystem.local.list(path)) ?? [] {
                below.append((path + "/" + child.name, child.kind == .directory))
            }
        }
        try? forEachConcurrently(below) {
            if !isStopped() { _ = removeTree($0.path, isDirectory: $0.isDirectory) }
        }
        var isEmptied = true
        for entry in entries where entry.name != markerName {
            if isStopped() { return false }
            let path = folder + "/" + entry.name
            if !removeTree(path, isDirectory: entry.kind == .directory) {
                // What the quick way cannot name (not UTF-8), FileManager may.
                try? FileManager.default.removeItem(atPath: path)
                isEmptied = isEmptied && access(path, F_OK) != 0
            }
        }
        guard isEmptied else { return false }
        unlink(folder + "/" + markerName)
        return rmdir(folder) == 0 || errno == ENOENT
    }

    /// Removes a file, or a folder and all below it: plain `unlink` and `rmdir`, several
    /// times quicker than FileManager's on a site's thousands of folders.
    /// - Returns: Whether all of it is gone.
    private static func removeTree(_ path: String, isDirectory: Bool) -> Bool {
        guard isDirectory else { return unlink(path) == 0 || errno == ENOENT }
        guard let entries = try? FileSystem.local.list(path) else { return false }
        var isEmptied = true
        for entry in entries {
            let removed = removeTree(path + "/" + entry.name, isDirectory: entry.kind == .directory)
            isEmptied = isEmptied && removed
        }
        return isEmptied && rmdir(path) == 0
    }

    /// Removes a spare copy that is out of date. It is renamed first, in one step: a spare
    /// half removed still has the marker that says it is up to date. One that cannot be
    /// removed (a folder in it that cannot be written) stays under that name, and each build
    /// warns about it.
    private static func retireSpare(_ spare: String) throws {
        // The name's own suffix: a folder above may have `-spare` in its name too.
        let retired = String(spare.dropLast("-spare".count)) + "-retired-\(getpid())"
        guard rename(spare, retired) == 0 else {
            if errno == ENOENT { return }
            throw PathError(path: spare, error: .last)
        }
        _ = removeLeftover(retired)
    }

    /// Removes a staging folder inside a mount point whose site must not be moved up: its
    /// marker first, so that it no longer counts as complete.
    private static func discard(_ staging: String) {
        unlink(staging + "/" + markerName)
        try? FileManager.default.removeItem(atPath: staging)
    }

    /// The absolute path with every symbolic link resolved, as the kernel follows them; the
    /// names after the last one that exists are appended as written, `.` left out and `..`
    /// taking off the name before it.
    ///
    /// `realpath` rather than `URL`, which took about 100,000 instructions for each of the
    /// fourteen paths a build checks.
    static func absolute(_ path: String) -> String {
        let names = path.split(separator: "/")
        for existing in stride(from: names.count, through: 0, by: -1) {
            let head = (path.hasPrefix("/") ? "/" : "") + names[..<existing].joined(separator: "/")
            guard let resolved = realpath(head.isEmpty ? "." : head, nil) else { continue }
            var result = String(cString: resolved)
            free(resolved)
            for name in names[existing...] where name != "." {
                if name != ".." {
                    result += (result.hasSuffix("/") ? "" : "/") + name
                } else if let slash = result.lastIndex(of: "/") {
                    result = slash == result.startIndex ? "/" : String(result[..<slash])
                }
            }
            return result
        }
        // Not even the working folder resolves (it was removed).
        return path
    }
}
