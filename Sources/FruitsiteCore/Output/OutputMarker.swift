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

    /// Replaces the marker in `folder` with a new file naming model `id`, or an empty one for
    /// none. A new file, not the old one rewritten: the old one may be the live site's.
    static func write(in folder: String, id: UInt64?, fileSystem: OutputFileSystem) throws {
        let path = folder + "/" + name
        let temporary = path + ".new"
        try fileSystem.write(id.map(bytes(id:)) ?? [], to: temporary)
        if let error = fileSystem.rename(temporary, path) {
            throw PathError(path: path, error: error)
        }
    }

    /// Makes one of our hidden folders with an empty marker in it: should the build die now,
    /// the next one knows the folder as its own, and as a copy of no site.
    static func makeMarkedFolder(_ path: String, fileSystem: OutputFileSystem) throws {
        try fileSystem.makeFolder(path)
        try fileSystem.write([], to: path + "/" + name)
    }
}
