import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `new` and `init` write: new files, all of them or none, never in place of one that
/// is there or appears meanwhile. The files are written into a hidden staging folder inside
/// the target folder, on its file system, then moved in; a failure at any step removes what
/// was staged, moved or made, so "nothing was written" holds.
enum NewFiles {
    /// Writes one new file's bytes; tests inject one that fails.
    typealias Writer = @Sendable (_ path: String, _ bytes: [UInt8]) throws -> Void

    /// The system's: `open(O_EXCL)`, then `write` until all is written.
    static let systemWriter: Writer = { try OutputWriter.writeFile($0, $1, replacing: false) }

    /// Writes `files`, paths relative to `folder`, into `folder`, making it and its missing
    /// parents first.
    /// - Throws: `PathError` naming the file or folder that failed, with nothing left behind.
    static func create(
        _ files: [(path: String, bytes: [UInt8])], in folder: String, writer: Writer = systemWriter
    ) throws(PathError) {
        // Held back, a Ctrl-C comes once the files are in place or gone, not half way.
        try SignalDeferral.run { () throws(PathError) in
            let made = try makeFolders(folder)
            let staging = folder + "/.fruitsite-new-" + UUID().uuidString
            var moved: [String] = []
            do throws(PathError) {
                guard mkdir(staging, 0o755) == 0 else {
                    throw PathError(path: folder, error: .last)
                }
                for file in files {
                    let path = staging + "/" + file.path
                    // Named by where it goes: the staging folder is no path the user knows.
                    do {
                        try FileSystem.makeFolders((path as NSString).deletingLastPathComponent)
                        try writer(path, file.bytes)
                    } catch let error as PathError {
                        throw PathError(path: folder + "/" + file.path, error: error.error)
                    } catch {
                        throw PathError(
                            path: folder + "/" + file.path, error: SystemError(code: EIO))
                    }
                }
                let names = Set(files.map { String($0.path.prefix { $0 != "/" }) }).sorted()
                for name in names {
                    try moveNew(staging + "/" + name, to: folder + "/" + name)
                    moved.append(folder + "/" + name)
                }
                guard rmdir(staging) == 0 else { throw PathError(path: staging, error: .last) }
            } catch {
                for path in moved + [staging] { try? FileManager.default.removeItem(atPath: path) }
                for path in made { rmdir(path) }
                throw error
            }
        }
    }

    /// Makes `folder` and its missing parents.
    /// - Returns: The folders made, deepest first, to remove again on a failure.
    private static func makeFolders(_ folder: String) throws(PathError) -> [String] {
        var missing: [String] = []
        var path = folder
        while !path.isEmpty, path != "/", access(path, F_OK) != 0, errno == ENOENT {
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        do throws(PathError) {
            try FileSystem.makeFolders(folder)
        } catch {
            for path in missing { rmdir(path) }
            throw error
        }
        return missing
    }

    /// Moves a staged file or folder to `target`, which it must not replace: a file by
    /// `link` then `unlink` (`link` fails on any file there), a folder by `rename`, which
    /// fails on anything but an empty folder, so replaces nothing that holds anything.
    private static func moveNew(_ source: String, to target: String) throws(PathError) {
        var info = stat()
        guard lstat(source, &info) == 0 else { throw PathError(path: source, error: .last) }
        if info.st_mode & S_IFMT == S_IFDIR {
            guard rename(source, target) == 0 else {
                throw PathError(path: target, error: .last)
            }
        } else {
            guard link(source, target) == 0 else { throw PathError(path: target, error: .last) }
            unlink(source)
        }
    }
}
