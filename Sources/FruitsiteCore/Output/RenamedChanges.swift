#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An incremental build with no spare copy (into a mount point, which cannot be swapped, or
/// once the spare could not be made): each changed file, staged under its number, is renamed
/// into place, so every file is either its old or its new self; files the site no longer has
/// are moved out; the marker is replaced last. Every folder to be changed is checked writable
/// first. A rename that fails all the same undoes those before it. Before the first rename,
/// the staging folder lists every change (its journal) and holds the new marker (its commit
/// record), so that a build killed in their middle is finished by the next one
/// (`LeftoverRecovery`).
struct RenamedChanges: CommitStrategy {
    let writer: OutputWriter
    let output: OutputFolder
    /// The staging folder: the changed files, named by their number in `paths`.
    let staged: String
    let paths: [String]
    /// Files the site no longer has.
    let removals: [String]
    /// Whether the staging folder is inside the output folder (a mount point).
    let isInside: Bool
    private var removed = 0

    /// The journal: how many changed files there are, their paths, then the removed ones,
    /// each ended by a NUL byte.
    static let journalName = ".fruitsite-changes"
    /// The commit record: the new marker, moved into place last.
    static let recordName = "marker"

    init(
        writer: OutputWriter, output: OutputFolder, staged: String, paths: [String],
        removals: [String], isInside: Bool
    ) {
        self.writer = writer
        self.output = output
        self.staged = staged
        self.paths = paths
        self.removals = removals.sorted()
        self.isInside = isInside
    }

    func prepare(id: UInt64) throws {
        let fileSystem = writer.fileSystem
        let journal = ["\(paths.count)"] + paths + removals
        try fileSystem.write(
            Array(journal.map { $0 + "\0" }.joined().utf8), to: staged + "/" + Self.journalName)
        try checkWritable(paths + removals + [OutputMarker.name])
        try OutputMarker.write(in: staged, id: id, as: Self.recordName, fileSystem: fileSystem)
    }

    mutating func swap() throws -> (any CommitStrategy)? {
        do {
            removed = try Self.apply(staged, to: output.path, fileSystem: writer.fileSystem)
        } catch {
            Self.undo(staged, in: output.path, fileSystem: writer.fileSystem)
            throw error
        }
        return nil
    }

    func finish() -> OutputWriter.Summary {
        LeftoverRecovery.discard(staged, isInside: isInside, fileSystem: writer.fileSystem)
        return OutputWriter.Summary(written: paths.count, removed: removed)
    }

    /// Checks, before anything is renamed, that every folder a change touches can be
    /// written: the deepest existing folder on the way to each path.
    private func checkWritable(_ paths: [String]) throws {
        var checked = Set<String>()
        for path in paths {
            var folder = OutputFileSystem.folder(of: path)
            while !folder.isEmpty,
                (try? writer.fileSystem.exists(output.path + "/" + folder)) != true
            {
                folder = OutputFileSystem.folder(of: folder)
            }
            let full = folder.isEmpty ? output.path : output.path + "/" + folder
            guard checked.insert(full).inserted else { continue }
            if let error = writer.fileSystem.checkWritable(full) {
                throw writer.failure("cannot write to the folder '\(full)'", error)
            }
        }
    }

    // MARK: - The renames, which the next build may finish

    /// Whether `staged` holds changes to finish: its journal, then its commit record written.
    static func isCommitted(_ staged: String, fileSystem: OutputFileSystem) -> Bool {
        (try? journal(in: staged, fileSystem: fileSystem)) != nil
            && OutputMarker.id(ofFile: staged + "/" + recordName, fileSystem: fileSystem) != nil
    }

    /// Finishes the renames a build was cut short in; renames that fail again are undone.
    static func resume(
        _ staged: String, into output: String, isInside: Bool, fileSystem: OutputFileSystem
    ) {
        do {
            _ = try apply(staged, to: output, fileSystem: fileSystem)
        } catch {
            undo(staged, in: output, fileSystem: fileSystem)
        }
        LeftoverRecovery.discard(staged, isInside: isInside, fileSystem: fileSystem)
    }

    /// Makes the changes the journal in `staged` lists, skipping those a build cut short
    /// made already, and moves the commit record into place as the marker.
    /// - Returns: How many of the files to remove were there.
    private static func apply(_ staged: String, to output: String, fileSystem: OutputFileSystem)
        throws -> Int
    {
        let (paths, removals) = try journal(in: staged, fileSystem: fileSystem)
        var removed = 0
        // Removals first: a file that becomes a folder (or the reverse) must be out of the
        // way of what takes its name. Each is kept in the staging folder for `undo`.
        for (index, path) in removals.enumerated() {
            if try !fileSystem.isPresent("\(staged)/removed-\(index)") {
                if let error = fileSystem.rename(output + "/" + path, "\(staged)/removed-\(index)")
                {
                    if error.code == ENOENT { continue }
                    throw error
                }
                removed += 1
            }
            // Folders the site no longer has, such as fruits/<old-slug>/.
            try fileSystem.removeEmptyFolders(above: path, in: output)
        }
        try fileSystem.createDirectories(for: paths, in: output)
        for (index, path) in paths.enumerated() {
            // A file no longer staged was moved into place by a build cut short.
            guard try fileSystem.isPresent("\(staged)/\(index)") else { continue }
            let target = output + "/" + path
            // The old file, if there is one, kept for `undo`.
            _ = fileSystem.link(target, "\(staged)/old-\(index)")
            if let error = fileSystem.rename("\(staged)/\(index)", target) { throw error }
        }
        let marker = output + "/" + OutputMarker.name
        if let error = fileSystem.rename(staged + "/" + recordName, marker) { throw error }
        return removed
    }

    /// Undoes what `apply` did, however far it went: each new file back into the staging
    /// folder and its old one back in place, the folders made for them removed, the removed
    /// files put back.
    private static func undo(_ staged: String, in output: String, fileSystem: OutputFileSystem) {
        guard let (paths, removals) = try? journal(in: staged, fileSystem: fileSystem) else {
            return
        }
        for (index, path) in paths.enumerated().reversed() {
            let target = output + "/" + path
            if (try? fileSystem.isPresent("\(staged)/\(index)")) == false {
                _ = fileSystem.rename(target, "\(staged)/\(index)")
            }
            if (try? fileSystem.isPresent("\(staged)/old-\(index)")) == true {
                _ = fileSystem.rename("\(staged)/old-\(index)", target)
            }
        }
        var folders = Set<String>()
        for path in paths {
            var folder = OutputFileSystem.folder(of: path)
            while !folder.isEmpty, folders.insert(folder).inserted {
                folder = OutputFileSystem.folder(of: folder)
            }
        }
        // Children sort after their parents: the deepest go first.
        for folder in folders.sorted(by: >) {
            _ = fileSystem.removeDirectory(output + "/" + folder)
        }
        for (index, path) in removals.enumerated()
        where (try? fileSystem.isPresent("\(staged)/removed-\(index)")) == true {
            _ = try? fileSystem.createDirectories(for: [path], in: output)
            _ = fileSystem.rename("\(staged)/removed-\(index)", output + "/" + path)
        }
    }

    /// The changed paths, by their number, and the removed ones, as the journal lists them.
    private static func journal(in staged: String, fileSystem: OutputFileSystem) throws -> (
        paths: [String], removals: [String]
    ) {
        let bytes = try fileSystem.read(staged + "/" + journalName, .max)
        let records = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let count = records.first.flatMap({ Int($0) }), count >= 0, count < records.count
        else { throw SystemError(code: EINVAL) }
        return (Array(records[1..<(count + 1)]), Array(records[(count + 1)...]))
    }
}
