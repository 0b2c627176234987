import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations the loaders need, as closures so tests can swap in a fake disk.
public struct FileSystem: Sendable {
    /// One entry of a folder listing.
    public struct Entry: Sendable {
        public enum Kind: Sendable { case file, directory, symbolicLink, other }
        public var name: String
        public var kind: Kind
    }

    public var read: @Sendable (_ path: String) throws -> [UInt8]
    /// A folder's entries, in no particular order.
    public var list: @Sendable (_ directory: String) throws -> [Entry]
    /// The absolute path with every symbolic link resolved, or nil when it does not exist.
    public var resolve: @Sendable (_ path: String) -> String?
    public var isDirectory: @Sendable (_ path: String) -> Bool
    /// The file's `stat`, which lets a rebuild skip files that have not changed; nil when
    /// unknown, which makes the file be read.
    public var status: @Sendable (_ path: String) -> FileStatus? = { _ in nil }

    /// The real disk.
    public static let local = FileSystem(
        read: FileSystem.readBytes,
        list: { directory in
            // readdir's d_type names each entry's kind without a stat call per file, which
            // FileManager.attributesOfItem would make: that was most of listing 10,000 entries.
            guard let stream = opendir(directory) else {
                throw SystemError.last
            }
            defer { closedir(stream) }
            var entries: [Entry] = []
            while let entry = readdir(stream) {
                let name = withUnsafePointer(to: &entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name == "." || name == ".." { continue }
                var type = Int32(entry.pointee.d_type)
                if type == Int32(DT_UNKNOWN) {
                    var info = stat()
                    guard lstat(directory + "/" + name, &info) == 0 else { continue }
                    switch info.st_mode & S_IFMT {
                    case S_IFREG: type = Int32(DT_REG)
                    case S_IFDIR: type = Int32(DT_DIR)
                    case S_IFLNK: type = Int32(DT_LNK)
                    default: break
                    }
                }
                let kind: Entry.Kind =
                    switch type {
                    case Int32(DT_REG): .file
                    case Int32(DT_DIR): .directory
                    case Int32(DT_LNK): .symbolicLink
                    default: .other
                    }
                entries.append(Entry(name: name, kind: kind))
            }
            return entries
        },
        resolve: { path in
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        },
        isDirectory: { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        },
        status: FileStatus.of
    )

    /// The file's bytes, read straight into an array: one `open`, `fstat` and `read`, without
    /// the `Data` that `FileManager` would make and the copy out of it.
    static func readBytes(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError.last }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw SystemError.last
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw SystemError(code: EISDIR) }
        // The size is a hint: a file that grows while read is read to its end.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let read = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if read == 0 { break }
            guard read > 0 else {
                if errno == EINTR { continue }
                throw SystemError.last
            }
            count += read
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    #if canImport(Glibc)
        private static let systemRead = Glibc.read
    #else
        private static let systemRead = Darwin.read
    #endif
}
