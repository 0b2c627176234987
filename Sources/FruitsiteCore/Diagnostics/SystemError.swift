#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call, described as the C library describes `errno`: "No such file or
/// directory", not a Foundation error domain and code.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// "No such file or directory".
    public static let noSuchFile = SystemError(code: ENOENT)

    /// The error the last failed call set.
    static var last: SystemError { SystemError(code: errno) }

    public var description: String { String(cString: strerror(code)) }
}

/// A failed system call on one file: "'Output/index.html': Permission denied".
public struct PathError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var error: SystemError
    /// Whether "No space left on device" meant no inodes left: the file system has room for
    /// bytes but not for one more file, which `df` does not show.
    public var isOutOfInodes: Bool

    public init(path: String, error: SystemError) {
        self.path = path
        self.error = error
        isOutOfInodes = error.code == ENOSPC && Self.hasNoFreeInodes(near: path)
    }

    public var description: String {
        "'\(path)': \(error)"
            + (isOutOfInodes
                ? " (no free inodes: the file system has room but can hold no more files; "
                    + "see df -i)" : "")
    }

    /// Whether the file system of `path`, or of the nearest folder above it that exists,
    /// counts its inodes and has none free while it has free blocks.
    private static func hasNoFreeInodes(near path: String) -> Bool {
        var path = path
        while true {
            var info = statvfs()
            if statvfs(path.isEmpty ? "." : path, &info) == 0 {
                return info.f_files > 0 && info.f_favail == 0 && info.f_bavail > 0
            }
            guard !path.isEmpty, path != "/" else { return false }
            let slash = path.lastIndex(of: "/")
            path = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? ""
        }
    }
}
