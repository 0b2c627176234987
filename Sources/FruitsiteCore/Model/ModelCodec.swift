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
        for (index, id) in ids.enumerated() { newID[id.rawValue] = index }
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
                encode(model[id], pictures: model.settings.pictures, into: &writer)
            }
            lengths.append(writer.bytes.count - start)
            try flush(&writer)
        }
        let end = writer.bytes.count
        writer.indexes(lengths)
        encodeTail(model, ids: { newID[$0.rawValue] }, into: &writer)
        writer.word(UInt64(writer.bytes.count - end))
    }

    /// Reads what `encode` wrote in the file `bytes` after its header, which ends at `start`,
    /// as far as a build reads it before it knows whether anything changed: the head and the
    /// entries' files, checked against the file's checksum (`ChecksummedFile.Body`). Nil
    /// when they are out of place.
    static func decode(_ bytes: ByteSlice, from start: Int) -> SavedModel? {
        guard let body = ChecksummedFile.body(of: bytes, from: start) else { return nil }
        return bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: buffer[..<body.range.upperBound]), offset: start)
            guard let head = decodeHead(&reader),
                let count = reader.integer(), count >= 0, count <= reader.buffer.count,
                let files = FileTable.decode(&reader, in: bytes, count: count),
                body.verify(start..<reader.offset)
            else { return nil }
            return SavedModel(
                head: head,
                modelFile: SavedModel.ModelFile(
                    bytes: bytes, body: body, files: files, recordsStart: reader.offset),
                base: (checksum: ChecksummedFile.checksum(of: bytes), count: count))
        }
    }

    /// Where each entry's record and the tail are in the model file `file`, once the rest of
    /// its body, after the entries' files, is checked; nil when it is damaged.
    static func records(in file: SavedModel.ModelFile, count: Int) -> (
        records: [Range<Int>], tail: Range<Int>
    )? {
        guard file.body.verify(file.recordsStart..<file.body.range.upperBound) else { return nil }
        return file.bytes.withUnsafeBytes { buffer in
            let reader = UnsafeRawBufferPointer(rebasing: buffer[..<file.body.range.upperBound])
            // The lengths and the tail end with a word that says how long they are.
            guard reader.count - file.recordsStart >= 8 else { return nil }
            let trailer = reader.count - 8
            let extent = UInt64(
                littleEndian: reader.loadUnaligned(fromByteOffset: trailer, as: UInt64.self))
            guard extent <= UInt64(trailer - file.recordsStart) else { return nil }
            var lengths = ByteReader(
                UnsafeRawBufferPointer(rebasing: reader[..<trailer]),
                offset: trailer - Int(extent))
            let recordBytes = lengths.offset - file.recordsStart
            guard let counts = lengths.indexes(below: recordBytes + 1), counts.count == count
            else { return nil }
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(count)
            var start = file.recordsStart
            for length in counts {
                guard length <= file.recordsStart + recordBytes - start else { return nil }
                ranges.append(start..<start + length)
                start += length
            }
            guard start == file.recordsStart + recordBytes else { return nil }
            return (ranges, lengths.offset..<trailer)
        }
    }
}
