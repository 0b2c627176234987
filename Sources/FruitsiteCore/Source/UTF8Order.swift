#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Strings ordered by their UTF-8 bytes, which is code point order: the same on every
/// machine and in every locale, unlike `<`, which compares by Unicode canonical equivalence.
enum UTF8Order {
    static func precedes(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        let order = lhs.utf8.withContiguousStorageIfAvailable { l in
            rhs.utf8.withContiguousStorageIfAvailable { r in
                let common = min(l.count, r.count)
                let order = common == 0 ? 0 : memcmp(l.baseAddress!, r.baseAddress!, common)
                return order != 0 ? order < 0 : l.count < r.count
            }
        }
        // Bridged or foreign strings have no contiguous UTF-8 to compare directly.
        return (order ?? nil) ?? lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// Whether the two strings have the same bytes; `==` would also match a differently
    /// normalized spelling, which is a different file name.
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        let equal = lhs.utf8.withContiguousStorageIfAvailable { l in
            rhs.utf8.withContiguousStorageIfAvailable { r in
                l.count == r.count
                    && (l.isEmpty || memcmp(l.baseAddress!, r.baseAddress!, l.count) == 0)
            }
        }
        return (equal ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
    }

    /// Sorts by bytes.
    ///
    /// Each string is compared first by the sixteen bytes after the prefix all share (the
    /// content folder, for paths), as two numbers: most comparisons end there without
    /// reading the strings. The others compare with `memcmp`, which is faster than `<` even
    /// between ASCII strings, which `<` would first have to find them to be.
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
                (word(bytes, at: shared), word(bytes, at: shared + 8), index)
            }
        }
        strings.withUnsafeBufferPointer { strings in
            keyed.sort { a, b in
                if a.0 != b.0 { return a.0 < b.0 }
                if a.1 != b.1 { return a.1 < b.1 }
                return precedes(strings[a.2], strings[b.2])
            }
        }
        strings = keyed.map { strings[$0.2] }
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
