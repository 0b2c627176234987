/// What an entry's file says of its fruit: the summary, where `category:` is written, the
/// parser's warnings and the body's `fruit:` and `category:` links; and the fruit's record in
/// the search index.
///
/// Kept as parsed, or as the saved model holds it, encoded, and then decoded only when asked
/// for: a rebuild that shows a few fruits decodes only those, and writes the search index
/// from the saved records without decoding any. A fruit just parsed makes its record when
/// asked: kept from the parse, the records were an eighth of a clean build's peak memory.
struct EntryFacts: Sendable {
    struct Value: Sendable {
        var fruit: Fruit
        /// Where `category:` is written, for diagnostics about categories.
        var categoryLine: Int
        var categoryColumn: Int
        /// The parser's warnings, repeated by every build until the file changes.
        var warnings: [Diagnostic]
        /// The body's `fruit:` and `category:` links, checked by every build against the
        /// catalog as it is then.
        var siteLinks: [SiteLink] = []
    }

    private enum Storage: Sendable {
        /// Boxed, so that an entry (which loading, copying and placing move about by the
        /// thousand) stays a few words long rather than carrying a whole fruit inline.
        indirect case value(Value)
        /// The search record first, then the name key, then the rest of the facts.
        case encoded(ByteSlice)
    }

    private let storage: Storage

    init(_ value: Value) {
        storage = .value(value)
    }

    /// Facts as `encode(into:)` wrote them, checked by the saved model's checksum.
    init(encoded bytes: ByteSlice) {
        storage = .encoded(bytes)
    }

    var value: Value {
        switch storage {
        case .value(let value): return value
        case .encoded(let bytes):
            guard let value = Self.decode(bytes) else { Self.damaged() }
            return value
        }
    }

    /// The fruit alone, which fruit pages read: decoded without the facts that only
    /// diagnostics read.
    var fruit: Fruit {
        switch storage {
        case .value(let value): return value.fruit
        case .encoded(let bytes): return Self.read(bytes, with: Self.decodeFruit)
        }
    }

    /// What a listing shows of the fruit, decoded without the rest.
    var listed: ListedFruit {
        switch storage {
        case .value(let value): return ListedFruit(value.fruit)
        case .encoded(let bytes): return Self.read(bytes, with: Self.decodeListed)
        }
    }

    /// What `decode` reads from the start of the encoded facts, which the saved model's
    /// checksum vouched for.
    private static func read<Part>(
        _ bytes: ByteSlice, with decode: (inout ByteReader) -> Part?
    ) -> Part {
        let part = bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer, offset: 0)
            return decode(&reader)
        }
        guard let part else { damaged() }
        return part
    }

    /// The fruit as `search-index.json` lists it (`SearchIndexBuilder.record(of:pictures:)`),
    /// its picture as `pictures` publishes it: the settings the model was saved with
    /// (`SiteModel.Settings.pictures`), when it was.
    func searchRecord(pictures: PictureSettings) -> ByteSlice {
        switch storage {
        case .value(let value):
            return ByteSlice(
                copying: SearchIndexBuilder.record(of: value.fruit, pictures: pictures))
        case .encoded(let bytes): return Self.leadingField(0, of: bytes)
        }
    }

    /// `fruit.nameKey`, which the sharded index's grams are made of: read without decoding
    /// the rest, since a rebuild looks at every fruit's.
    var nameKey: ByteSlice {
        switch storage {
        case .value(let value): return ByteSlice(copying: value.fruit.nameKey)
        case .encoded(let bytes): return Self.leadingField(1, of: bytes)
        }
    }

    /// Field `index` of the two that `encode(into:)` writes first, the search record and the
    /// name key.
    private static func leadingField(_ index: Int, of bytes: ByteSlice) -> ByteSlice {
        let range = bytes.withUnsafeBytes { buffer -> Range<Int>? in
            var reader = ByteReader(buffer, offset: 0)
            for field in 0...index {
                guard let count = reader.integer(), count >= 0,
                    buffer.count - reader.offset >= count
                else { return nil }
                if field == index { return reader.offset..<reader.offset + count }
                reader.offset += count
            }
            return nil
        }
        guard let range else { damaged() }
        return bytes[bytes.startIndex + range.lowerBound..<bytes.startIndex + range.upperBound]
    }

    private static func damaged() -> Never {
        preconditionFailure("the saved model's checksum passed, but an entry is damaged")
    }

    // MARK: - Bytes

    /// Appends the facts' bytes, length first, the search record as `pictures` publishes the
    /// fruit's picture.
    func encode(pictures: PictureSettings, into writer: inout ByteWriter) {
        if case .encoded(let bytes) = storage {
            writer.integer(bytes.count)
            writer.bytes += bytes
            return
        }
        var encoder = FruitEncoder(writer: ByteWriter())
        encoder.writer.string(searchRecord(pictures: pictures).array)
        let value = value
        var fruit = value.fruit
        fruit.visitFields(&encoder)
        var facts = (consume encoder).writer
        facts.integer(value.categoryLine)
        facts.integer(value.categoryColumn)
        facts.integer(value.warnings.count)
        for warning in value.warnings { facts.diagnostic(warning) }
        facts.integer(value.siteLinks.count)
        for link in value.siteLinks {
            facts.integer(link.kind == .fruit ? 0 : 1)
            facts.string(link.target)
            facts.integer(link.line)
            facts.integer(link.column)
        }
        writer.integer(facts.bytes.count)
        writer.bytes += facts.bytes
    }

    /// Reads the length and the bytes `encode(into:)` wrote; nil past the end.
    static func read(from reader: inout ByteReader, in bytes: ByteSlice) -> EntryFacts? {
        guard let count = reader.integer(), count >= 0, reader.buffer.count - reader.offset >= count
        else { return nil }
        defer { reader.offset += count }
        return EntryFacts(encoded: bytes[reader.offset..<reader.offset + count])
    }

    /// The fruit's fields, which `encode(into:)` writes after the search record; nil when
    /// they are damaged.
    private static func decodeFruit(_ reader: inout ByteReader) -> Fruit? {
        guard reader.field() != nil else { return nil }
        return FruitDecoder.decode(&reader)
    }

    /// What a listing shows of the fruit; nil when it is damaged.
    private static func decodeListed(_ reader: inout ByteReader) -> ListedFruit? {
        guard reader.field() != nil else { return nil }
        return ListedFruitDecoder.decode(&reader)
    }

    private static func decode(_ bytes: ByteSlice) -> Value? {
        bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer, offset: 0)
            guard let fruit = decodeFruit(&reader), let categoryLine = reader.integer(),
                let categoryColumn = reader.integer(), let warningCount = reader.integer(),
                warningCount >= 0, warningCount < 1 << 16
            else { return nil }
            var warnings: [Diagnostic] = []
            for _ in 0..<warningCount {
                guard let warning = reader.diagnostic() else { return nil }
                warnings.append(warning)
            }
            guard let linkCount = reader.integer(), linkCount >= 0, linkCount < 1 << 16 else {
                return nil
            }
            var siteLinks: [SiteLink] = []
            for _ in 0..<linkCount {
                guard let kind = reader.integer(), let target = reader.string(),
                    let line = reader.integer(), let column = reader.integer()
                else { return nil }
                siteLinks.append(
                    SiteLink(
                        kind: kind == 0 ? .fruit : .category, target: target, line: line,
                        column: column))
            }
            guard reader.isAtEnd else { return nil }
            return Value(
                fruit: fruit, categoryLine: categoryLine, categoryColumn: categoryColumn,
                warnings: warnings, siteLinks: siteLinks)
        }
    }
}
