/// Appends hashes as eight little-endian bytes, integers as variable-length ones (small
/// numbers, most lengths and flags, take one byte) and strings with their length first.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func word(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// LEB128 of the zigzag encoding: seven bits a byte, low bits first.
    mutating func integer<Integer: BinaryInteger>(_ value: Integer) {
        let signed = Int64(value)
        var rest = UInt64(bitPattern: (signed << 1) ^ (signed >> 63))
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Numbers from 0 to 2^32 - 1 after their count, four bytes each: the model's long lists
    /// (the catalog order, the groups' members) are copied whole rather than coded a byte at
    /// a time, which was most of saving and loading them.
    mutating func indexes(_ values: some Collection<Int>) {
        integer(values.count)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: values.count * 4))
        bytes.withUnsafeMutableBytes { raw in
            for (index, value) in values.enumerated() {
                raw.storeBytes(
                    of: UInt32(truncatingIfNeeded: value).littleEndian,
                    toByteOffset: start + index * 4, as: UInt32.self)
            }
        }
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            integer(utf8.count)
            bytes += utf8
        }
    }

    mutating func string(_ utf8: [UInt8]) {
        integer(utf8.count)
        bytes += utf8
    }

    /// Overwrites eight bytes written earlier with `word`.
    mutating func set(_ value: UInt64, at offset: Int) {
        bytes.withUnsafeMutableBytes {
            $0.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
        }
    }

    mutating func status(_ status: FileStatus) {
        integer(Int64(bitPattern: status.device))
        integer(Int64(bitPattern: status.inode))
        integer(status.size)
        word(UInt64(bitPattern: status.modified))
        word(UInt64(bitPattern: status.changed))
    }

    /// A date, or none: a flag, then the seconds.
    mutating func date(_ date: EntryDate?) {
        integer(date == nil ? 0 : 1)
        if let date { integer(date.seconds) }
    }

    /// A diagnostic: its severity, where it is, its message and its hint.
    mutating func diagnostic(_ diagnostic: Diagnostic) {
        integer(diagnostic.isError ? 1 : 0)
        string(diagnostic.location.path)
        integer(diagnostic.location.line ?? -1)
        integer(diagnostic.location.column ?? -1)
        string(diagnostic.message)
        integer(diagnostic.hint == nil ? 0 : 1)
        string(diagnostic.hint ?? "")
    }
}

/// Reads what `ByteWriter` wrote; every read is bounds-checked and gives nil past the end.
/// The buffer must outlive the reader.
struct ByteReader {
    let buffer: UnsafeRawBufferPointer
    var offset: Int

    init(_ buffer: UnsafeRawBufferPointer, offset: Int) {
        self.buffer = buffer
        self.offset = offset
    }

    var isAtEnd: Bool { offset == buffer.count }

    mutating func word() -> UInt64? {
        guard offset >= 0, buffer.count - offset >= 8 else { return nil }
        defer { offset += 8 }
        return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// What `ByteWriter.indexes` wrote, each below `limit`; nil when past the end or out of
    /// range.
    mutating func indexes(below limit: Int) -> [Int]? { indexes(below: limit, as: { $0 }) }

    /// What `ByteWriter.indexes` wrote, each below `limit`, each made an `Index` by `make`
    /// (an id or a position, read straight into an array of them); nil when past the end or
    /// out of range.
    mutating func indexes<Index>(below limit: Int, as make: (Int) -> Index) -> [Index]? {
        guard let count = integer(), count >= 0, count <= (buffer.count - offset) / 4 else {
            return nil
        }
        let (buffer, start) = (buffer, offset)
        var isInRange = true
        let values = [Index](unsafeUninitializedCapacity: count) { values, initialized in
            for index in 0..<count {
                let value = Int(
                    UInt32(
                        littleEndian: buffer.loadUnaligned(
                            fromByteOffset: start + index * 4, as: UInt32.self)))
                isInRange = isInRange && value < limit
                values.initializeElement(at: index, to: make(value))
            }
            initialized = count
        }
        guard isInRange else { return nil }
        offset += count * 4
        return values
    }

    mutating func integer() -> Int? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset >= 0, offset < buffer.count, shift < 64 {
            let byte = buffer[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                let signed = Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
                return Int(signed)
            }
            shift += 7
        }
        return nil
    }

    mutating func status() -> FileStatus? {
        guard let device = integer(), let inode = integer(), let size = integer(),
            let modified = word(), let changed = word()
        else { return nil }
        return FileStatus(
            device: UInt64(bitPattern: Int64(device)), inode: UInt64(bitPattern: Int64(inode)),
            size: Int64(size), modified: Int64(bitPattern: modified),
            changed: Int64(bitPattern: changed))
    }

    /// The date `ByteWriter.date(_:)` wrote: `.some(nil)` for none, nil when it is damaged.
    mutating func date() -> EntryDate?? {
        switch integer() {
        case 0: return .some(nil)
        case 1: return integer().map { EntryDate(seconds: Int64($0)) }
        default: return nil
        }
    }

    /// The diagnostic `ByteWriter.diagnostic(_:)` wrote; nil when it is damaged.
    mutating func diagnostic() -> Diagnostic? {
        guard let isError = integer(), let path = string(), let line = integer(),
            let column = integer(), let message = string(), let hasHint = integer(),
            let hint = string()
        else { return nil }
        return Diagnostic(
            isError != 0 ? .error : .warning,
            at: SourceLocation(
                path: path, line: line < 0 ? nil : line, column: column < 0 ? nil : column),
            message, hint: hasHint != 0 ? hint : nil)
    }

    mutating func bytes() -> [UInt8]? {
        guard let count = integer(), count >= 0, buffer.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(buffer[offset..<offset + count])
    }

    /// The bytes of what `ByteWriter.string` wrote, in the buffer, without a copy.
    mutating func field() -> UnsafeRawBufferPointer? {
        guard let count = integer(), count >= 0, buffer.count - offset >= count else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    mutating func string() -> String? {
        guard let count = integer(), count >= 0, buffer.count - offset >= count else { return nil }
        defer { offset += count }
        return String(
            decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count]),
            as: UTF8.self)
    }
}
