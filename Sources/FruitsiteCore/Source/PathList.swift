/// Paths in one buffer, each followed by a zero byte as the C library takes it: the paths of a
/// hundred thousand entries, whose statuses every build takes, are two allocations rather
/// than one for each path, copied from the saved model's file table (`FileTable`) rather
/// than made strings.
public struct PathList: RandomAccessCollection, Sendable {
    /// Every path's bytes, each followed by a zero byte.
    private var bytes: [CChar] = []
    /// Where each path starts in `bytes`.
    private var starts: [Int] = []

    public init() {}

    public init(_ paths: some Sequence<String>) {
        for path in paths { append(path) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { starts.count }

    /// The path at `index`, made a string.
    public subscript(index: Int) -> String {
        withPath(at: index) { path in
            String(
                decoding: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: path.dropLast())),
                as: UTF8.self)
        }
    }

    public mutating func append(_ path: String) {
        var path = path
        path.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Makes room for `count` more paths of `bytes` bytes in all, zero bytes included.
    mutating func reserveCapacity(_ count: Int, bytes: Int) {
        starts.reserveCapacity(starts.count + count)
        self.bytes.reserveCapacity(self.bytes.count + bytes)
    }

    /// Adds the path whose UTF-8 bytes are `utf8`.
    mutating func append(_ utf8: UnsafeRawBufferPointer) {
        starts.append(bytes.count)
        bytes.append(contentsOf: utf8.bindMemory(to: CChar.self))
        bytes.append(0)
    }

    /// Adds the paths of `other` after these.
    mutating func append(contentsOf other: PathList) {
        let offset = bytes.count
        bytes += other.bytes
        starts += other.starts.lazy.map { $0 + offset }
    }

    /// `body` with the path at `index`: its bytes and the zero byte after them.
    public func withPath<Result>(
        at index: Int, _ body: (UnsafeBufferPointer<CChar>) throws -> Result
    ) rethrows -> Result {
        let end = index + 1 < starts.count ? starts[index + 1] : bytes.count
        return try bytes.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[starts[index]..<end]))
        }
    }
}
