#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An incremental build with no spare copy (into a mount point, which cannot be swapped, or
/// once the spare could not be made): each changed file, staged under its number, is renamed
/// into place, so every file is either its old or its new self; files the site no longer has
/// are removed; the marker is replaced last. Every folder to be changed is checked writable
/// first, and a rename that fails all the same undoes those before it.
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

    init(
        writer: OutputWriter, output: OutputFolder, staged: String, paths: [String],
        removals: [String], isInside: Bool
    ) {
        self.writer = writer
        self.output = output
        self.staged = staged
        self.paths = paths
        self.removals = removals
        self.isInside = isInside
    }

    func prepare(id: UInt64) throws {
        try writer.fileSystem.write(OutputMarker.bytes(id: id), to: staged + "/marker")
        try checkWritable(paths + removals + [OutputMarker.name])
    }

    mutating func swap() throws -> (any CommitStrategy)? {
        let (fileSystem, output, staged) = (writer.fileSystem, output.path, staged)
        var undo: [() -> Void] = []
        do {
            // Removals first: a file that becomes a folder (or the reverse) must be out of
            // the way of what takes its name.
            for (index, path) in removals.sorted().enumerated() {
                let backup = "\(staged)/removed-\(index)"
                if let error = fileSystem.rename(output + "/" + path, backup) {
                    if error.code == ENOENT { continue }
                    throw error
                }
                undo.append { _ = fileSystem.rename(backup, output + "/" + path) }
                removed += 1
                // Remove folders the site no longer has, such as fruits/<old-slug>/.
                var parent = OutputFileSystem.folder(of: path)
                while !parent.isEmpty, fileSystem.removeDirectory(output + "/" + parent) == nil {
                    let made = parent
                    undo.append { _ = fileSystem.makeDirectory(output + "/" + made) }
                    parent = OutputFileSystem.folder(of: parent)
                }
            }
            let made = try fileSystem.createDirectories(for: paths, in: output)
            undo.append {
                for made in made.reversed() { _ = fileSystem.removeDirectory(output + "/" + made) }
            }
            for (index, path) in paths.enumerated() {
                let target = output + "/" + path
                let backup = "\(staged)/old-\(index)"
                let hadOld = fileSystem.link(target, backup) == nil
                if let error = fileSystem.rename("\(staged)/\(index)", target) { throw error }
                undo.append {
                    _ = hadOld ? fileSystem.rename(backup, target) : fileSystem.removeFile(target)
                }
            }
            let marker = output + "/" + OutputMarker.name
            if let error = fileSystem.rename(staged + "/marker", marker) { throw error }
        } catch {
            for step in undo.reversed() { step() }
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
}
