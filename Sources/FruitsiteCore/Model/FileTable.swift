#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each entry's files as a saved model records them, for all the entries a file holds, before
/// their records: their paths, each followed by a zero byte, then eight words for each entry
/// (its flags, its file's status's five fields, when the file was seen with it, and the hash
/// of its bytes); then the pictures the entries name (`SiteModel.PictureFile`), in the same
/// order: their paths, each followed by a zero byte, then six words for each (whether it has
/// a status, and the status's five fields).
///
/// An entry's flags say whether its file has a status (bit 0), and which picture it names,
/// counted from 1 (the bits above; 0 for none): an entry that names none, as most do, takes
/// no more room than before pictures were recorded.
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
    /// The same for the pictures.
    private let picturePathStarts: [Int]
    private let pictureWords: Int

    private static let wordsPerFile = 8
    private static let wordsPerPicture = 6

    var count: Int { pathStarts.count }

    /// How many bytes the paths take, each with its zero byte.
    var pathBytes: Int { words - (pathStarts.first ?? words) }

    /// Writes the table of the entries `ids` of `model`; `flush` is called after each entry.
    static func encode(
        _ model: SiteModel, ids: [EntryID], into writer: inout ByteWriter,
        flush: (inout ByteWriter) throws -> Void
    ) rethrows {
        try encodePaths(ids.lazy.map { model[$0].path }, into: &writer, flush: flush)
        var pictures: [SiteModel.PictureFile] = []
        for id in ids {
            let entry = model[id]
            if let picture = entry.picture { pictures.append(picture) }
            let number = entry.picture == nil ? 0 : pictures.count
            writer.word(UInt64(number << 1 | (entry.status == nil ? 0 : 1)))
            encode(entry.status, into: &writer)
            writer.word(UInt64(bitPattern: entry.verifiedAt))
            writer.word(entry.sourceHash)
            try flush(&writer)
        }
        writer.integer(pictures.count)
        try encodePaths(pictures.lazy.map(\.path), into: &writer, flush: flush)
        for picture in pictures {
            writer.word(picture.status == nil ? 0 : 1)
            encode(picture.status, into: &writer)
            try flush(&writer)
        }
    }

    /// Writes the length of `paths`, then each path followed by a zero byte.
    private static func encodePaths(
        _ paths: some Collection<String>, into writer: inout ByteWriter,
        flush: (inout ByteWriter) throws -> Void
    ) rethrows {
        writer.integer(paths.reduce(0) { $0 + $1.utf8.count + 1 })
        for path in paths {
            var path = path
            path.withUTF8 { writer.bytes += $0 }
            writer.bytes.append(0)
            try flush(&writer)
        }
    }

    /// A status's five fields; zeros for none.
    private static func encode(_ status: FileStatus?, into writer: inout ByteWriter) {
        writer.word(status?.device ?? 0)
        writer.word(status?.inode ?? 0)
        writer.word(UInt64(bitPattern: status?.size ?? 0))
        writer.word(UInt64(bitPattern: status?.modified ?? 0))
        writer.word(UInt64(bitPattern: status?.changed ?? 0))
    }

    /// Reads the table `encode` wrote for `count` entries, from the file `bytes`; nil when it
    /// is out of place, or an entry names a picture the table does not have.
    static func decode(_ reader: inout ByteReader, in bytes: ByteSlice, count: Int) -> FileTable? {
        guard let (starts, words) = decodePaths(&reader, count: count, wordsEach: wordsPerFile),
            let pictureCount = reader.integer(), pictureCount >= 0, pictureCount <= count,
            let (pictureStarts, pictureWords) = decodePaths(
                &reader, count: pictureCount, wordsEach: wordsPerPicture)
        else { return nil }
        // The entries name the pictures in order, each but once: checked here, so that a
        // picture's number can be taken as it is.
        let first = reader.buffer.baseAddress! + words
        var named = 0
        for index in 0..<count {
            let number = Int(
                UInt64(
                    littleEndian: first.loadUnaligned(
                        fromByteOffset: index * wordsPerFile * 8, as: UInt64.self)) >> 1)
            guard number == 0 || number == named + 1 else { return nil }
            named += number == 0 ? 0 : 1
        }
        guard named == pictureCount else { return nil }
        return FileTable(
            bytes: bytes, pathStarts: starts, words: words, picturePathStarts: pictureStarts,
            pictureWords: pictureWords)
    }

    /// Reads the length of `count` paths and the paths, and skips the `wordsEach` words of
    /// each after them: where each path starts, and where the words start.
    private static func decodePaths(_ reader: inout ByteReader, count: Int, wordsEach: Int) -> (
        starts: [Int], words: Int
    )? {
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
            (reader.buffer.count - paths.upperBound) / (wordsEach * 8) >= count
        else { return nil }
        reader.offset = paths.upperBound + count * wordsEach * 8
        return (starts, paths.upperBound)
    }

    /// `body` with the bytes of the path at `index`, without the zero byte after them.
    func withPath<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withPath(at: index, in: pathStarts, end: words, body)
    }

    private func withPath<Result>(
        at index: Int, in starts: [Int], end: Int, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        let end = (index + 1 < starts.count ? starts[index + 1] : end) - 1
        return bytes.withUnsafeBytes {
            body(UnsafeRawBufferPointer(rebasing: $0[starts[index]..<end]))
        }
    }

    /// Adds the file at `index`, that of the entry `id`, to `files`, with its picture.
    func append(_ index: Int, id: EntryID, to files: inout RecordedFiles) {
        withPath(at: index) { files.paths.append($0) }
        let (file, picture) = record(at: index, id: id)
        files.recorded.append(file)
        guard picture > 0 else { return }
        withPath(at: picture - 1, in: picturePathStarts, end: pictureWords) {
            files.picturePaths.append($0)
        }
        files.pictures.append(
            RecordedFiles.Picture(
                file: files.recorded.count - 1, status: pictureStatus(number: picture)))
    }

    /// The file at `index`, that of the entry `id`.
    func file(at index: Int, id: EntryID) -> RecordedFiles.File {
        record(at: index, id: id).file
    }

    /// The picture the entry at `index` names, if any.
    func picture(at index: Int) -> SiteModel.PictureFile? {
        let number = bytes.withUnsafeBytes {
            Int(Words($0, at: words + index * Self.wordsPerFile * 8)[0] >> 1)
        }
        guard number > 0 else { return nil }
        let path = withPath(at: number - 1, in: picturePathStarts, end: pictureWords) {
            String(decoding: $0, as: UTF8.self)
        }
        return SiteModel.PictureFile(path: path, status: pictureStatus(number: number))
    }

    /// The file at `index`, that of the entry `id`, and the number of the picture its entry
    /// names, counted from 1 (0 for none).
    @inline(__always)
    private func record(at index: Int, id: EntryID) -> (file: RecordedFiles.File, picture: Int) {
        bytes.withUnsafeBytes { buffer in
            let entry = Words(buffer, at: words + index * Self.wordsPerFile * 8)
            let file = RecordedFiles.File(
                id: id, status: entry.status, verifiedAt: Int64(bitPattern: entry[6]),
                sourceHash: entry[7])
            return (file, Int(entry[0] >> 1))
        }
    }

    private func pictureStatus(number: Int) -> FileStatus? {
        bytes.withUnsafeBytes {
            Words($0, at: pictureWords + (number - 1) * Self.wordsPerPicture * 8).status
        }
    }

    /// The words from a place in a buffer.
    private struct Words {
        let buffer: UnsafeRawBufferPointer
        let start: Int

        init(_ buffer: UnsafeRawBufferPointer, at start: Int) {
            (self.buffer, self.start) = (buffer, start)
        }

        subscript(number: Int) -> UInt64 {
            UInt64(
                littleEndian: buffer.loadUnaligned(
                    fromByteOffset: start + number * 8, as: UInt64.self))
        }

        /// The status whose flag is bit 0 of the first word and whose fields follow it.
        var status: FileStatus? {
            self[0] & 1 == 0
                ? nil
                : FileStatus(
                    device: self[1], inode: self[2], size: Int64(bitPattern: self[3]),
                    modified: Int64(bitPattern: self[4]), changed: Int64(bitPattern: self[5]))
        }
    }
}
