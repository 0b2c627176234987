/// What changed since the model file was written, as the changes file's body holds it,
/// between its header and its checksum (`ChecksummedFile`): the model's head, the checksum
/// of the model file they apply to, how many ids there are, the ids removed from that file,
/// each entry changed or added with its id, then the model's tail. Entries read from a
/// changes file are written again to the next one, which replaces it.
enum ChangesCodec {
    /// Writes the changes that make `model` of the model file `base` names; `flush` is called
    /// after each entry.
    /// - Parameters:
    ///   - id: The id of the output folder's marker the model is saved for.
    ///   - base: The checksum of the model file the changes apply to, and its entry count.
    ///   - removed: The ids of the base's entries the model no longer has.
    ///   - changed: The ids of the entries changed or added since.
    static func encode(
        _ model: SiteModel, id: UInt64, base: (checksum: UInt64, count: Int), removed: [EntryID],
        changed: [EntryID], into writer: inout ByteWriter, flush: (inout ByteWriter) throws -> Void
    ) rethrows {
        ModelCodec.encodeHead(model, id: id, into: &writer)
        writer.word(base.checksum)
        writer.integer(model.entries.count)
        writer.integer(removed.count)
        for id in removed { writer.integer(id.rawValue) }
        writer.integer(changed.count)
        for id in changed {
            var record = ByteWriter()
            ModelCodec.encode(model[id], into: &record)
            writer.integer(id.rawValue)
            writer.integer(record.bytes.count)
            writer.bytes += record.bytes
            try flush(&writer)
        }
        ModelCodec.encodeTail(model, ids: \.rawValue, into: &writer)
    }

    /// The marker id and the model that the changes file `bytes` (its header ending at
    /// `start`) makes of the model file `file`; `.changesForOtherModel` when they were made
    /// for another model file, `.damaged` when they are damaged or do not fit it.
    ///
    /// Once the changes are found to be `file`'s, its entries are taken from it, so that they
    /// are changed in place: a copy of each chunk they touched was 12 ms of loading 100,000.
    static func decode(
        _ bytes: ByteSlice, from start: Int, over file: inout ModelCodec.File
    ) -> Result<(id: UInt64, model: SiteModel), ModelStore.Unusable> {
        let base = file.base
        guard let checked = ChecksummedFile.verified(bytes, from: start) else {
            return .failure(.damaged)
        }
        return bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: buffer[..<checked.upperBound]), offset: start)
            guard let head = ModelCodec.decodeHead(&reader), let checksum = reader.word() else {
                return .failure(.damaged)
            }
            guard checksum == base.checksum else { return .failure(.changesForOtherModel) }
            guard let count = reader.integer(), count >= base.count,
                count <= base.count + reader.buffer.count,
                let removedCount = reader.integer(), removedCount >= 0,
                removedCount <= base.count
            else { return .failure(.damaged) }
            var entries = SiteModel.EntryTable()
            swap(&entries, &file.entries)
            for _ in 0..<removedCount {
                guard let id = reader.integer().map(EntryID.init), id.rawValue >= 0,
                    id.rawValue < base.count, entries[id] != nil
                else { return .failure(.damaged) }
                entries[id] = nil
            }
            while entries.count < count { entries.append(nil) }
            guard let changedCount = reader.integer(), changedCount >= 0,
                changedCount <= count
            else { return .failure(.damaged) }
            for _ in 0..<changedCount {
                guard let id = reader.integer(), id >= 0, id < count,
                    let length = reader.integer(), length >= 0,
                    length <= reader.buffer.count - reader.offset
                else { return .failure(.damaged) }
                var record = ByteReader(
                    UnsafeRawBufferPointer(rebasing: reader.buffer[..<(reader.offset + length)]),
                    offset: reader.offset)
                guard
                    let entry = ModelCodec.decodeEntry(&record, in: bytes, keepingBytes: false),
                    record.isAtEnd
                else { return .failure(.damaged) }
                entries[EntryID(id)] = entry
                reader.offset += length
            }
            guard
                let changed = ModelCodec.decodeTail(
                    &reader, in: bytes, head: head, entries: entries, base: base)
            else { return .failure(.damaged) }
            return .success((head.id, changed))
        }
    }
}
