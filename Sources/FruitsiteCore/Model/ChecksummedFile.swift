import Foundation

/// The frame of each file the model store writes: a header line, the body, then a 64-bit
/// hash of the body, so that damage anywhere in the body is found before it is decoded.
///
/// The hash is of each megabyte's hash, made on every core, then of those hashes in order:
/// a large site's model is hashed at the speed of both cores, as it is written and as it is
/// read.
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

    /// The checked bytes of a file after its header, which ends at `start`: nil when the
    /// checksum at its end does not match them.
    static func verified(_ bytes: ByteSlice, from start: Int) -> Range<Int>? {
        guard bytes.count >= start + 8 else { return nil }
        let end = bytes.count - 8
        guard checksum(of: bytes) == bytes[start..<end].withUnsafeBytes(checksum) else {
            return nil
        }
        return start..<end
    }

    /// The checksum a file ends with: what names a model file to the changes made to it.
    static func checksum(of bytes: ByteSlice) -> UInt64 {
        bytes.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
    }

    // MARK: - Hashes

    private static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        combine(count: bytes.count, blockHashes(bytes))
    }

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
