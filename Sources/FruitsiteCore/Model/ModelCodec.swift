/// The model whole as the model file's body holds it, between its header and its checksum
/// (`ChecksummedFile`): its head (the marker id, the settings, the folders, the report), the
/// entries' files (`FileTable`) and the rest of the entries, by path, the length of each,
/// then its tail (the catalog order, the categories and facet values, the outputs other than
/// fruit pages), and last how many bytes the lengths and the tail take.
///
/// The lengths come together after the entries, not each before its entry: finding the
/// entries then reads a few hundred kilobytes in a row, where hopping from one length to the
/// next was a chain of cache misses, a single core's 16 ms at 100,000 entries. With the
/// entries found, they are decoded in parallel, and only when a build needs them
/// (`SavedModel`).
enum ModelCodec {
    /// Writes `model`, saved as the model of the output folder whose marker records `id`, with
    /// the report of the build that made it; `flush` is called after each entry.
    static func encode(
        _ model: SiteModel, id: UInt64, report: ModelStore.Report, into writer: inout ByteWriter,
        flush: (inout ByteWriter) throws -> Void
    ) rethrows {
        encodeHead(model, id: id, report: report, into: &writer)
        let ids = model.savingOrder
        var newID = [Int](repeating: -1, count: model.entries.count)
        for (index, id) in ids.enumerated() { newID[id] = index }
        writer.integer(ids.count)
        try FileTable.encode(model, ids: ids, into: &writer, flush: flush)
        // Entries unchanged since they were loaded are copied as they were read.
        var lengths: [Int] = []
        lengths.reserveCapacity(ids.count)
        for id in ids {
            let start = writer.bytes.count
            if let saved = model[id].saved {
                writer.bytes += saved
            } else {
                encode(model[id], into: &writer)
            }
            lengths.append(writer.bytes.count - start)
            try flush(&writer)
        }
        let end = writer.bytes.count
        writer.indexes(lengths)
        encodeTail(model, ids: { newID[$0] }, into: &writer)
        writer.word(UInt64(writer.bytes.count - end))
    }

    /// Reads what `encode` wrote in the file `bytes` after its header, which ends at `start`,
    /// as far as a build reads it before it knows whether anything changed: the head, and
    /// where each entry's record and the tail are. Nil when the checksum or that frame is
    /// out of place.
    static func decode(_ bytes: ByteSlice, from start: Int) -> SavedModel? {
        guard let checked = ChecksummedFile.verified(bytes, from: start) else { return nil }
        return bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: buffer[..<checked.upperBound]), offset: start)
            guard let head = decodeHead(&reader),
                let count = reader.integer(), count >= 0, count <= reader.buffer.count,
                let files = FileTable.decode(&reader, in: bytes, count: count),
                reader.buffer.count - reader.offset >= 8
            else { return nil }
            // The lengths and the tail end 8 bytes before the checksum, which say how long
            // they are.
            let trailer = reader.buffer.count - 8
            let records = reader.offset
            let extent = UInt64(
                littleEndian: reader.buffer.loadUnaligned(fromByteOffset: trailer, as: UInt64.self))
            guard extent <= UInt64(trailer - records) else { return nil }
            var lengths = ByteReader(
                UnsafeRawBufferPointer(rebasing: reader.buffer[..<trailer]),
                offset: trailer - Int(extent))
            let recordBytes = lengths.offset - records
            guard let counts = lengths.indexes(below: recordBytes + 1), counts.count == count
            else { return nil }
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(count)
            var start = records
            for length in counts {
                guard length <= records + recordBytes - start else { return nil }
                ranges.append(start..<start + length)
                start += length
            }
            guard start == records + recordBytes else { return nil }
            return SavedModel(
                head: head,
                modelFile: SavedModel.Part(bytes: bytes, files: files, records: ranges),
                tail: lengths.offset..<trailer,
                base: (checksum: ChecksummedFile.checksum(of: bytes), count: count))
        }
    }
}
