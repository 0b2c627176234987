#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock that lets one build at a time use an output folder and its model in the cache:
/// `flock` on a hidden file beside the folder (`.Output.fruitsite-lock` for `Output/`).
///
/// The kernel releases the lock when the process ends, however it ends, so a build killed
/// with `kill -9` never leaves a stale lock behind. While a build holds it, anything else
/// beside the folder that a build leaves (a staging or retired folder) belongs to a build
/// that is gone, and may be cleared. The file itself stays: removing a lock file while
/// another process waits on it would let two builds in.
public final class OutputLock {
    /// The lock file's path.
    public let path: String
    private let descriptor: Int32

    /// The lock file of the output folder whose absolute path is `output`.
    public static func path(besideOutput output: String) -> String {
        let parent = output.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        let name = output.split(separator: "/").last.map(String.init) ?? ""
        return (parent.isEmpty ? "" : parent) + "/." + name + ".fruitsite-lock"
    }

    /// Takes the lock of the output folder at the absolute path `output`, creating the
    /// folder's parent if needed.
    /// - Parameters:
    ///   - output: The output folder's absolute path.
    ///   - shown: The folder as the user named it, for messages.
    ///   - waits: Wait for another build to finish instead of refusing.
    /// - Throws: `BuildFailure` when another build holds the lock and `waits` is false, or
    ///   the lock file cannot be created.
    public init(output: String, shown: String, waits: Bool) throws(BuildFailure) {
        path = Self.path(besideOutput: output)
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        Self.makeFolders(parent.isEmpty ? "/" : parent)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            let error = SystemError.last
            throw BuildFailure([
                .error(
                    at: SourceLocation(path: shown),
                    "cannot create the lock file '\(path)': \(error)",
                    hint: "the folder that holds the output folder must be writable")
            ])
        }
        while flock(descriptor, waits ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let error = SystemError.last
            if error.code == EINTR { continue }
            close(descriptor)
            if error.code == EWOULDBLOCK {
                throw BuildFailure([
                    .error(
                        at: SourceLocation(path: shown),
                        "another build is writing this output folder",
                        hint: "wait for it to finish, or pass --wait to wait for it")
                ])
            }
            throw BuildFailure([
                .error(
                    at: SourceLocation(path: shown), "cannot lock '\(path)': \(error)")
            ])
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// `mkdir -p`, quietly: a folder that cannot be made shows up as the lock file's error.
    private static func makeFolders(_ path: String) {
        var built = ""
        for component in path.split(separator: "/") {
            built += "/" + component
            _ = mkdir(built, 0o755)
        }
    }
}
