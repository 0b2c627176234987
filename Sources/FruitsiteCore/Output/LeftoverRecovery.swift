#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Clears what builds that are gone left beside and inside the output folder: finishes a
/// commit whose staging folder holds its commit record (`RenamedChanges`,
/// `ContentsReplacement`), puts the previous site back if a build died between two renames
/// (`FolderSwap`), and removes the rest. Run it holding the `OutputLock`, which is what tells
/// that the builds that left them are gone.
struct LeftoverRecovery {
    let output: OutputFolder
    let fileSystem: OutputFileSystem

    /// Recovers inside the folder, then beside it.
    /// - Returns: The leftovers that could not be removed.
    func run() -> [String] {
        recoverInside() + recoverBeside()
    }

    /// Removes a staging folder whose site must not be put in place: its commit record first
    /// (and inside a mount point its marker, which is a `ContentsReplacement`'s), so that it
    /// no longer counts as one to finish. Beside the folder, its empty marker goes last, as
    /// `removeLeftover` leaves it.
    static func discard(_ staged: String, isInside: Bool, fileSystem: OutputFileSystem) {
        _ = fileSystem.removeFile(staged + "/" + RenamedChanges.recordName)
        if isInside { _ = fileSystem.removeFile(staged + "/" + OutputMarker.name) }
        _ = fileSystem.removeLeftover(staged)
    }

    /// Finishes the commits cut short in staging folders inside the output folder (a mount
    /// point), then removes those and the folders of old entries.
    private func recoverInside() -> [String] {
        let entries = ((try? fileSystem.names(in: output.path)) ?? []).sorted()
        for entry in entries where entry.hasPrefix(".fruitsite-tmp-") {
            finish(output.path + "/" + entry, isInside: true)
        }
        var stuck: [String] = []
        for entry in (try? fileSystem.names(in: output.path)) ?? []
        where entry.hasPrefix(".fruitsite-tmp-") || entry.hasPrefix(".fruitsite-old-") {
            let path = output.path + "/" + entry
            if !fileSystem.removeLeftover(path) { stuck.append(path) }
        }
        return stuck
    }

    /// Removes what an interrupted build left beside the output folder, after finishing the
    /// renames one was cut short in, and restores the previous site if a build died between
    /// its two renames. The spare copy stays: a build checks its marker before it uses it.
    private func recoverBeside() -> [String] {
        guard let entries = try? fileSystem.names(in: output.parent) else { return [] }
        var stuck: [String] = []
        for entry in entries.sorted() where entry != output.spareName {
            let path = output.parent + "/" + entry
            guard entry.hasPrefix(output.hiddenPrefix) else { continue }
            // Never ours: a link is removed, not followed, nor moved into the output's place.
            if let info = try? fileSystem.linkStatus(path), info.st_mode & S_IFMT == S_IFLNK {
                _ = fileSystem.removeFile(path)
                continue
            }
            // Made by a build killed before it could write the marker: nothing to lose.
            if fileSystem.removeDirectory(path) == nil { continue }
            guard (try? fileSystem.exists(path + "/" + OutputMarker.name)) == true else {
                continue
            }
            if entry.hasPrefix(output.hiddenPrefix + "tmp-") { finish(path, isInside: false) }
            if entry.hasPrefix(output.hiddenPrefix + "old-"),
                (try? fileSystem.exists(output.path)) != true
            {
                _ = fileSystem.rename(path, output.path)
            } else if !fileSystem.removeLeftover(path) {
                stuck.append(path)
            }
        }
        return stuck
    }

    /// Finishes the commit whose record the staging folder `staged` holds, if any.
    private func finish(_ staged: String, isInside: Bool) {
        if RenamedChanges.isCommitted(staged, fileSystem: fileSystem) {
            RenamedChanges.resume(
                staged, into: output.path, isInside: isInside, fileSystem: fileSystem)
        } else if ContentsReplacement.isCommitted(staged, fileSystem: fileSystem) {
            ContentsReplacement.resume(staged, into: output.path, fileSystem: fileSystem)
        }
    }
}
