/// A clean build: every file was staged in a folder beside the output folder (and linked into
/// a new spare copy, if it keeps one), which takes the old folder's place in one atomic
/// exchange (`FolderSwap`). The old site, then in the staging folder, is removed.
struct WholeSwap: CommitStrategy {
    let writer: OutputWriter
    let output: OutputFolder
    /// The staging folder, holding the whole new site.
    let staged: String
    let spare: SpareCopy?
    /// How many files were staged.
    let written: Int

    func prepare(id: UInt64) throws {
        for site in [staged] + (spare.map { [$0.path] } ?? []) {
            try OutputMarker.write(in: site, id: id, fileSystem: writer.fileSystem)
        }
    }

    func swap() throws -> (any CommitStrategy)? {
        if try FolderSwap.swap(staged, into: output, writer: writer) { return nil }
        // The folder cannot be renamed: a mount point `begin` did not see. Its contents are
        // replaced by the same site, staged again inside it.
        try? spare?.retire()
        return ContentsReplacement(
            writer: writer, output: output, staged: output.staging(isInside: true),
            written: written, copying: staged)
    }

    func finish() -> OutputWriter.Summary {
        var summary = OutputWriter.Summary(written: written, removed: 0, isWholeFolder: true)
        // The new site is in place: a signal need not wait for the old one's removal,
        // which the next build finishes.
        if !writer.fileSystem.removeLeftover(staged, stopsOnSignal: true),
            !SignalDeferral.isPending
        {
            summary.warnings += [OutputWriter.leftoverWarning(staged)]
        }
        return summary
    }
}
