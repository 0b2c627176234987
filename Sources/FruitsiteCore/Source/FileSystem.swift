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
        /// False when the name's bytes are not UTF-8: `name` then has U+FFFD in their place,
        /// and no file of that name exists.
        public var isValidName = true
    }

    /// The bytes of the regular file at `path`, or an error when it is something else or
    /// larger than `limit` bytes.
    public var read: @Sendable (_ path: String, _ limit: Int) throws -> [UInt8]
    /// A folder's entries, in no particular order.
    public var list: @Sendable (_ directory: String) throws -> [Entry]
    /// The absolute path with every symbolic link resolved, or nil when it does not exist.
    public var resolve: @Sendable (_ path: String) -> String?
    public var isDirectory: @Sendable (_ path: String) -> Bool
    /// Each file's `stat`, which lets a rebuild skip files that have not changed; nil when
    /// unknown, which makes the file be read. All at once, since a rebuild asks for every
    /// file's.
    public var statuses: @Sendable (_ paths: PathList) -> [FileStatus?] = { $0.map { _ in nil } }
    /// Whether `path` is itself a symbolic link (not followed), or a file with other names
    /// (hard links): what is written to it may show under another path.
    public var isLinked: @Sendable (_ path: String) -> Bool = { _ in false }

    /// One file's `stat`, as `statuses` gives it.
    public func status(_ path: String) -> FileStatus? { statuses(PathList([path]))[0] }

    /// Hidden files and editors' temporaries (`.swp` and `.#` files, `~` backups, Vim's
    /// `4913` probe, `.tmp` and `.bck`): a theme's are not read or copied, and `serve` does
    /// not watch them, so that it serves what `build` writes.
    public static func isScratch(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name == "4913" || name.hasSuffix(".swp")
            || name.hasSuffix(".tmp") || name.hasSuffix(".bck")
    }

    /// The real disk.
    public static let local = FileSystem(
        read: { path, limit in try FileSystem.readBytes(path, limit: limit) },
        list: { directory in
            // readdir's d_type names each entry's kind without a stat call per file, which
            // FileManager.attributesOfItem would make: that was most of listing 10,000 entries.
            guard let stream = opendir(directory) else {
                throw SystemError.last
            }
            defer { closedir(stream) }
            var entries: [Entry] = []
            while let entry = readdir(stream) {
                let (name, isValidName) = withUnsafePointer(to: &entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) {
                        String(validatingCString: $0).map { ($0, true) } ?? (
                            String(cString: $0), false
                        )
                    }
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
                entries.append(Entry(name: name, kind: kind, isValidName: isValidName))
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
        statuses: FileStatus.statuses(of:),
        isLinked: { path in
            var info = stat()
            guard lstat(path, &info) == 0 else { return false }
            let kind = info.st_mode & S_IFMT
            return kind == S_IFLNK || kind == S_IFREG && info.st_nlink > 1
        }
    )

    /// The most a file may hold unless its reader says otherwise: templates, the config.
    public static let defaultLimit = 4 << 20

    /// The file's bytes, read straight into an array: one `open`, `fstat` and `read`, without
    /// the `Data` that `FileManager` would make and the copy out of it.
    ///
    /// Opened without blocking, so that a FIFO (which would wait for a writer for ever) is
    /// refused at once, like anything else that is not a regular file once symbolic links
    /// are resolved.
    /// - Throws: `SystemError`, or `UnreadableFile` for a file that is not regular or is
    ///   larger than `limit` bytes.
    static func readBytes(_ path: String, limit: Int = .max) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw SystemError.last }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw SystemError.last
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw UnreadableFile.notRegular(kind: kindDescription(info.st_mode))
        }
        guard info.st_size <= limit else {
            throw UnreadableFile.tooLarge(size: Int(info.st_size), limit: limit)
        }
        // The size is a hint: a file that grows while read is read to its end, or the limit.
        // The first read goes into memory that is not zeroed first: for a file of tens of
        // megabytes, zeroing cost as much as the read.
        var bytes: [UInt8] = []
        var wanted = Int(info.st_size) + 1
        while true {
            // Only the first read knows where the file ends.
            let size = bytes.isEmpty ? Int(info.st_size) : nil
            let read = try [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
                count = try readAll(
                    descriptor, into: UnsafeMutableRawBufferPointer(buffer), size: size)
            }
            if bytes.isEmpty { bytes = read } else { bytes += read }
            if bytes.count > limit {
                throw UnreadableFile.tooLarge(size: bytes.count, limit: limit)
            }
            if read.count < wanted { break }
            wanted = min(bytes.count, limit - bytes.count) + 1
        }
        return bytes
    }

    /// Reads until `buffer` is full or the file ends; returns how many bytes it read.
    ///
    /// A read that stops short at `size`, the file's size when it was opened, is taken as its
    /// end: asking again would return 0, one more system call for every file a build reads.
    private static func readAll(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, size: Int?
    ) throws -> Int {
        var count = 0
        while count < buffer.count {
            let read = systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
            if read == 0 { break }
            guard read > 0 else {
                if errno == EINTR { continue }
                throw SystemError.last
            }
            count += read
            if count == size { break }
        }
        return count
    }

    /// Makes the folder at `path` and whichever of its parents are missing, like `mkdir -p`.
    /// - Throws: `PathError` naming the folder that could not be made.
    static func makeFolders(_ path: String) throws(PathError) {
        if mkdir(path, 0o755) == 0 { return }
        switch errno {
        case EEXIST:
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw PathError(path: path, error: SystemError(code: ENOTDIR))
            }
        case ENOENT:
            let parent = (path as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != path else {
                throw PathError(path: path, error: .last)
            }
            try makeFolders(parent)
            guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                throw PathError(path: path, error: .last)
            }
        default:
            throw PathError(path: path, error: .last)
        }
    }

    /// "a FIFO", "a folder": what a file that is not regular is.
    static func kindDescription(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFDIR: "a folder"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// The rule for a symbolic link met while listing a folder the site is read from
    /// (content or templates): followed only when it resolves to a place inside `root`, the
    /// folder's resolved path, so a link can never pull in files from elsewhere.
    /// - Returns: Where the link leads; nil, with a warning saying why, when it is not followed.
    func followLink(
        _ path: String, inside root: String, folderName: String, warnings: inout [Diagnostic]
    ) -> String? {
        if let target = resolve(path), target == root || target.hasPrefix(root + "/") {
            return target
        }
        warnings.append(
            .warning(
                at: SourceLocation(path: path),
                Self.brokenLinkReason(path)
                    ?? "symbolic link not followed: it points outside the \(folderName)"))
        return nil
    }

    /// Why the symbolic link at `path` leads nowhere usable, or nil when it resolves.
    static func brokenLinkReason(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) != 0 else { return nil }
        switch errno {
        case ELOOP: return "symbolic link not followed: it is part of a loop of links"
        case ENOENT, ENOTDIR: return "symbolic link not followed: it points to nothing"
        default: return "symbolic link not followed: \(SystemError.last)"
        }
    }

    #if canImport(Glibc)
        private static let systemRead = Glibc.read
    #else
        private static let systemRead = Darwin.read
    #endif
}
