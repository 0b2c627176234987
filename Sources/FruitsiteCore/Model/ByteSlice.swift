#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Read-only bytes that live as long as any slice of them: a file mapped into memory, or a
/// copy. Indices are those of the whole, as an `ArraySlice`'s are.
///
/// The saved model is mapped rather than read: reading its 44 MB at 100,000 entries into
/// fresh memory (page faults and a copy) made a build that changed nothing take 326 ms
/// instead of 292, while mapped, the entries that did not change point into the file's
/// pages as they are. fruitsite replaces that file by a rename, never in place, so its
/// pages cannot change under a build.
struct ByteSlice: RandomAccessCollection, Sendable {
    /// The whole, freed or unmapped with the last slice. Never written after `init`.
    private final class Storage: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
        private let isMapped: Bool

        init(bytes: UnsafeBufferPointer<UInt8>, isMapped: Bool) {
            (self.bytes, self.isMapped) = (bytes, isMapped)
        }

        deinit {
            if isMapped {
                munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
            } else {
                bytes.deallocate()
            }
        }
    }

    private let storage: Storage
    let startIndex: Int
    let endIndex: Int

    private init(_ storage: Storage, _ bounds: Range<Int>) {
        self.storage = storage
        (startIndex, endIndex) = (bounds.lowerBound, bounds.upperBound)
    }

    /// A copy of `bytes`.
    init(copying bytes: some Collection<UInt8>) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = copy.initialize(from: bytes)
        self.init(Storage(bytes: UnsafeBufferPointer(copy), isMapped: false), 0..<copy.count)
    }

    /// The bytes of the regular file at `path`, mapped; read into memory where its file
    /// system cannot map files.
    static func mapping(_ path: String) throws -> ByteSlice {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw SystemError.last }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemError.last }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw UnreadableFile.notRegular(kind: FileSystem.kindDescription(info.st_mode))
        }
        let count = Int(info.st_size)
        // An empty mapping is an error; an empty file is simply no bytes.
        guard count > 0 else { return ByteSlice(copying: []) }
        let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else {
            return ByteSlice(copying: try FileSystem.readBytes(path))
        }
        let bytes = UnsafeBufferPointer(
            start: address.bindMemory(to: UInt8.self, capacity: count), count: count)
        return ByteSlice(Storage(bytes: bytes, isMapped: true), 0..<count)
    }

    subscript(position: Int) -> UInt8 {
        precondition(indices.contains(position), "index out of range")
        return storage.bytes[position]
    }

    subscript(bounds: Range<Int>) -> ByteSlice {
        precondition(
            bounds.lowerBound >= startIndex && bounds.upperBound <= endIndex,
            "range out of bounds")
        return ByteSlice(storage, bounds)
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        try body(
            UnsafeRawBufferPointer(
                UnsafeBufferPointer(rebasing: storage.bytes[startIndex..<endIndex])))
    }

    /// The bytes as an array.
    var array: [UInt8] { withUnsafeBytes { Array($0) } }
}

extension [UInt8] {
    /// Appends `bytes` at once: the generic `+=` would copy them one by one.
    static func += (bytes: inout [UInt8], more: ByteSlice) {
        more.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// Appends a literal's UTF-8 at once: `+= "…".utf8` went through the generic sequence
    /// path, 166 instructions for each short literal of the sitemap.
    static func += (bytes: inout [UInt8], literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
