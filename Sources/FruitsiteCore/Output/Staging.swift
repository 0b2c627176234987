extension OutputWriter {
    /// A write in progress (see `begin(isWhole:)`): files staged in a hidden folder beside the
    /// output folder, or inside it when it is a mount point, then put in place by `commit`.
    public struct Staging {
        let writer: OutputWriter
        let output: OutputFolder
        /// Where files are staged, made with the first file.
        let folder: String
        /// The spare copy (see `SpareCopy`); nil for a mount point, which cannot be swapped,
        /// and once a spare could not be made (`giveUpSpare`).
        var spare: SpareCopy?
        let isWhole: Bool
        /// The output folder is a mount point, so its contents are replaced instead.
        let isInPlace: Bool
        var warnings: [Diagnostic]
        /// For changes, the path of each file staged, by its number in `folder`.
        private var paths: [String] = []
        /// How many files were staged.
        private var written = 0
        private var isMade = false

        init(
            writer: OutputWriter, output: OutputFolder, isInPlace: Bool, isWhole: Bool,
            keepsSpare: Bool, warnings: [Diagnostic]
        ) {
            self.writer = writer
            self.output = output
            folder = output.staging(isInside: isInPlace)
            spare = keepsSpare ? SpareCopy(path: output.spare, fileSystem: writer.fileSystem) : nil
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
            let fileSystem = writer.fileSystem
            if isWhole {
                if let problem = try fileSystem.writeAll(
                    files, into: folder, linkingInto: spare?.path)
                {
                    giveUpSpare(problem)
                }
            } else {
                // Numbered, not named: the folder holds the marker, and paths would need
                // folders.
                let numbered = files.indices.map {
                    RenderedPage(path: "\(paths.count + $0)", bytes: files[$0].bytes)
                }
                _ = try fileSystem.writeAll(numbered, into: folder, linkingInto: nil)
            }
        }

        /// Puts what was staged in place, removes `removals`, and writes the marker last, in
        /// the order `Commit` keeps.
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
                    return try Commit.run(
                        strategy(removing: removals), id: id, saveModel: saveModel)
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
            if isWhole, let spare { try? spare.retire() }
            LeftoverRecovery.discard(folder, isInside: isInPlace, fileSystem: writer.fileSystem)
        }

        /// The way what was staged goes in place.
        private mutating func strategy(removing removals: [String]) -> any CommitStrategy {
            if isWhole {
                return isInPlace
                    ? ContentsReplacement(
                        writer: writer, output: output, staged: folder, written: written)
                    : WholeSwap(
                        writer: writer, output: output, staged: folder, spare: spare,
                        written: written)
            }
            let madeSpare = readySpare()
            if let spare {
                return SpareSwap(
                    writer: writer, output: output, staged: folder, spare: spare, paths: paths,
                    removals: removals, madeSpare: madeSpare)
            }
            return RenamedChanges(
                writer: writer, output: output, staged: folder, paths: paths, removals: removals,
                isInside: isInPlace)
        }

        private mutating func makeFolder() throws {
            guard !isMade else { return }
            let fileSystem = writer.fileSystem
            _ = fileSystem.removeLeftover(folder)
            // An empty marker first: should the build die now, the next one knows the folder
            // as its own leftover. A whole folder's real one replaces it once every file is
            // written.
            try OutputMarker.makeMarkedFolder(folder, fileSystem: fileSystem)
            if isWhole, let spare {
                // The old spare copies a site this build replaces.
                do {
                    try spare.makeEmpty()
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
            guard let spare, !spare.copies(output.path) else { return false }
            do {
                try spare.make(from: output.path)
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
            try? spare.retire()
            warnings.append(
                .warning(
                    at: SourceLocation(path: spare.path),
                    "could not keep a spare copy of the site: \(problem)",
                    hint:
                        "changed files are renamed into place one by one until it can, so a kill "
                        + "during that can leave some pages old and others new"))
            self.spare = nil
        }
    }
}
