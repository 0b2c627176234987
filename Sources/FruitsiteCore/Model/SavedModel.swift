/// A saved model as the store found it: its head and its entries' files read and checked,
/// but nothing else of the model file decoded, nor even checked. A build that finds nothing
/// changed reads no more of it than the head's report and each entry's file as recorded
/// (`recordedFiles()`, from the files' tables): decoding every entry, when a build did that
/// first, was a fifth of such a build at 100,000 fruits. Any other build decodes the model
/// whole (`model()`), once the rest of the model file is checked against its checksum.
struct SavedModel: Sendable {
    /// The model file: its body, its entries' files, and where their records start.
    struct ModelFile: Sendable {
        let bytes: ByteSlice
        let body: ChecksummedFile.Body
        let files: FileTable
        let recordsStart: Int
    }

    /// The changes file, checked whole: its entries' files and records, and the tail.
    struct ChangesFile: Sendable {
        let bytes: ByteSlice
        let files: FileTable
        let records: [Range<Int>]
        let tail: Range<Int>
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
    let modelFile: ModelFile
    var changesFile: ChangesFile?
    /// Each id's entry.
    var records: [Record]
    /// The model file's checksum and how many entries it holds (`SiteModel.base`).
    let base: (checksum: UInt64, count: Int)

    /// The model file, its entries with the ids of their order.
    init(head: ModelCodec.Head, modelFile: ModelFile, base: (checksum: UInt64, count: Int)) {
        self.init(
            head: head, modelFile: modelFile, changesFile: nil,
            records: (0..<modelFile.files.count).map(Record.model), base: base)
    }

    /// The model file with the changes file read over it.
    init(
        head: ModelCodec.Head, modelFile: ModelFile, changesFile: ChangesFile?,
        records: [Record], base: (checksum: UInt64, count: Int)
    ) {
        self.head = head
        self.modelFile = modelFile
        self.changesFile = changesFile
        self.records = records
        self.base = base
    }

    /// Each entry's file and picture as recorded, in id order: one pass through the files'
    /// tables.
    func recordedFiles() -> RecordedFiles {
        var files = RecordedFiles()
        files.recorded.reserveCapacity(records.count)
        // At most the paths of both files: growing the buffer would copy it.
        files.paths.reserveCapacity(
            records.count,
            bytes: modelFile.files.pathBytes + (changesFile?.files.pathBytes ?? 0))
        for (id, record) in zip(EntryID(0)..<EntryID(records.count), records) {
            switch record {
            case .none: continue
            case .model(let index): modelFile.files.append(index, id: id, to: &files)
            case .changes(let index): changesFile!.files.append(index, id: id, to: &files)
            }
        }
        return files
    }

    /// The model whole, its entries decoded on every core; nil when the rest of the model
    /// file does not match its checksum, or does not decode.
    func model() -> SiteModel? {
        guard let (modelRecords, modelTail) = ModelCodec.records(in: modelFile, count: base.count)
        else { return nil }
        let entries = SiteModel.EntryTable(count: records.count) { id -> SiteModel.Entry? in
            switch records[id.rawValue] {
            case .none:
                nil
            case .model(let index):
                Self.entry(
                    id, at: index, in: modelFile.bytes, modelFile.files, modelRecords,
                    isModelFile: true)
            case .changes(let index):
                Self.entry(
                    id, at: index, in: changesFile!.bytes, changesFile!.files,
                    changesFile!.records, isModelFile: false)
            }
        }
        // Each id but those removed has its entry, else one failed to decode.
        guard
            records.indices.allSatisfy({ id in
                if case .none = records[id] { return true }
                return entries[EntryID(id)] != nil
            })
        else { return nil }
        let (bytes, tail) = changesFile.map { ($0.bytes, $0.tail) } ?? (modelFile.bytes, modelTail)
        return bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: buffer[..<tail.upperBound]),
                offset: tail.lowerBound)
            return ModelCodec.decodeTail(
                &reader, in: bytes, head: head, entries: entries, base: base)
        }
    }

    /// The entry `id`, the one at `index` in a file whose bytes are `bytes`; nil when it does
    /// not decode.
    private static func entry(
        _ id: EntryID, at index: Int, in bytes: ByteSlice, _ files: FileTable,
        _ records: [Range<Int>], isModelFile: Bool
    ) -> SiteModel.Entry? {
        let path = files.withPath(at: index) { String(decoding: $0, as: UTF8.self) }
        let range = records[index]
        return bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: buffer[..<range.upperBound]),
                offset: range.lowerBound)
            return ModelCodec.decodeEntry(
                &reader, in: bytes, path: path, file: files.file(at: index, id: id),
                picture: files.picture(at: index), keepingBytes: isModelFile)
        }
    }
}
