import Foundation

/// The frame of each file the model store writes: a header line, the body, the hash of each
/// megabyte of the body, its length, then the checksum: a 64-bit hash of the length and of
/// those hashes in order.
///
/// Each block's hash is made on every core, as the file is written and as it is read. A
/// reader checks the hashes against the checksum, then each part of the body against the
/// hashes of the blocks it covers before it decodes that part (`Body`): damage anywhere in
/// what it reads is found before that is decoded, and a build that reads a fifth of a large
/// model hashes no more than that fifth. Hashing the whole of a model of 100,000 entries had
/// been about 10 ms of processor time in a build that found nothing changed.
enum ChecksummedFile {
    /// The checksum's block: a megabyte.
    private static let block = 1 << 20
    /// How many blocks a save writes at once: enough to hash on both cores.
    private static let blocksPerFlush = 4

    // MARK: - Writing

    /// Writes `header`, what `encode` writes and the checksum to a new file, then renames it
    /// to `target`, so a reader never sees half a file. `encode` calls `flush` now and then,
    /// to write out what has piled up: the file is written as it is encoded, a few megabytes
    /// at a time, and a large site's model is never in memory twice.
    /// - Throws: `PathError` naming the file that could not be written or renamed.
    static func write(
        _ target: String, header: String,
        encode: (inout ByteWriter, (inout ByteWriter) throws -> Void) throws -> Void
    ) throws {
        let temporary = "\(target).tmp-\(getpid())"
        do {
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw PathError(path: temporary, error: .last) }
            defer { close(descriptor) }
            try OutputWriter.write(Array(header.utf8), to: descriptor, path: temporary)
            // After the header, whole blocks go out as they fill, with their hashes kept for
            // the checksum.
            // Room for the blocks a flush writes and one more entry, so that the buffer never
            // doubles: a doubled buffer was 23 MB of the peak at 30,000 entries.
            var writer = ByteWriter()
            writer.bytes.reserveCapacity((blocksPerFlush + 1) * block)
            var (hashes, count) = ([UInt64](), 0)
            func flush(_ writer: inout ByteWriter, isLast: Bool) throws {
                let whole = isLast ? writer.bytes.count : writer.bytes.count / block * block
                guard whole > 0 else { return }
                hashes += writer.bytes[..<whole].withUnsafeBytes(blockHashes)
                try OutputWriter.write(writer.bytes[..<whole], to: descriptor, path: temporary)
                count += whole
                writer.bytes.removeFirst(whole)
            }
            try encode(&writer) { writer in
                if writer.bytes.count >= blocksPerFlush * block {
                    try flush(&writer, isLast: false)
                }
            }
            try flush(&writer, isLast: true)
            for hash in hashes { writer.word(hash) }
            writer.word(UInt64(count))
            writer.word(combine(count: count, hashes))
            try OutputWriter.write(writer.bytes, to: descriptor, path: temporary)
            guard rename(temporary, target) == 0 else {
                throw PathError(path: target, error: .last)
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    // MARK: - Reading

    /// A file's body, whose blocks' hashes match the file's checksum: each part of it is to
    /// be checked against them before it is decoded.
    struct Body: Sendable {
        /// Where the body is in the file.
        let range: Range<Int>
        fileprivate let bytes: ByteSlice
        /// Each block's hash, as the file says.
        fileprivate let hashes: [UInt64]

        /// Whether the bytes of `part` of the file, which lies in the body, are those it was
        /// written with: the blocks that `part` covers hash as the file says.
        func verify(_ part: Range<Int>) -> Bool {
            guard !part.isEmpty else { return true }
            let first = (part.lowerBound - range.lowerBound) / block
            let last = (part.upperBound - 1 - range.lowerBound) / block
            let covered =
                range.lowerBound + first
                * block..<min(
                    range.lowerBound + (last + 1) * block, range.upperBound)
            let made = bytes.withUnsafeBytes {
                blockHashes(UnsafeRawBufferPointer(rebasing: $0[covered]))
            }
            return made[...] == hashes[first...last]
        }
    }

    /// The body of a file whose header ends at `start`, once the blocks' hashes at its end
    /// match its checksum; nil when they do not, or the file is too short for them.
    static func body(of bytes: ByteSlice, from start: Int) -> Body? {
        guard bytes.count >= start + 16 else { return nil }
        let (count, checksum) = bytes.withUnsafeBytes { buffer in
            (
                buffer.loadUnaligned(fromByteOffset: buffer.count - 16, as: UInt64.self),
                buffer.loadUnaligned(fromByteOffset: buffer.count - 8, as: UInt64.self)
            )
        }
        let length = UInt64(littleEndian: count)
        guard length <= UInt64(bytes.count - start - 16) else { return nil }
        let end = start + Int(length)
        let blocks = (Int(length) + block - 1) / block
        guard bytes.count - 16 - end == blocks * 8 else { return nil }
        let hashes = bytes.withUnsafeBytes { buffer in
            (0..<blocks).map {
                UInt64(
                    littleEndian: buffer.loadUnaligned(
                        fromByteOffset: end + $0 * 8, as: UInt64.self))
            }
        }
        guard combine(count: Int(length), hashes) == UInt64(littleEndian: checksum) else {
            return nil
        }
        return Body(range: start..<end, bytes: bytes, hashes: hashes)
    }

    /// The checked bytes of a file after its header, which ends at `start`: nil when they
    /// do not hash as the file says.
    static func verified(_ bytes: ByteSlice, from start: Int) -> Range<Int>? {
        guard let body = body(of: bytes, from: start), body.verify(body.range) else { return nil }
        return body.range
    }

    /// The checksum a file ends with: what names a model file to the changes made to it.
    static func checksum(of bytes: ByteSlice) -> UInt64 {
        bytes.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
    }

    // MARK: - Hashes

    /// The hash of each block of `bytes`, which starts at a block's start, made on every core.
    private static func blockHashes(_ bytes: UnsafeRawBufferPointer) -> [UInt64] {
        nonisolated(unsafe) let buffer = bytes
        return Array(stride(from: 0, to: buffer.count, by: block)).concurrentMap { start in
            StableHasher.hash(
                wide: UnsafeRawBufferPointer(
                    rebasing: buffer[start..<min(start + block, buffer.count)]))
        }
    }

    private static func combine(count: Int, _ hashes: [UInt64]) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(UInt64(count))
        for hash in hashes { hasher.combine(hash) }
        return hasher.value
    }
}
