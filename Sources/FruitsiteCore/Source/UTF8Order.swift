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
        var keyed = strings.map { string in
            var string = string
            let key = string.withUTF8 { bytes in
                (word(bytes, at: shared), word(bytes, at: shared + 8))
            }
            return (key: key, string: string)
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : precedes($0.string, $1.string) }
        strings = keyed.map(\.string)
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
