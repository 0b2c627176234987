/// Why a file the build reads was refused before its bytes were read.
public enum UnreadableFile: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a regular file after symbolic links are resolved: a FIFO, a device, a socket or a
    /// folder, named by `kind`. Reading a FIFO would wait for a writer for ever.
    case notRegular(kind: String)
    /// Larger than the limit for files of its kind.
    case tooLarge(size: Int, limit: Int)

    public var description: String {
        switch self {
        case .notRegular(let kind): "it is \(kind), not a regular file"
        case .tooLarge(let size, let limit):
            "the file is \(Self.describe(size, over: limit))"
        }
    }

    /// "2.5 MB, more than the limit of 2 MB": in exact bytes when the two would read alike
    /// in tenths of the size's unit (1,030 bytes is "1.0 KB", and so would be a 1 KB limit).
    static func describe(_ size: Int, over limit: Int) -> String {
        let unit = size >= 1 << 20 ? 20 : size >= 1 << 10 ? 10 : 0
        guard (size * 10) >> unit != (limit * 10) >> unit else {
            return "\(size) bytes, more than the limit of \(limit) bytes"
        }
        return "\(describe(size)), more than the limit of \(describe(limit))"
    }

    /// "3 MB", "512 KB", "12 bytes": sizes in units of 1024.
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 20 { return "\(bytes >> 20).\(((bytes * 10) >> 20) % 10) MB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        if bytes >= 1 << 10 { return "\(bytes >> 10).\(((bytes * 10) >> 10) % 10) KB" }
        return "\(bytes) bytes"
    }
}
