#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An incremental build with a spare copy: the spare, up to date (`Staging.readySpare`), takes
/// the staged files and loses the removed ones, gets the new marker, and is swapped with the
/// output folder in one atomic step (`FolderSwap`). The old folder, now the spare, is then
/// brought up to date by linking the changed files, so the next build finds it ready.
struct SpareSwap: CommitStrategy {
    let writer: OutputWriter
    let output: OutputFolder
    /// The staging folder: the changed files, named by their number in `paths`.
    let staged: String
    let spare: SpareCopy
    let paths: [String]
    /// Files the site no longer has.
    let removals: [String]
    /// The spare was made anew for this build.
    let madeSpare: Bool
    private var removed = 0
    private var id: UInt64 = 0

    init(
        writer: OutputWriter, output: OutputFolder, staged: String, spare: SpareCopy,
        paths: [String], removals: [String], madeSpare: Bool
    ) {
        self.writer = writer
        self.output = output
        self.staged = staged
        self.spare = spare
        self.paths = paths
        self.removals = removals
        self.madeSpare = madeSpare
    }

    mutating func prepare(id: UInt64) throws {
        let (fileSystem, staged, spare) = (writer.fileSystem, staged, spare.path)
        self.id = id
        // From the first change on, the spare is no copy of any site.
        try OutputMarker.clear(in: spare, fileSystem: fileSystem)
        // Removals first: a file that becomes a folder (or the reverse) must be out of the
        // way of what takes its name.
        removed = try fileSystem.remove(removals, from: spare)
        try fileSystem.createDirectories(for: paths, in: spare)
        // On every core, here and in `SpareCopy.catchUp`: a file replaced is freed in the
        // call, which was most of a build that moved a fruit across the catalog.
        try OutputFileSystem.forEachConcurrently(Array(paths.enumerated())) { index, path in
            if let error = fileSystem.rename("\(staged)/\(index)", spare + "/" + path) {
                throw PathError(path: spare + "/" + path, error: error)
            }
        }
        try OutputMarker.write(in: spare, id: id, fileSystem: fileSystem)
    }

    func swap() throws -> (any CommitStrategy)? {
        guard try FolderSwap.swap(spare.path, into: output, writer: writer) else {
            try? spare.retire()
            throw writer.failure("could not swap in the new site", SystemError(code: EBUSY))
        }
        return nil
    }

    func finish() -> OutputWriter.Summary {
        _ = writer.fileSystem.removeLeftover(staged)
        // The spare holds the old site now.
        spare.catchUp(with: paths, removing: removals, from: output.path, id: id)
        return OutputWriter.Summary(written: paths.count, removed: removed, madeSpare: madeSpare)
    }
}
