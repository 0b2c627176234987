#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Puts a complete folder in the place of the output folder in one atomic step, as
/// `WholeSwap` and `SpareSwap` do.
enum FolderSwap {
    /// Puts the complete folder `staged` in the place of `output`: one atomic exchange where
    /// the system has it (`renameat2` with `RENAME_EXCHANGE`), else two renames (a build that
    /// dies between them is undone by the next one's `LeftoverRecovery`). Afterwards `staged`
    /// holds the old site, if there was one.
    /// - Returns: False when `output` is a folder that cannot be moved (a mount point);
    ///   nothing was changed then.
    static func swap(_ staged: String, into output: OutputFolder, writer: OutputWriter) throws
        -> Bool
    {
        let fileSystem = writer.fileSystem
        guard let old = try? fileSystem.status(output.path) else {
            if let error = fileSystem.rename(staged, output.path) {
                throw writer.failure("could not move the new site into place", error)
            }
            return true
        }
        // The new folder takes the old one's permissions and, where allowed, its group
        // (a web server's, say), as the folder that stays in place would keep them.
        _ = fileSystem.changeGroup(staged, old.st_gid)
        _ = fileSystem.changeMode(staged, old.st_mode & 0o7777)
        guard let error = fileSystem.exchange(staged, output.path) else { return true }
        if error.code == EBUSY || error.code == EXDEV { return false }
        if error.code != EINVAL && error.code != ENOSYS {
            throw writer.failure("could not swap in the new site", error)
        }
        // No atomic exchange here: two renames.
        if let error = fileSystem.rename(output.path, output.parked) {
            if error.code == EBUSY || error.code == EXDEV { return false }
            throw writer.failure("could not move the previous site aside", error)
        }
        if let error = fileSystem.rename(staged, output.path) {
            _ = fileSystem.rename(output.parked, output.path)
            throw writer.failure("could not swap in the new site", error)
        }
        _ = fileSystem.rename(output.parked, staged)
        return true
    }
}
