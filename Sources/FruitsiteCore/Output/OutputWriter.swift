/// Writes the finished site: a clean build into a temporary sibling folder swapped in once
/// every file is written; a later build only the files that changed, into a spare copy of the
/// site made of hard links, swapped in the same way. Either way a failed build leaves the
/// previous site as it was, and a build cut short anywhere leaves the old site or the new one.
///
/// The only stage that touches the output folder. Its files, by job: which folders it may
/// replace (`OutputWriter+Policy`), the marker (`OutputMarker`), staging (`Staging`), the one
/// order of a commit (`Commit`) and its strategies (`WholeSwap`, `SpareSwap`,
/// `ContentsReplacement`, `RenamedChanges`), the spare copy (`SpareCopy`), what a build cut
/// short left (`LeftoverRecovery`), mount points (`MountTable`), and the system calls, all
/// through one injected value (`OutputFileSystem`).
public struct OutputWriter: Sendable {
    /// The file that marks a folder as fruitsite's own output, safe to replace.
    public static let markerName = OutputMarker.name

    /// The output folder as the user named it.
    public var outputDirectory: String
    /// Folders the output must neither be nor contain (the project, content and templates).
    public var protectedDirectories: [String]
    /// Folders the output must not sit inside either (content and templates).
    public var sourceDirectories: [String]
    /// Replace a non-empty folder that fruitsite did not create.
    public var force: Bool
    /// Keep a spare copy of the site beside it (see `SpareCopy`), which only later,
    /// incremental builds use.
    public var keepsSpare: Bool
    /// Every system call the writer makes; a test's fails where it chooses.
    var fileSystem = OutputFileSystem.local

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

    /// The id of the site model that describes the output folder, as its marker records
    /// it; nil when there is no marker or it names none (the folder comes from an older
    /// fruitsite).
    public func markerID() -> UInt64? {
        OutputMarker.id(
            in: Self.absolute(outputDirectory, fileSystem: fileSystem), fileSystem: fileSystem)
    }

    /// The model id the marker in `folder` records, if any.
    static func markerID(in folder: String) -> UInt64? {
        OutputMarker.id(in: folder, fileSystem: .local)
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

    /// Starts a write whose files come a batch at a time (`Staging.add`), so that a build
    /// holds one batch of pages in memory, not the site: nothing in the output folder
    /// changes until `Staging.commit`, which saves the model and puts the site in place in
    /// the one order that lets a build cut short anywhere leave the previous site or the new
    /// one, and a next build that knows which (see `Commit`).
    /// - Parameter isWhole: Write a whole new folder and swap it in (a clean build), rather
    ///   than the files that changed.
    /// - Throws: `BuildFailure` when the folder is refused.
    public func begin(isWhole: Bool) throws(BuildFailure) -> Staging {
        try validate()
        let warnings = recover()
        let output = OutputFolder(Self.absolute(outputDirectory, fileSystem: fileSystem))
        let isInPlace = MountTable.isMountPoint(output.path, fileSystem: fileSystem)
        let keepsSpare = keepsSpare && !isInPlace
        // A spare from before the folder became a mount point would be out of date.
        if !keepsSpare { try? SpareCopy(path: output.spare, fileSystem: fileSystem).retire() }
        return Staging(
            writer: self, output: output, isInPlace: isInPlace, isWhole: isWhole,
            keepsSpare: keepsSpare, warnings: warnings)
    }

    /// Clears what builds that are gone left beside and inside the output folder (see
    /// `LeftoverRecovery`). Call it holding the `OutputLock`, which is what tells that the
    /// builds that left them are gone.
    /// - Returns: Warnings for leftovers that could not be removed.
    @discardableResult
    public func recover() -> [Diagnostic] {
        let output = OutputFolder(Self.absolute(outputDirectory, fileSystem: fileSystem))
        return LeftoverRecovery(output: output, fileSystem: fileSystem).run().map { path in
            .warning(
                at: SourceLocation(path: path),
                "could not remove a folder an interrupted build left",
                hint: "remove it by hand")
        }
    }

    // MARK: - Messages

    /// Runs a step of a write, reporting an error other than a `BuildFailure` as one that
    /// names the output folder.
    func reporting<Result>(_ step: () throws -> Result) throws(BuildFailure) -> Result {
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
    var interrupted: BuildFailure {
        BuildFailure([
            .error(
                at: SourceLocation(path: outputDirectory),
                "the build was interrupted; the output folder is as it was")
        ])
    }

    /// A failure naming the output folder, with the system's own reason.
    func failure(_ message: String, _ error: any Error) -> BuildFailure {
        BuildFailure([.error(at: SourceLocation(path: outputDirectory), "\(message): \(error)")])
    }

    /// A warning about one of this build's own folders that could not be removed.
    static func leftoverWarning(_ path: String) -> Diagnostic {
        .warning(
            at: SourceLocation(path: path), "could not remove a folder this build left",
            hint: "remove it by hand")
    }
}
