#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Strings ordered by their UTF-8 bytes, which is code point order: the same on every
/// machine and in every locale, unlike `<`, which compares by Unicode canonical equivalence.
enum UTF8Order {
    /// Whether the bytes of `lhs` come before those of `rhs`.
    static func precedes(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// How `lhs` compares with `rhs` by their bytes: negative when it comes first, zero when
    /// the bytes are the same (`==` would also match a differently normalized spelling, which
    /// is a different file name), positive when it comes after.
    static func compare(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Int {
        let order = lhs.utf8.withContiguousStorageIfAvailable { l in
            rhs.utf8.withContiguousStorageIfAvailable { r in
                let common = min(l.count, r.count)
                let order = common == 0 ? 0 : memcmp(l.baseAddress!, r.baseAddress!, common)
                return order != 0 ? Int(order) : l.count - r.count
            }
        }
        if let order = order ?? nil { return order }
        if lhs.utf8.elementsEqual(rhs.utf8) { return 0 }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1
    }

    /// Sorts by bytes.
    ///
    /// Each string is compared first by the 32 bytes after the prefix all share (the content
    /// folder, for paths), as four numbers: most comparisons end there without reading the
    /// strings. Sixteen bytes had been too few for long names: of 100,000 generated file names,
    /// two neighbours in three share their first sixteen bytes, one in 250 their first 32.
    /// The others compare with `memcmp`, which is faster than `<` even between ASCII strings,
    /// which `<` would first have to find them to be.
    static func sort(_ strings: inout [String]) {
        guard var first = strings.first else { return }
        let shared = first.withUTF8 { first in
            strings.reduce(first.count) { shared, string in
                var string = string
                return string.withUTF8 { bytes in
                    var count = min(shared, bytes.count)
                    if count > 0, memcmp(first.baseAddress!, bytes.baseAddress!, count) != 0 {
                        count = zip(first, bytes).prefix { $0 == $1 }.count
                    }
                    return count
                }
            }
        }
        // The keys sorted with each string's index rather than the string itself: moving
        // plain numbers needs no reference counting, which was most of sorting 10,000 paths.
        var keyed = strings.indices.map { index in
            var string = strings[index]
            return string.withUTF8 { bytes in
                (
                    word(bytes, at: shared), word(bytes, at: shared + 8),
                    word(bytes, at: shared + 16), word(bytes, at: shared + 24), index
                )
            }
        }
        strings.withUnsafeBufferPointer { strings in
            keyed.sort { a, b in
                if a.0 != b.0 { return a.0 < b.0 }
                if a.1 != b.1 { return a.1 < b.1 }
                if a.2 != b.2 { return a.2 < b.2 }
                if a.3 != b.3 { return a.3 < b.3 }
                return precedes(strings[a.4], strings[b.4])
            }
        }
        strings = keyed.map { strings[$0.4] }
    }

    /// The eight bytes of `bytes` from `offset` as a big-endian number, zeros past the end:
    /// numbers in the order of the bytes.
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in offset..<offset + 8 {
            word = word << 8 | UInt64(index < bytes.count ? bytes[index] : 0)
        }
        return word
    }
}
