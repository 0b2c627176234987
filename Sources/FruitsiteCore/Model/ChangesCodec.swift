/// What changed since the model file was written, as the changes file's body holds it,
/// between its header and its checksum (`ChecksummedFile`): the model's head, the checksum
/// of the model file they apply to, how many ids there are, the ids removed from that file,
/// the ids of the entries changed or added, their files (`FileTable`), the rest of each with
/// its length, then the model's tail. Entries read from a
/// changes file are written again to the next one, which replaces it.
enum ChangesCodec {
    /// Writes the changes that make `model` of the model file `base` names; `flush` is called
    /// after each entry.
    /// - Parameters:
    ///   - id: The id of the output folder's marker the model is saved for.
    ///   - report: What the build that made the model reported (`ModelStore.Report`).
    ///   - base: The checksum of the model file the changes apply to, and its entry count.
    ///   - removed: The ids of the base's entries the model no longer has.
    ///   - changed: The ids of the entries changed or added since.
    static func encode(
        _ model: SiteModel, id: UInt64, report: ModelStore.Report,
        base: (checksum: UInt64, count: Int), removed: [EntryID], changed: [EntryID],
        into writer: inout ByteWriter, flush: (inout ByteWriter) throws -> Void
    ) rethrows {
        ModelCodec.encodeHead(model, id: id, report: report, into: &writer)
        writer.word(base.checksum)
        writer.integer(model.entries.count)
        writer.integer(removed.count)
        for id in removed { writer.integer(id.rawValue) }
        writer.integer(changed.count)
        for id in changed { writer.integer(id.rawValue) }
        try FileTable.encode(model, ids: changed, into: &writer, flush: flush)
        for id in changed {
            var record = ByteWriter()
            ModelCodec.encode(model[id], pictures: model.settings.pictures, into: &record)
            writer.integer(record.bytes.count)
            writer.bytes += record.bytes
            try flush(&writer)
        }
        ModelCodec.encodeTail(model, ids: \.rawValue, into: &writer)
    }

    /// The saved model that the changes file `bytes` (its header ending at `start`) makes of
    /// the model file read as `saved`: its head, the records of the entries it changed or
    /// added and its tail replace the model file's; `.changesForOtherModel` when they were
    /// made for another model file, `.damaged` when they are damaged or do not fit it.
    static func decode(
        _ bytes: ByteSlice, from start: Int, over saved: SavedModel
    ) -> Result<SavedModel, ModelStore.Unusable> {
        let base = saved.base
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
            var records = saved.records
            for _ in 0..<removedCount {
                guard let id = reader.integer(), id >= 0, id < base.count,
                    case .model = records[id]
                else { return .failure(.damaged) }
                records[id] = .none
            }
            records += repeatElement(.none, count: count - records.count)
            guard let changedCount = reader.integer(), changedCount >= 0,
                changedCount <= count
            else { return .failure(.damaged) }
            for index in 0..<changedCount {
                guard let id = reader.integer(), id >= 0, id < count else {
                    return .failure(.damaged)
                }
                records[id] = .changes(index)
            }
            guard let files = FileTable.decode(&reader, in: bytes, count: changedCount) else {
                return .failure(.damaged)
            }
            var ranges: [Range<Int>] = []
            for _ in 0..<changedCount {
                guard let length = reader.integer(), length >= 0,
                    length <= reader.buffer.count - reader.offset
                else { return .failure(.damaged) }
                ranges.append(reader.offset..<reader.offset + length)
                reader.offset += length
            }
            return .success(
                SavedModel(
                    head: head, modelFile: saved.modelFile,
                    changesFile: SavedModel.ChangesFile(
                        bytes: bytes, files: files, records: ranges,
                        tail: reader.offset..<checked.upperBound),
                    records: records, base: base))
        }
    }
}
