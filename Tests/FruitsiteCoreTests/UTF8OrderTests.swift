import Testing

@testable import FruitsiteCore

@Suite struct UTF8OrderTests {
    /// The order of the strings' bytes, compared the slow and obvious way.
    private static func byBytes(_ strings: [String]) -> [[UInt8]] {
        strings.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Strings that share a long prefix, differ only past their first 32 bytes after it,
    /// are prefixes of one another, hold zero bytes or are not ASCII: every case where the
    /// sort's numeric keys tie or could mislead.
    @Test func sortsByBytes() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        let pieces = ["a", "b", "é", "e\u{301}", "\0", "-", "z", "ab", "🍋", "A"]
        for round in 0..<50 {
            let prefix = round.isMultiple(of: 2) ? "Content/citrus/" : ""
            let strings = (0..<(round % 7 == 0 ? 1 : 60)).map { _ in
                prefix + (0..<next(24)).map { _ in pieces[next(pieces.count)] }.joined()
            }
            var sorted = strings
            UTF8Order.sort(&sorted)
            // Compared as bytes: `==` would take "é" and "e\u{301}" for the same string.
            #expect(sorted.map { Array($0.utf8) } == Self.byBytes(strings), "round \(round)")
        }
        var empty: [String] = []
        UTF8Order.sort(&empty)
        #expect(empty.isEmpty)
        var edge = ["x", "", "xxxxxxxxxxxxxxxxy", "xxxxxxxxxxxxxxxx", "xxxxxxxxxxxxxxxx\0"]
        UTF8Order.sort(&edge)
        #expect(edge == ["", "x", "xxxxxxxxxxxxxxxx", "xxxxxxxxxxxxxxxx\0", "xxxxxxxxxxxxxxxxy"])
        // Ties in all four numbers: the same first 32 bytes, with zeros or nothing after.
        let x32 = String(repeating: "x", count: 32)
        var long = [x32 + "b", x32 + "\0", x32, x32 + "a", String(x32.dropLast()) + "\0"]
        UTF8Order.sort(&long)
        #expect(long == [String(x32.dropLast()) + "\0", x32, x32 + "\0", x32 + "a", x32 + "b"])
    }

    /// `compare` agrees with the bytes' order, and tells apart spellings `==` takes as one.
    @Test func comparesByBytes() {
        let strings = ["", "a", "ab", "b", "é", "e\u{301}", "a\0", "🍋", "Content/a.md"]
        for lhs in strings {
            for rhs in strings {
                let (l, r) = (Array(lhs.utf8), Array(rhs.utf8))
                let expected = l == r ? 0 : l.lexicographicallyPrecedes(r) ? -1 : 1
                #expect(UTF8Order.compare(lhs, rhs).signum() == expected, "\(lhs) \(rhs)")
            }
        }
    }
}
