#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call, described as the C library describes `errno`: "No such file or
/// directory", not a Foundation error domain and code.
public struct SystemError: Error, Sendable, CustomStringConvertible {
    public var code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// The error the last failed call set.
    static var last: SystemError { SystemError(code: errno) }

    public var description: String { String(cString: strerror(code)) }
}
