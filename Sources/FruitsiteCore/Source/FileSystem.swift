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
    public var list: @Sendable (_ directory: String) throws -> [Entry]
    /// The absolute path with every symbolic link resolved, or nil when it does not exist.
    public var resolve: @Sendable (_ path: String) -> String?
    public var isDirectory: @Sendable (_ path: String) -> Bool

    /// The real disk.
    public static let local = FileSystem(
        read: { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
            }
            return [UInt8](data)
        },
        list: { directory in
            // readdir's d_type names each entry's kind without a stat call per file, which
            // FileManager.attributesOfItem would make: that was most of listing 10,000 entries.
            guard let stream = opendir(directory) else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            defer { closedir(stream) }
            var entries: [Entry] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
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
            return entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        },
        resolve: { path in
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        },
        isDirectory: { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    )
}
