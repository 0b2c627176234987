import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every system call the output folder's code makes, as closures: the real ones (`local`), or
/// in a test the same ones failing at any chosen step, as SQLite's crash tests fail each
/// write in turn (`CommitFaultTests`). An action returns nil, or the error it failed with.
struct OutputFileSystem: Sendable {
    var makeDirectory: @Sendable (_ path: String) -> SystemError?
    var removeDirectory: @Sendable (_ path: String) -> SystemError?
    var removeFile: @Sendable (_ path: String) -> SystemError?
    var rename: @Sendable (_ source: String, _ destination: String) -> SystemError?
    /// Swaps two paths in one atomic step; ENOSYS where the system has no such call.
    var exchange: @Sendable (_ first: String, _ second: String) -> SystemError?
    var link: @Sendable (_ existing: String, _ new: String) -> SystemError?
    /// Writes a whole file (`OutputWriter.writeFile`); unless `replacing`, EEXIST when there is
    /// one.
    var writeFile: @Sendable (_ path: String, _ bytes: [UInt8], _ replacing: Bool) -> SystemError?
    /// `stat`, which follows symbolic links.
    var status: @Sendable (_ path: String) throws(SystemError) -> stat
    /// `lstat`, which does not.
    var linkStatus: @Sendable (_ path: String) throws(SystemError) -> stat
    var changeGroup: @Sendable (_ path: String, _ group: gid_t) -> SystemError?
    var changeMode: @Sendable (_ path: String, _ mode: mode_t) -> SystemError?
    /// Whether the process may write into the folder at `path` (`access` with `W_OK`).
    var checkWritable: @Sendable (_ path: String) -> SystemError?
    /// A folder's entries (`FileSystem.local`'s listing).
    var list: @Sendable (_ folder: String) throws -> [FileSystem.Entry]
    /// A regular file's bytes, up to a limit (`FileSystem.readBytes`).
    var read: @Sendable (_ path: String, _ limit: Int) throws -> [UInt8]
    /// Removes a file, or a folder and all below it, as Foundation does: it reaches names that
    /// are not UTF-8, which `list` cannot give.
    var removeItem: @Sendable (_ path: String) -> Void
    /// The path with every symbolic link resolved (`realpath`), nil when it does not exist.
    var resolve: @Sendable (_ path: String) -> String?

    /// The system's own calls.
    static let local = OutputFileSystem(
        makeDirectory: { failure(mkdir($0, 0o755)) },
        removeDirectory: { failure(rmdir($0)) },
        removeFile: { failure(unlink($0)) },
        rename: { failure(systemRename($0, $1)) },
        exchange: exchangeLocally,
        link: { failure(systemLink($0, $1)) },
        writeFile: { path, bytes, replacing in
            do {
                try OutputWriter.writeFile(path, bytes, replacing: replacing)
                return nil
            } catch let error as PathError {
                return error.error
            } catch {
                return SystemError(code: EIO)
            }
        },
        status: { path throws(SystemError) in
            var info = stat()
            guard stat(path, &info) == 0 else { throw SystemError.last }
            return info
        },
        linkStatus: { path throws(SystemError) in
            var info = stat()
            guard lstat(path, &info) == 0 else { throw SystemError.last }
            return info
        },
        changeGroup: { failure(chown($0, uid_t.max, $1)) },
        changeMode: { failure(chmod($0, $1)) },
        checkWritable: { failure(access($0, W_OK)) },
        list: FileSystem.local.list,
        read: { try FileSystem.readBytes($0, limit: $1) },
        removeItem: { try? FileManager.default.removeItem(atPath: $0) },
        resolve: { path in
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        })

    /// nil for a call that returned 0, else the error it set.
    private static func failure(_ result: Int32) -> SystemError? {
        result == 0 ? nil : .last
    }

    #if os(Linux)
        private typealias RenameAt2 =
            @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32)
            -> Int32
        /// glibc's `renameat2`, which Swift's Glibc module does not show (it needs
        /// _GNU_SOURCE); looked up once.
        private static let renameAt2: RenameAt2? = dlsym(nil, "renameat2").map {
            unsafeBitCast($0, to: RenameAt2.self)
        }
    #endif

    /// `renameat2` with `RENAME_EXCHANGE`, where there is one.
    private static func exchangeLocally(_ first: String, _ second: String) -> SystemError? {
        #if os(Linux)
            guard let renameAt2 else { return SystemError(code: ENOSYS) }
            let renameExchange: UInt32 = 1 << 1
            return failure(renameAt2(AT_FDCWD, first, AT_FDCWD, second, renameExchange))
        #else
            return SystemError(code: ENOSYS)
        #endif
    }
}

extension OutputWriter {
    /// One `open`/`write`/`close`: no intermediate `Data` copy. Unless `replacing`, a file
    /// already at `path` is an error (`EEXIST`) and stays as it was.
    static func writeFile(_ path: String, _ bytes: [UInt8], replacing: Bool = true) throws {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replacing ? O_TRUNC : O_EXCL)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw PathError(path: path, error: .last) }
        defer { close(descriptor) }
        try write(bytes, to: descriptor, path: path)
    }

    /// Writes all of `bytes` to an open file; `path` names it in errors.
    static func write(_ bytes: some ContiguousBytes, to descriptor: Int32, path: String) throws {
        var offset = 0
        try bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = systemWrite(
                    descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else {
                    if written < 0 && errno == EINTR { continue }
                    throw PathError(path: path, error: .last)
                }
                offset += written
            }
        }
    }

    #if canImport(Glibc)
        private static let systemWrite = Glibc.write
    #else
        private static let systemWrite = Darwin.write
    #endif
}

// The C calls whose names the closures above take.
#if canImport(Glibc)
    private let systemRename = Glibc.rename
    private let systemLink = Glibc.link
#else
    private let systemRename = Darwin.rename
    private let systemLink = Darwin.link
#endif
