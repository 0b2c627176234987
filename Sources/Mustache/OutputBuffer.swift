#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes a render writes, appended with `memcpy`: an array's `append(contentsOf:)` of a
/// buffer pointer takes a generic, element-by-element path, and a page is thousands of small
/// appends.
struct OutputBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity {
            grow(toHold: count + bytes.count)
        }
        memcpy(base + count, source, bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends `bytes` as `{{name}}` writes a value: `&`, `<`, `>`, `"` and `'` as character
    /// references.
    ///
    /// Eight bytes at a time while none of them is one of the five, which is most of any
    /// value: byte by byte, escaping took 2% of a clean build.
    mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var runStart = 0
        var index = 0
        while index < count {
            if index + 8 <= count,
                !Self.mayHoldEscaped(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let end = min(index + 8, count)
            while index < end {
                let byte = base[index]
                index += 1
                // One shift and test per byte: all five are below 64.
                guard byte < 64, Self.escapedBytes & (1 << UInt64(byte)) != 0 else { continue }
                let entity: StaticString
                switch byte {
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "\""): entity = "&quot;"
                default: entity = "&#39;"
                }
                let reference = UnsafeRawBufferPointer(
                    start: entity.utf8Start, count: entity.utf8CodeUnitCount)
                append(UnsafeRawBufferPointer(start: base + runStart, count: index - 1 - runStart))
                append(reference)
                runStart = index
            }
        }
        append(UnsafeRawBufferPointer(start: base + runStart, count: count - runStart))
    }

    /// `"` (34), `&` (38), `'` (39), `<` (60) and `>` (62), one bit each.
    private static let escapedBytes: UInt64 = 1 << 34 | 1 << 38 | 1 << 39 | 1 << 60 | 1 << 62

    /// Whether one of the eight bytes of `word` may be one of the five: never false when one
    /// is. Three tests cover them: `&` and `'` differ in their lowest bit only, and `<` and `>`
    /// in their second.
    private static func mayHoldEscaped(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A zero byte's high bit, set where `word` has one: subtracting one borrows out of a
        // zero byte's high bit, and out of no byte that was not zero or high already.
        func zeroBytes(_ word: UInt64) -> UInt64 {
            (word &- ones) & ~word & (ones &* 0x80)
        }
        let quotes = zeroBytes(word ^ (ones &* 0x22))
        let ampersandsAndApostrophes = zeroBytes((word | ones) ^ (ones &* 0x27))
        let angleBrackets = zeroBytes((word | ones &* 0x02) ^ (ones &* 0x3E))
        return quotes | ampersandsAndApostrophes | angleBrackets != 0
    }

    /// The bytes written, as an array the buffer no longer needs.
    consuming func bytes() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { memcpy(buffer.baseAddress!, base, count) }
            initialized = count
        }
    }

    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        (base, capacity) = (newBase, newCapacity)
    }
}
