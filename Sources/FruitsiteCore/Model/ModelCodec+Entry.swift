/// An entry as both files hold it, and the record of an output file.
extension ModelCodec {
    /// What `decodeEntry` reads: the entry but its file, which the file table holds
    /// (`FileTable`), then its facts (`EntryFacts`), with its search record as `pictures`
    /// publishes its picture.
    static func encode(
        _ entry: SiteModel.Entry, pictures: PictureSettings, into writer: inout ByteWriter
    ) {
        writer.word(entry.summaryHash)
        writer.word(entry.nameHash)
        writer.date(entry.date)
        writer.string(entry.namedKey ?? "")
        writer.integer(entry.isRechecked ? 1 : 0)
        writer.integer(entry.page == nil ? 0 : 1)
        if let page = entry.page { encode(page, into: &writer) }
        entry.facts.encode(pictures: pictures, into: &writer)
    }

    /// An output's record: the hashes of its inputs and of its bytes.
    static func encode(_ record: SiteModel.OutputRecord, into writer: inout ByteWriter) {
        writer.word(record.inputHash)
        writer.word(record.outputHash)
    }

    /// The entry whose file at `path` is `file`, which names `picture`, and whose record
    /// `reader` reads, up to its end; with the record as its `saved` bytes when
    /// `keepingBytes`, for an entry of the model file.
    static func decodeEntry(
        _ reader: inout ByteReader, in bytes: ByteSlice, path: String,
        file: RecordedFiles.File, picture: SiteModel.PictureFile?, keepingBytes: Bool
    ) -> SiteModel.Entry? {
        let start = reader.offset
        guard let summaryHash = reader.word(), let nameHash = reader.word(),
            let date = reader.date(), let namedKey = reader.string(),
            let isRechecked = reader.integer(),
            let hasPage = reader.integer()
        else { return nil }
        var page: SiteModel.OutputRecord?
        if hasPage != 0 {
            guard let record = decodeRecord(&reader) else { return nil }
            page = record
        }
        guard let facts = EntryFacts.read(from: &reader, in: bytes), reader.isAtEnd else {
            return nil
        }
        return SiteModel.Entry(
            path: path, status: file.status, verifiedAt: file.verifiedAt,
            sourceHash: file.sourceHash, picture: picture, summaryHash: summaryHash,
            nameHash: nameHash,
            date: date, namedKey: namedKey.isEmpty ? nil : namedKey,
            isRechecked: isRechecked != 0, page: page, facts: facts,
            saved: keepingBytes ? bytes[start..<reader.buffer.count] : nil)
    }

    static func decodeRecord(_ reader: inout ByteReader) -> SiteModel.OutputRecord? {
        guard let input = reader.word(), let output = reader.word() else { return nil }
        return SiteModel.OutputRecord(inputHash: input, outputHash: output)
    }
}
