import Testing

@testable import FruitsiteCore

/// Diagnostics show the line they point at, with a caret under the column.
@Suite struct DiagnosticTests {
    @Test func showsTheLineAndACaretUnderTheColumn() {
        let source = "---\nname: Açaí\n\tcategory: [x\n---\n"
        let read = { (path: String) -> String? in path == "a.md" ? source : nil }
        let error = Diagnostic.error(
            at: SourceLocation(path: "a.md", line: 3, column: 12), "unclosed list", hint: "add ]")
        #expect(
            error.described(source: read) == """
                a.md:3:12: error: unclosed list
                    3 |     category: [x
                      |               ^
                  hint: add ]
                """)
        let accented = Diagnostic.warning(
            at: SourceLocation(path: "a.md", line: 2, column: 10), "x")
        #expect(accented.described(source: read).hasSuffix("2 | name: Açaí\n      |          ^"))
        // Without the file, or past its end, it is the description alone.
        let elsewhere = Diagnostic.error(at: SourceLocation(path: "b.md", line: 1, column: 1), "x")
        #expect(elsewhere.described(source: read) == elsewhere.description)
        let past = Diagnostic.error(at: SourceLocation(path: "a.md", line: 99), "x")
        #expect(past.described(source: read) == past.description)
    }

    @Test func showsControlCharactersAsSymbolsSoTheTerminalPrintsThemAsText() {
        let source = "name: \u{1B}[31mred\u{7F}\tx\r\n"
        let read = { (_: String) -> String? in source }
        let error = Diagnostic.error(at: SourceLocation(path: "a.md", line: 1, column: 14), "x")
        #expect(
            error.described(source: read)
                == "a.md:1:14: error: x\n    1 | name: \u{241B}[31mred\u{2421}    x\n      | "
                + String(repeating: " ", count: 13) + "^")
    }

    @Test func showsTheLineOfACRLFFile() {
        let read = { (_: String) -> String? in "---\r\nname: [\r\n---\r\n" }
        let error = Diagnostic.error(at: SourceLocation(path: "a.md", line: 2, column: 7), "x")
        #expect(
            error.described(source: read) == "a.md:2:7: error: x\n    2 | name: [\n      |       ^")
    }

    @Test func showsALongLineAroundTheColumn() {
        let line = String(repeating: "a", count: 300) + "^" + String(repeating: "b", count: 300)
        let read = { (_: String) -> String? in line }
        let error = Diagnostic.error(at: SourceLocation(path: "a.md", line: 1, column: 301), "x")
        let shown = error.described(source: read).split(separator: "\n")
        let window = String(repeating: "a", count: 60) + "^" + String(repeating: "b", count: 59)
        #expect(shown[1] == "    1 | …\(window)…")
        // The caret stands under the column's character.
        #expect(
            shown[2].firstIndex(of: "^").map {
                shown[2].distance(from: shown[2].startIndex, to: $0)
            }
                == shown[1].firstIndex(of: "^").map {
                    shown[1].distance(from: shown[1].startIndex, to: $0)
                })
        // Near the start, the window starts there.
        let early = Diagnostic.error(at: SourceLocation(path: "a.md", line: 1, column: 3), "x")
        let earlyShown = early.described(source: read).split(separator: "\n")
        #expect(earlyShown[1] == "    1 | " + String(repeating: "a", count: 120) + "…")
        #expect(earlyShown[2] == "      |   ^")
    }

    @Test func saysBySizeHowFarAFileIsOverItsLimit() {
        #expect(
            UnreadableFile.describe(1_400, over: 1_024) == "1.3 KB, more than the limit of 1 KB")
        #expect(
            UnreadableFile.describe(1_030, over: 1_024)
                == "1030 bytes, more than the limit of 1024 bytes")
        #expect(
            UnreadableFile.describe(5 << 20 + 300_000, over: 4 << 20)
                == "5.2 MB, more than the limit of 4 MB")
    }
}
