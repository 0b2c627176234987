#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each entry's file as a saved model records it, for all the entries a file holds, before
/// their records: their paths, each followed by a zero byte, then eight words for each entry
/// (whether it has a status, the status's five fields, when the file was seen with it, and
/// the hash of its bytes).
///
/// A build that finds nothing changed reads no more of the entries than this, in one pass
/// through a fifth of the model file: reading the start of each entry's record instead, one
/// cache miss after another through the whole file, had been a sixth of such a build at
/// 100,000 fruits (22 of 130 ms).
struct FileTable: Sendable {
    private let bytes: ByteSlice
    /// Where each path starts in `bytes`; it ends at the zero byte before the next one.
    private let pathStarts: [Int]
    /// Where the words start in `bytes`.
    private let words: Int

    private static let wordsPerFile = 8

    var count: Int { pathStarts.count }

    /// How many bytes the paths take, each with its zero byte.
    var pathBytes: Int { words - (pathStarts.first ?? words) }

    /// Writes the table of the entries `ids` of `model`; `flush` is called after each entry.
    static func encode(
        _ model: SiteModel, ids: [EntryID], into writer: inout ByteWriter,
        flush: (inout ByteWriter) throws -> Void
    ) rethrows {
        writer.integer(ids.reduce(0) { $0 + model[$1].path.utf8.count + 1 })
        for id in ids {
            var path = model[id].path
            path.withUTF8 { writer.bytes += $0 }
            writer.bytes.append(0)
            try flush(&writer)
        }
        for id in ids {
            let entry = model[id]
            let status = entry.status
            writer.word(status == nil ? 0 : 1)
            writer.word(status?.device ?? 0)
            writer.word(status?.inode ?? 0)
            writer.word(UInt64(bitPattern: status?.size ?? 0))
            writer.word(UInt64(bitPattern: status?.modified ?? 0))
            writer.word(UInt64(bitPattern: status?.changed ?? 0))
            writer.word(UInt64(bitPattern: entry.verifiedAt))
            writer.word(entry.sourceHash)
            try flush(&writer)
        }
    }

    /// Reads the table `encode` wrote for `count` entries, from the file `bytes`; nil when it
    /// is out of place.
    static func decode(_ reader: inout ByteReader, in bytes: ByteSlice, count: Int) -> FileTable? {
        guard let length = reader.integer(), length >= count,
            length <= reader.buffer.count - reader.offset
        else { return nil }
        let paths = reader.offset..<reader.offset + length
        var starts: [Int] = []
        starts.reserveCapacity(count)
        var start = paths.lowerBound
        let base = reader.buffer.baseAddress!
        while start < paths.upperBound, starts.count < count {
            guard let zero = memchr(base + start, 0, paths.upperBound - start) else { return nil }
            starts.append(start)
            start = base.distance(to: UnsafeRawPointer(zero)) + 1
        }
        guard starts.count == count, start == paths.upperBound,
            (reader.buffer.count - paths.upperBound) / (wordsPerFile * 8) >= count
        else { return nil }
        reader.offset = paths.upperBound + count * wordsPerFile * 8
        return FileTable(bytes: bytes, pathStarts: starts, words: paths.upperBound)
    }

    /// `body` with the bytes of the path at `index`, without the zero byte after them.
    func withPath<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let end = (index + 1 < count ? pathStarts[index + 1] : words) - 1
        return bytes.withUnsafeBytes {
            body(UnsafeRawBufferPointer(rebasing: $0[pathStarts[index]..<end]))
        }
    }

    /// Adds the file at `index`, that of the entry `id`, to `files`.
    func append(_ index: Int, id: EntryID, to files: inout RecordedFiles) {
        withPath(at: index) { files.paths.append($0) }
        files.recorded.append(file(at: index, id: id))
    }

    /// The file at `index`, that of the entry `id`.
    func file(at index: Int, id: EntryID) -> RecordedFiles.File {
        bytes.withUnsafeBytes { buffer in
            let start = words + index * Self.wordsPerFile * 8
            func word(_ number: Int) -> UInt64 {
                UInt64(
                    littleEndian: buffer.loadUnaligned(
                        fromByteOffset: start + number * 8, as: UInt64.self))
            }
            let status =
                word(0) == 0
                ? nil
                : FileStatus(
                    device: word(1), inode: word(2), size: Int64(bitPattern: word(3)),
                    modified: Int64(bitPattern: word(4)), changed: Int64(bitPattern: word(5)))
            return RecordedFiles.File(
                id: id, status: status, verifiedAt: Int64(bitPattern: word(6)),
                sourceHash: word(7))
        }
    }
}
