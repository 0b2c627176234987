import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Folders and the files below them, made, linked, copied and listed through the calls of an
/// `OutputFileSystem`.
extension OutputFileSystem {
    /// Whether something is at `path`, following a symbolic link to what it names.
    /// - Throws: `SystemError` when that cannot be told (not for "no such file").
    func exists(_ path: String) throws(SystemError) -> Bool {
        do {
            _ = try status(path)
            return true
        } catch  where error.code == ENOENT || error.code == ENOTDIR {
            return false
        }
    }

    /// Whether anything is at `path` itself, a symbolic link included.
    /// - Throws: `SystemError` when that cannot be told (not for "no such file").
    func isPresent(_ path: String) throws(SystemError) -> Bool {
        do {
            _ = try linkStatus(path)
            return true
        } catch  where error.code == ENOENT || error.code == ENOTDIR {
            return false
        }
    }

    /// Whether `path` is itself a folder, not a link to one.
    func isFolder(_ path: String) -> Bool {
        guard let info = try? linkStatus(path) else { return false }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// The names in a folder, with the folder's path in the error.
    func names(in folder: String) throws -> [String] {
        do {
            return try list(folder).map(\.name)
        } catch let error as SystemError {
            throw PathError(path: folder, error: error)
        }
    }

    /// `makeDirectory`, with the folder's path in the error.
    func makeFolder(_ path: String) throws {
        if let error = makeDirectory(path) { throw PathError(path: path, error: error) }
    }

    /// `writeFile`, with the file's path in the error.
    func write(_ bytes: [UInt8], to path: String) throws {
        if let error = writeFile(path, bytes, true) { throw PathError(path: path, error: error) }
    }

    /// Creates every folder the files at `paths` need below `root`; those that exist answer
    /// EEXIST.
    /// - Returns: The folders made, parents first.
    @discardableResult
    func createDirectories(for paths: [String], in root: String) throws -> [String] {
        var directories = Set<String>()
        for var path in paths {
            while let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) {
                path = String(path[..<slash])
                if !directories.insert(path).inserted { break }
            }
        }
        // Sorted, parents come before their children, so plain mkdir suffices; it is much
        // cheaper than FileManager's, which checks every parent again.
        var made: [String] = []
        for directory in directories.sorted() {
            if let error = makeDirectory(root + "/" + directory) {
                guard error.code == EEXIST else { throw error }
            } else {
                made.append(directory)
            }
        }
        return made
    }

    /// Writes pages below `root` on every core, after making their folders, then hard-links
    /// each into the same place below `spare`, if any, which has the same folders as `root`.
    /// Folders an earlier call made are made again and answer EEXIST: a few calls per batch,
    /// where remembering them took 110 bytes a fruit.
    /// - Returns: Why the pages could not all be linked into `spare`, if they could not.
    /// - Throws: When a page cannot be written below `root`.
    func writeAll(_ pages: [RenderedPage], into root: String, linkingInto spare: String?)
        throws -> (any Error)?
    {
        let folders = try createDirectories(for: pages.map(\.path), in: root)
        try Self.forEachConcurrently(pages) { page in
            try write(page.bytes, to: root + "/" + page.path)
        }
        guard let spare else { return nil }
        do {
            for folder in folders { try makeFolder(spare + "/" + folder) }
            try Self.forEachConcurrently(pages) { page in
                if let error = link(root + "/" + page.path, spare + "/" + page.path) {
                    throw PathError(path: spare + "/" + page.path, error: error)
                }
            }
            return nil
        } catch {
            return error
        }
    }

    /// Recreates the folders below `source` in `destination` and hard-links every file but
    /// the marker.
    func linkTree(from source: String, to destination: String) throws {
        try copyTree(from: source, to: destination) { from, to in
            if let error = link(from, to) { throw PathError(path: to, error: error) }
        }
    }

    /// Recreates the folders below `source` in `destination` and copies every file's bytes
    /// but the marker's, for a folder on another file system than `source`.
    func copyBytes(from source: String, to destination: String) throws {
        try copyTree(from: source, to: destination) { from, to in
            try write(read(from, .max), to: to)
        }
    }

    /// Walks the folders below `source`, making each in `destination`, and hands every other
    /// entry but the marker to `place`.
    private func copyTree(
        from source: String, to destination: String,
        place: (_ from: String, _ to: String) throws -> Void
    ) throws {
        var pending = [""]
        while let folder = pending.popLast() {
            let path = folder.isEmpty ? source : source + "/" + folder
            let entries: [FileSystem.Entry]
            do {
                entries = try list(path)
            } catch let error as SystemError {
                throw PathError(path: path, error: error)
            }
            for entry in entries {
                let relative = folder.isEmpty ? entry.name : folder + "/" + entry.name
                if relative == OutputMarker.name { continue }
                let to = destination + "/" + relative
                switch entry.kind {
                case .directory:
                    try makeFolder(to)
                    pending.append(relative)
                default:
                    try place(source + "/" + relative, to)
                }
            }
        }
    }

    /// Removes the files at `paths` below `root`, and the folders that leaves empty, such as
    /// fruits/<old-slug>/.
    /// - Returns: How many of the files were there.
    func remove(_ paths: [String], from root: String) throws -> Int {
        var removed = 0
        for path in paths {
            if let error = removeFile(root + "/" + path) {
                if error.code == ENOENT { continue }
                throw PathError(path: root + "/" + path, error: error)
            }
            removed += 1
            try removeEmptyFolders(above: path, in: root)
        }
        return removed
    }

    /// Removes the folders above `path` below `root` that are left empty, deepest first.
    /// - Throws: When one that is empty cannot be removed: the site must not keep it.
    func removeEmptyFolders(above path: String, in root: String) throws {
        var parent = Self.folder(of: path)
        while !parent.isEmpty {
            if let error = removeDirectory(root + "/" + parent) {
                if [ENOTEMPTY, EEXIST, ENOENT].contains(error.code) { return }
                throw PathError(path: root + "/" + parent, error: error)
            }
            parent = Self.folder(of: parent)
        }
    }

    /// The folder part of a relative path: "" for a file at the top.
    static func folder(of path: String) -> String {
        path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? ""
    }

    /// Runs `body` for every element of `items` on every core.
    /// - Throws: The first error `body` threw, once every element has had its turn.
    static func forEachConcurrently<Item: Sendable>(
        _ items: [Item], _ body: @Sendable (Item) throws -> Void
    ) throws {
        nonisolated(unsafe) var firstError: Error?
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            do {
                try body(items[index])
            } catch {
                lock.lock()
                if firstError == nil { firstError = error }
                lock.unlock()
            }
        }
        if let firstError { throw firstError }
    }
}
