#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat` says about a file: enough to tell, without reading it, that it has not changed
/// since an earlier build (the same test `git status` and `make` rely on).
public struct FileStatus: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Last modification, in nanoseconds since 1970.
    public var modified: Int64
    /// Last status change, in nanoseconds since 1970. Tools can set the modification time
    /// back (`touch -d`, `cp -p`, archive extraction), but not this one.
    public var changed: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    /// The status of the file at `path`, following symbolic links; nil when it cannot be read.
    public static func of(_ path: String) -> FileStatus? {
        path.withCString(of)
    }

    private static func of(_ path: UnsafePointer<CChar>) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    /// The statuses of `paths`, made on every core. Each folder is opened once and its files
    /// are looked up by name in it: with whole paths the kernel walked every folder of the
    /// path again for each file, which was a fifth of a rebuild at 100,000 entries.
    public static func statuses(of paths: PathList) -> [FileStatus?] {
        Array(paths.indices).concurrentMap(runs: { run -> [FileStatus?] in
            // The open folder's path, as C characters with their terminating zero.
            var folder = (path: [CChar](), descriptor: Int32(-1))
            defer { if folder.descriptor >= 0 { close(folder.descriptor) } }
            return run.map { index -> FileStatus? in
                paths.withPath(at: index) { path -> FileStatus? in
                    let whole = path.baseAddress!
                    // A bare name, or a path that ends with a slash, is looked up whole.
                    guard let slash = strrchr(whole, Int32(UInt8(ascii: "/"))), slash[1] != 0
                    else { return of(whole) }
                    let parentLength = whole.distance(to: slash)
                    let isOpen =
                        folder.path.count == parentLength + 1
                        && memcmp(folder.path, whole, parentLength) == 0
                    if !isOpen {
                        if folder.descriptor >= 0 { close(folder.descriptor) }
                        folder.path = Array(UnsafeBufferPointer(start: whole, count: parentLength))
                        folder.path.append(0)
                        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
                        folder.descriptor =
                            parentLength == 0 ? open("/", flags) : open(folder.path, flags)
                    }
                    guard folder.descriptor >= 0 else { return of(whole) }
                    var info = stat()
                    return fstatat(folder.descriptor, slash + 1, &info, 0) == 0
                        ? FileStatus(info) : nil
                }
            }
        })
    }

    private init(_ info: stat) {
        #if canImport(Darwin)
            let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        self.init(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
            changed: Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec))
    }

    /// Whether a record of this status made at `verifiedAt` (nanoseconds since 1970) can stand
    /// for the file's bytes whenever the file shows this status again.
    ///
    /// A file time is only as fine as the file system keeps it, and Linux stamps files from a
    /// clock that ticks every few milliseconds: a file changed in the same tick as the record
    /// could change again without its status showing it. So the times must lie a margin
    /// before the record: 100 ms where the file system keeps sub-second times, two seconds
    /// where it keeps whole seconds (FAT keeps even seconds only). Any other file is checked
    /// against its bytes.
    public func isSettled(at verifiedAt: Int64) -> Bool {
        let keepsSubseconds = modified % 1_000_000_000 != 0
        let margin: Int64 = keepsSubseconds ? 100_000_000 : 2_000_000_000
        return max(modified, changed) < verifiedAt - margin
    }
}
