import FruitsiteCore
import Testing

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
}
