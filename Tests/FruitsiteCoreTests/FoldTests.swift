import Foundation
import FruitsiteCore
import Testing

/// `Fold.normalizeNFC` is NFC by a table of fruitsite's own: these check it against Unicode's
/// conformance data, and against what browsers compose.
@Suite struct FoldTests {
    /// Every line of Unicode's NormalizationTest.txt: c2 == NFC(c1) == NFC(c2) == NFC(c3) and
    /// c4 == NFC(c4) == NFC(c5); and every code point its part 1 does not list is its own NFC.
    /// Part 1's code points are also each followed by a mark, which must not change that
    /// c1, c2 and c3 have one NFC: the file has no such case.
    @Test func normalizesAsUnicodesConformanceTestSays() throws {
        let text = try Self.normalizationTest()
        var failures: [String] = []
        var (lines, part, listed) = (0, "", Set<UInt32>())
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            if line.hasPrefix("@") { part = String(line.prefix { !$0.isWhitespace }) }
            let data = line.prefix { $0 != "#" && $0 != "@" }
            guard !data.allSatisfy(\.isWhitespace) else { continue }
            let c = data.split(separator: ";", omittingEmptySubsequences: false)
                .prefix(5).map(Self.scalars)
            guard c.count == 5 else {
                failures.append("NormalizationTest.txt:\(index + 1): not five columns")
                continue
            }
            lines += 1
            if part == "@Part1", let only = c[0].unicodeScalars.first {
                listed.insert(only.value)
                // Canonically equivalent text has one NFC, whatever mark follows: one below
                // sorts before a decomposition's own marks above.
                for mark in ["\u{323}", "\u{301}", "\u{345}"] {
                    let expected = Fold.normalizeNFC(c[2] + mark)
                    for column in 0..<2
                    where !Fold.normalizeNFC(c[column] + mark).unicodeScalars.elementsEqual(
                        expected.unicodeScalars)
                    {
                        failures.append(
                            "NormalizationTest.txt:\(index + 1): NFC(c\(column + 1) + "
                                + "\(Self.hex(mark))) differs from NFC(c3 + \(Self.hex(mark)))")
                    }
                }
            }
            let checks = [(2, 1), (2, 2), (2, 3), (4, 4), (4, 5)]
            for (expected, source) in checks {
                let normalized = Fold.normalizeNFC(c[source - 1])
                if !normalized.unicodeScalars.elementsEqual(c[expected - 1].unicodeScalars) {
                    failures.append(
                        "NormalizationTest.txt:\(index + 1): c\(expected) == NFC(c\(source)) "
                            + "fails: NFC gives \(Self.hex(normalized)), c\(expected) is "
                            + Self.hex(c[expected - 1]))
                }
            }
        }
        for value in 0..<UInt32(0x11_0000) where !listed.contains(value) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let normalized = Fold.normalizeNFC(String(scalar))
            if !normalized.unicodeScalars.elementsEqual([scalar]) {
                failures.append(
                    "NormalizationTest.txt, part 1: U+\(Self.hex(String(scalar))), which it does "
                        + "not list, is not its own NFC: NFC gives \(Self.hex(normalized))")
            }
        }
        #expect(lines > 18_000 && listed.count > 2_000, "\(lines) lines, part 1 \(listed.count)")
        let failureCount = failures.count
        #expect(
            failureCount == 0, "the first of them:\n\(failures.prefix(20).joined(separator: "\n"))")
    }

    @Test func latinNamesAndEmojiAreKeptAsTheyAre() {
        for text in ["Açaí", "Pêche de vigne", "Żurawina", "🍽️", "🫐", "👩🏽‍🌾"] {
            #expect(Fold.normalizeNFC(text).unicodeScalars.elementsEqual(text.unicodeScalars))
        }
        #expect(Fold.normalizeNFC("e\u{301}").unicodeScalars.elementsEqual(["é"]))
        #expect(Fold.fold("ΣΟΦΟΣ") == "σοφοσ")
    }

    /// Folding lowercases each code point by its full mapping, as `lowercased()` does, from
    /// bytes of its own: every code point, between an uppercase letter and a mark, folds to
    /// what `lowercased()` then NFC make of it, a final sigma aside. (Unassigned and private
    /// use code points have no case.)
    @Test func lowercasesEveryCodePointAsTheStandardLibraryDoes() {
        var failures: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value),
                ![.unassigned, .privateUse].contains(scalar.properties.generalCategory)
            else { continue }
            let text = "A" + String(scalar) + "\u{301}"
            let lowered = text.lowercased().replacingOccurrences(of: "\u{3C2}", with: "\u{3C3}")
            let expected = Fold.normalizeNFC(lowered)
            if !Fold.fold(text).unicodeScalars.elementsEqual(expected.unicodeScalars) {
                failures.append(String(value, radix: 16, uppercase: true))
            }
        }
        #expect(failures.isEmpty, "U+\(failures.prefix(20).joined(separator: ", U+"))")
    }

    /// What browsers' `normalize("NFC")` composes and Foundation's tables (Unicode 15) did not:
    /// pairs that compose since Unicode 16, and a Hangul syllable with a trailing consonant;
    /// and a Kirat Rai vowel sign whose decomposition composes with the letter before it.
    @Test func composesAsBrowsersDo() {
        for (text, composed) in [
            ("\u{16D67}\u{16D67}", "\u{16D68}"), ("\u{105D2}\u{307}", "\u{105C9}"),
            ("\u{11382}\u{113C9}", "\u{11383}"), ("가\u{11A8}", "각"),
            ("\u{16D63}\u{16D68}", "\u{16D6A}"), ("a\u{323}\u{302}", "\u{1EAD}"),
            ("À\u{323}", "\u{1EA0}\u{300}"),
        ] {
            #expect(
                Fold.normalizeNFC(text).unicodeScalars.elementsEqual(composed.unicodeScalars),
                "\(Self.hex(text))")
        }
    }

    // MARK: - NormalizationTest.txt

    /// The file as Debian's unicode-data installs it (`make deps`), in `UNICODE_DATA` or
    /// /usr/share/unicode, plain or compressed with bzip2.
    static func normalizationTest() throws -> String {
        let folder = ProcessInfo.processInfo.environment["UNICODE_DATA"] ?? "/usr/share/unicode"
        let path = folder + "/NormalizationTest.txt"
        if FileManager.default.fileExists(atPath: path) {
            return try String(contentsOfFile: path, encoding: .utf8)
        }
        guard FileManager.default.fileExists(atPath: path + ".bz2") else {
            let message =
                "\(path) is missing: install Debian's unicode-data (make deps does), or set "
                + "UNICODE_DATA to a folder that holds NormalizationTest.txt"
            Issue.record(Comment(rawValue: message))
            throw CocoaError(.fileNoSuchFile)
        }
        let bzip2 = Process()
        bzip2.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        bzip2.arguments = ["bzip2", "-dc", path + ".bz2"]
        let pipe = Pipe()
        bzip2.standardOutput = pipe
        try bzip2.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        bzip2.waitUntilExit()
        try #require(bzip2.terminationStatus == 0, "bzip2 -dc \(path).bz2 failed")
        return String(decoding: data, as: UTF8.self)
    }

    /// A column's code points, written as hex and spaces.
    static func scalars(_ column: Substring) -> String {
        String(
            String.UnicodeScalarView(
                column.split(separator: " ").compactMap {
                    UInt32($0, radix: 16).flatMap(Unicode.Scalar.init)
                }))
    }

    static func hex(_ text: String) -> String {
        text.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }
            .joined(separator: " ")
    }
}
