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

    public init(path: String, error: SystemError) {
        self.path = path
        self.error = error
    }

    public var description: String { "'\(path)': \(error)" }
}
