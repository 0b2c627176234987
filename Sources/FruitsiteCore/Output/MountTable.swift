#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells a mount point, which cannot be renamed, so that the output folder's contents are
/// replaced instead (`ContentsReplacement`, `RenamedChanges`).
enum MountTable {
    /// Whether `path` is a mount point: on another device than its parent, or listed in the
    /// process's mount table (a bind mount of the same device).
    static func isMountPoint(_ path: String, fileSystem: OutputFileSystem) -> Bool {
        guard let own = try? fileSystem.status(path),
            let parent = try? fileSystem.status(path + "/..")
        else { return false }
        if own.st_dev != parent.st_dev { return true }
        #if os(Linux)
            guard let table = try? fileSystem.read("/proc/self/mountinfo", .max) else {
                return false
            }
            for line in String(decoding: table, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count > 4 else { continue }
                // Spaces and other bytes in mount points are written as octal escapes.
                if unescape(fields[4]) == path { return true }
            }
        #endif
        return false
    }

    private static func unescape(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        var characters = Array(field.utf8)[...]
        while let byte = characters.popFirst() {
            if byte == UInt8(ascii: "\\"), characters.count >= 3,
                let value = UInt8(String(decoding: characters.prefix(3), as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                characters = characters.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
