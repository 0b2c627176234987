/// A saved model as the store found it: its files checked against their checksums, its head
/// read, and where each entry lies in the model file or the changes file, but no entry
/// decoded. A build that finds nothing changed reads no more of it than the head's report and
/// each entry's file as recorded (`recordedFiles()`, from the files' tables): decoding every
/// entry, when a build did that first, was a fifth of such a build at 100,000 fruits. Any
/// other build decodes the model whole (`model()`).
///
/// What is decoded later was vouched for by the checksum when the files were read, as the
/// entries' facts are (`EntryFacts`): it fails to decode only where a fruitsite wrote it
/// wrongly, which is a broken invariant, not damage.
struct SavedModel: Sendable {
    /// The entries one file holds: their files' table, and where each one's record lies.
    struct Part: Sendable {
        let bytes: ByteSlice
        let files: FileTable
        let records: [Range<Int>]
    }

    /// Where one id's entry is: its number in the model file or the changes file.
    enum Record: Sendable {
        /// Nowhere: the changes removed the entry.
        case none
        /// In the model file, whose bytes the entry keeps while it does not change.
        case model(Int)
        case changes(Int)
    }

    var head: ModelCodec.Head
    let modelFile: Part
    var changesFile: Part?
    /// Each id's entry.
    var records: [Record]
    /// Where the tail is: in the changes file when there is one, else in the model file.
    var tail: Range<Int>
    /// The model file's checksum and how many entries it holds (`SiteModel.base`).
    let base: (checksum: UInt64, count: Int)

    /// The model file read as far as its tail, its entries with the ids of their order.
    init(
        head: ModelCodec.Head, modelFile: Part, tail: Range<Int>,
        base: (checksum: UInt64, count: Int)
    ) {
        self.init(
            head: head, modelFile: modelFile, changesFile: nil,
            records: modelFile.records.indices.map(Record.model), tail: tail, base: base)
    }

    /// The model file with the changes file read over it.
    init(
        head: ModelCodec.Head, modelFile: Part, changesFile: Part?, records: [Record],
        tail: Range<Int>, base: (checksum: UInt64, count: Int)
    ) {
        self.head = head
        self.modelFile = modelFile
        self.changesFile = changesFile
        self.records = records
        self.tail = tail
        self.base = base
    }

    /// Each entry's file as recorded, in id order: one pass through the files' tables.
    func recordedFiles() -> RecordedFiles {
        var files = RecordedFiles()
        files.recorded.reserveCapacity(records.count)
        // At most the paths of both files: growing the buffer would copy it.
        files.paths.reserveCapacity(
            records.count,
            bytes: modelFile.files.pathBytes + (changesFile?.files.pathBytes ?? 0))
        for (id, record) in records.enumerated() {
            switch record {
            case .none: continue
            case .model(let index): modelFile.files.append(index, id: id, to: &files)
            case .changes(let index): changesFile!.files.append(index, id: id, to: &files)
            }
        }
        return files
    }

    /// The model whole, its entries decoded on every core.
    func model() -> SiteModel {
        let entries = SiteModel.EntryTable(count: records.count) { id -> SiteModel.Entry? in
            guard let (part, index) = locate(id) else { return nil }
            let path = part.files.withPath(at: index) { String(decoding: $0, as: UTF8.self) }
            let range = part.records[index]
            let entry = part.bytes.withUnsafeBytes { buffer in
                var reader = ByteReader(
                    UnsafeRawBufferPointer(rebasing: buffer[..<range.upperBound]),
                    offset: range.lowerBound)
                return ModelCodec.decodeEntry(
                    &reader, in: part.bytes, path: path, file: part.files.file(at: index, id: id),
                    keepingBytes: isInModelFile(id))
            }
            guard let entry else { Self.misread() }
            return entry
        }
        let bytes = changesFile?.bytes ?? modelFile.bytes
        let model = bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: buffer[..<tail.upperBound]),
                offset: tail.lowerBound)
            return ModelCodec.decodeTail(
                &reader, in: bytes, head: head, entries: entries, base: base)
        }
        guard let model else { Self.misread() }
        return model
    }

    /// The file that holds the entry `id`, and its number there; nil for an id removed.
    private func locate(_ id: Int) -> (part: Part, index: Int)? {
        switch records[id] {
        case .none: nil
        case .model(let index): (modelFile, index)
        case .changes(let index): (changesFile!, index)
        }
    }

    private func isInModelFile(_ id: Int) -> Bool {
        if case .model = records[id] { return true }
        return false
    }

    private static func misread() -> Never {
        preconditionFailure("the saved model's checksum passed, but it does not decode")
    }
}
