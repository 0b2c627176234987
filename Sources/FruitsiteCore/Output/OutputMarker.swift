/// The file that marks a folder as fruitsite's own output, safe to replace: a sentence for
/// people, then the id of the site model that describes the folder. Empty in one of our hidden
/// folders that copies no site (yet), which it still marks as ours.
enum OutputMarker {
    static let name = ".fruitsite-output"
    static let text =
        "This folder is written by `fruitsite build`, which may replace or remove any file in it.\n"
    static let prefix = "fruitsite-output model="

    /// The marker of a folder that holds the site of model `id`.
    static func bytes(id: UInt64) -> [UInt8] {
        Array((text + prefix + String(id, radix: 16) + "\n").utf8)
    }

    /// The model id the marker in `folder` records, if any.
    static func id(in folder: String, fileSystem: OutputFileSystem) -> UInt64? {
        id(ofFile: folder + "/" + name, fileSystem: fileSystem)
    }

    /// The model id the marker file at `path` records, if any.
    static func id(ofFile path: String, fileSystem: OutputFileSystem) -> UInt64? {
        // Our own reader: FileManager's leaks its buffer on an empty file, as a spare's
        // marker is while it is changed.
        guard let data = try? fileSystem.read(path, 4096) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix(Self.text),
            let line = text.split(separator: "\n").dropFirst().first,
            line.hasPrefix(prefix)
        else { return nil }
        return UInt64(line.dropFirst(prefix.count), radix: 16)
    }

    /// Replaces the file `name` in `folder` (the marker unless told) with a new file naming
    /// model `id`: written beside it, then renamed over it, so that a file half written never
    /// passes for a marker, and the old one, which may be the live site's, never changes.
    static func write(
        in folder: String, id: UInt64, as name: String = name, fileSystem: OutputFileSystem
    ) throws {
        let path = folder + "/" + name
        let temporary = path + ".new"
        try fileSystem.write(bytes(id: id), to: temporary)
        if let error = fileSystem.rename(temporary, path) {
            _ = fileSystem.removeFile(temporary)
            throw PathError(path: path, error: error)
        }
    }

    /// Empties the marker of a hidden folder of ours in place, in one step, so that it copies
    /// no site from now on: before any other change to it, so that what a build cut short
    /// leaves in it (a marker's temporary file included) is never taken for part of a site.
    /// In place is safe: markers are always written as new files, never linked.
    static func clear(in folder: String, fileSystem: OutputFileSystem) throws {
        try fileSystem.write([], to: folder + "/" + name)
    }

    /// Makes one of our hidden folders with an empty marker in it: should the build die now,
    /// the next one knows the folder as its own, and as a copy of no site.
    static func makeMarkedFolder(_ path: String, fileSystem: OutputFileSystem) throws {
        try fileSystem.makeFolder(path)
        try fileSystem.write([], to: path + "/" + name)
    }
}
