/// A saved model as the store found it: its files checked against their checksums, its head
/// read, and where each entry's record lies in the model file or the changes file, but no
/// entry decoded. A build that finds nothing changed reads no more of it than each entry's
/// file as recorded (`recordedFiles()`) and the head's report; decoding every entry, when a
/// build did that first, was a fifth of such a build at 100,000 fruits. Any other build
/// decodes the model whole (`model()`).
///
/// What is read later was vouched for by the checksum when the files were read, as the
/// entries' facts are (`EntryFacts`): it fails to decode only where a fruitsite wrote it
/// wrongly, which is a broken invariant, not damage.
struct SavedModel: Sendable {
    /// Where one id's record is.
    enum Record: Sendable {
        /// Nowhere: the changes removed the entry.
        case none
        /// In the model file, whose bytes the entry keeps while it does not change.
        case model(Range<Int>)
        /// In the changes file.
        case changes(Range<Int>)
    }

    var head: ModelCodec.Head
    let modelFile: ByteSlice
    var changesFile: ByteSlice?
    /// Each id's record.
    var records: [Record]
    /// Where the tail is: in the changes file when there is one, else in the model file.
    var tail: Range<Int>
    /// The model file's checksum and how many entries it holds (`SiteModel.base`).
    let base: (checksum: UInt64, count: Int)

    init(
        head: ModelCodec.Head, modelFile: ByteSlice, changesFile: ByteSlice? = nil,
        records: [Record], tail: Range<Int>, base: (checksum: UInt64, count: Int)
    ) {
        self.head = head
        self.modelFile = modelFile
        self.changesFile = changesFile
        self.records = records
        self.tail = tail
        self.base = base
    }

    /// Each entry's file as recorded, in id order, read on every core.
    func recordedFiles() -> [RecordedFile] {
        records.indices.filter { id in
            if case .none = records[id] { return false }
            return true
        }
        .concurrentMap { id in
            read(id) { reader, _ in ModelCodec.decodeFile(&reader, id: id) }
        }
    }

    /// The model whole, its entries decoded on every core.
    func model() -> SiteModel {
        let entries = SiteModel.EntryTable(count: records.count) { id -> SiteModel.Entry? in
            if case .none = records[id] { return nil }
            return read(id) { reader, keepsBytes in
                ModelCodec.decodeEntry(&reader, in: file(keepsBytes), keepingBytes: keepsBytes)
            }
        }
        let bytes = changesFile ?? modelFile
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

    /// What `decode` reads from the record of `id`, which it must read to its end; it is
    /// told whether the record is the model file's.
    private func read<Value>(
        _ id: Int, with decode: (inout ByteReader, _ isModelFile: Bool) -> Value?
    ) -> Value {
        let (isModelFile, range): (Bool, Range<Int>) =
            switch records[id] {
            case .none: Self.misread()
            case .model(let range): (true, range)
            case .changes(let range): (false, range)
            }
        let value = file(isModelFile).withUnsafeBytes { buffer -> Value? in
            var reader = ByteReader(
                UnsafeRawBufferPointer(rebasing: buffer[..<range.upperBound]),
                offset: range.lowerBound)
            return decode(&reader, isModelFile)
        }
        guard let value else { Self.misread() }
        return value
    }

    private func file(_ isModelFile: Bool) -> ByteSlice {
        isModelFile ? modelFile : changesFile!
    }

    private static func misread() -> Never {
        preconditionFailure("the saved model's checksum passed, but it does not decode")
    }
}
