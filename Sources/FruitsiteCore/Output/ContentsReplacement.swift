import Foundation

/// A clean build into an output folder that cannot itself be renamed (a mount point): the new
/// site was staged inside it; the old entries are moved into a hidden folder inside it and
/// the new ones up, the marker last. A failure undoes the moves; a build killed in their
/// middle is finished by the next one (`LeftoverRecovery`), as the staged site was complete,
/// and its marker written, before the first move.
struct ContentsReplacement: CommitStrategy {
    let writer: OutputWriter
    let output: OutputFolder
    /// The staging folder inside the output folder.
    let staged: String
    /// How many files were staged.
    let written: Int
    /// A staging folder beside the output folder to copy into `staged` first, when the
    /// output proved a mount point only once that was staged (see `WholeSwap`).
    var copying: String?

    /// The file in the staging folder that lists the names the new site has at its top,
    /// separated by NUL bytes: what lets a cut replacement be finished.
    static let namesFile = ".fruitsite-names"

    func prepare(id: UInt64) throws {
        let fileSystem = writer.fileSystem
        if let copying {
            _ = fileSystem.removeLeftover(staged)
            try fileSystem.makeFolder(staged)
            // Across file systems: bytes, not links. The marker is not copied; it comes last.
            try fileSystem.copyBytes(from: copying, to: staged)
            _ = fileSystem.removeLeftover(copying)
        }
        let names = try fileSystem.names(in: staged).filter { $0 != OutputMarker.name }
        try fileSystem.write(
            Array(names.sorted().joined(separator: "\0").utf8),
            to: staged + "/" + Self.namesFile)
        try OutputMarker.write(in: staged, id: id, fileSystem: fileSystem)
    }

    func swap() throws -> (any CommitStrategy)? {
        let fileSystem = writer.fileSystem
        do {
            try Self.moveContents(from: staged, into: output.path, fileSystem: fileSystem)
        } catch {
            Self.undoMove(staging: staged, output: output.path, fileSystem: fileSystem)
            LeftoverRecovery.discard(staged, isInside: true, fileSystem: fileSystem)
            _ = fileSystem.removeLeftover(Self.retiredFolder(for: staged))
            throw writer.failure("could not replace the contents of the output folder", error)
        }
        return nil
    }

    func finish() -> OutputWriter.Summary {
        var summary = OutputWriter.Summary(
            written: written, removed: 0, isWholeFolder: true, isInPlace: true)
        for path in [staged, Self.retiredFolder(for: staged)]
        where !writer.fileSystem.removeLeftover(path) {
            summary.warnings.append(OutputWriter.leftoverWarning(path))
        }
        return summary
    }

    // MARK: - The moves, which the next build may finish

    /// Whether `staged` holds a complete site to move up: its names listed, then its marker
    /// written.
    static func isCommitted(_ staged: String, fileSystem: OutputFileSystem) -> Bool {
        (try? stagedNames(staged, fileSystem: fileSystem)) != nil
            && ((try? fileSystem.read(staged + "/" + OutputMarker.name, .max)) ?? []).count > 0
    }

    /// Finishes the moves a build was cut short in; moves that fail again are undone.
    static func resume(_ staged: String, into output: String, fileSystem: OutputFileSystem) {
        do {
            try moveContents(from: staged, into: output, fileSystem: fileSystem)
        } catch {
            undoMove(staging: staged, output: output, fileSystem: fileSystem)
            LeftoverRecovery.discard(staged, isInside: true, fileSystem: fileSystem)
        }
    }

    /// Moves every entry of `output` (its marker and hidden working folders aside) into a
    /// retired folder inside it, then every entry of `staged` up into `output`, the marker
    /// last. Run again after a cut, it carries on where it stopped: an entry the new site has
    /// that is no longer in `staged` was already moved up.
    private static func moveContents(
        from staged: String, into output: String, fileSystem: OutputFileSystem
    ) throws {
        let retired = retiredFolder(for: staged)
        if try !fileSystem.exists(retired) {
            try OutputMarker.makeMarkedFolder(retired, fileSystem: fileSystem)
        }
        let names = try stagedNames(staged, fileSystem: fileSystem)
        for entry in try fileSystem.names(in: output).sorted()
        where entry != OutputMarker.name && !entry.hasPrefix(".fruitsite-") {
            let isMovedUp = try names.contains(entry) && !fileSystem.exists(staged + "/" + entry)
            if !isMovedUp,
                let error = fileSystem.rename(output + "/" + entry, retired + "/" + entry)
            {
                throw error
            }
        }
        for entry in names.sorted() {
            guard try fileSystem.exists(staged + "/" + entry) else { continue }
            if let error = fileSystem.rename(staged + "/" + entry, output + "/" + entry) {
                throw error
            }
        }
        let marker = "/" + OutputMarker.name
        if let error = fileSystem.rename(staged + marker, output + marker) { throw error }
    }

    /// Undoes a `moveContents` that failed: new entries back into `staging`, old ones back
    /// up.
    private static func undoMove(staging: String, output: String, fileSystem: OutputFileSystem) {
        let retired = retiredFolder(for: staging)
        for entry in (try? stagedNames(staging, fileSystem: fileSystem)) ?? []
        where (try? fileSystem.exists(staging + "/" + entry)) == false {
            _ = fileSystem.rename(output + "/" + entry, staging + "/" + entry)
        }
        for entry in (try? fileSystem.names(in: retired)) ?? [] where entry != OutputMarker.name {
            _ = fileSystem.rename(retired + "/" + entry, output + "/" + entry)
        }
    }

    private static func retiredFolder(for staging: String) -> String {
        let name = (staging as NSString).lastPathComponent
        return (staging as NSString).deletingLastPathComponent + "/"
            + name.replacingOccurrences(of: "-tmp-", with: "-old-")
    }

    private static func stagedNames(_ staged: String, fileSystem: OutputFileSystem) throws
        -> Set<String>
    {
        let bytes = try fileSystem.read(staged + "/" + namesFile, .max)
        return Set(bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }
}
