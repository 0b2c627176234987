#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A copy of the site beside the output folder (`.Output.fruitsite-spare`) whose files are
/// hard links to the output's own (no file's bytes are copied), its marker naming the same
/// model when it is up to date. An incremental build moves its changes into it and swaps it
/// with the output folder in one atomic step (`SpareSwap`), then brings the old folder, now
/// the spare, up to date by linking the files that changed: each build costs what it
/// changes, and a kill at any moment leaves the old site or the new one. A clean build links
/// every file it writes into a new spare (`Staging`).
///
/// Whatever happens to it, its marker names a model only while it holds exactly that
/// model's site; a build uses it only when that model is the output folder's.
struct SpareCopy: Sendable {
    let path: String
    let fileSystem: OutputFileSystem

    /// Whether it is a copy of the site in `output`: a folder, not a link, whose marker names
    /// the output's model.
    func copies(_ output: String) -> Bool {
        guard let current = OutputMarker.id(in: output, fileSystem: fileSystem) else {
            return false
        }
        // A link in the spare's place is no spare, whatever its marker says.
        return fileSystem.isFolder(path)
            && OutputMarker.id(in: path, fileSystem: fileSystem) == current
    }

    /// Makes it anew: an empty folder marked as ours, copying no site yet.
    func makeEmpty() throws {
        try retire()
        try OutputMarker.makeMarkedFolder(path, fileSystem: fileSystem)
    }

    /// Makes it anew from the whole site in `output`, its marker left empty.
    func make(from output: String) throws {
        try makeEmpty()
        try fileSystem.linkTree(from: output, to: path)
    }

    /// After a swap it holds the site the output held: brings it up to date with the files
    /// the swap changed, now in `output`. Should this fail, it is removed, and the next build
    /// makes a new one.
    func catchUp(with paths: [String], removing removals: [String], from output: String, id: UInt64)
    {
        let (fileSystem, spare) = (fileSystem, path)
        do {
            try OutputMarker.clear(in: spare, fileSystem: fileSystem)
            _ = try fileSystem.remove(removals, from: spare)
            try fileSystem.createDirectories(for: paths, in: spare)
            try OutputFileSystem.forEachConcurrently(paths) { path in
                _ = fileSystem.removeFile(spare + "/" + path)
                if let error = fileSystem.link(output + "/" + path, spare + "/" + path) {
                    throw PathError(path: spare + "/" + path, error: error)
                }
            }
            try OutputMarker.write(in: spare, id: id, fileSystem: fileSystem)
        } catch {
            try? retire()
        }
    }

    /// Removes it. It is renamed first, in one step: a spare half removed still has the marker
    /// that says it is up to date. One that cannot be removed (a folder in it that cannot be
    /// written) stays under that name, and each build warns about it.
    func retire() throws {
        // The name's own suffix: a folder above may have `-spare` in its name too.
        let retired = String(path.dropLast("-spare".count)) + "-retired-\(getpid())"
        if let error = fileSystem.rename(path, retired) {
            if error.code == ENOENT { return }
            throw PathError(path: path, error: error)
        }
        _ = fileSystem.removeLeftover(retired)
    }
}
