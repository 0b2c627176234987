import Foundation
import Mustache
import Testing

/// Inputs the fuzzer (`make fuzz`) or a targeted search found crashing or hanging the engine.
/// Each must now fail with an error, or render, quickly.
@Suite struct FuzzRegressionTests {
    // MARK: - Stack overflows

    /// 6,500 nested sections overflowed the stack in the renderer's recursion.
    @Test func deeplyNestedSectionsAreAnError() throws {
        let source =
            String(repeating: "{{#.}}", count: 6_500) + String(repeating: "{{/.}}", count: 6_500)
        let error = try #require(throws: MustacheError.self) {
            try MustacheTemplate(source)
        }
        #expect(error.reason == .nestingTooDeep)
        #expect(error.line == 1)
        #expect(error.column == 6 * 100 + 1)
    }

    @Test func deeplyNestedInvertedSectionsAreAnError() throws {
        let source =
            String(repeating: "{{^no}}", count: 6_500) + String(repeating: "{{/no}}", count: 6_500)
        #expect(throws: MustacheError.self) { try MustacheTemplate(source) }
    }

    /// Nesting up to the bound still compiles and renders.
    @Test func nestingAtTheBoundRenders() throws {
        let source =
            String(repeating: "{{#.}}", count: 100) + "x" + String(repeating: "{{/.}}", count: 100)
        #expect(try MustacheTemplate(source).render(["a": 1]) == "x")
    }

    /// A partial holding 90 nested sections around itself: each inclusion stays within the
    /// partial bound, but together they recursed deep enough to overflow the stack.
    @Test func sectionsAcrossRecursivePartialsStopAtTheBound() throws {
        let loop =
            String(repeating: "{{#.}}", count: 90) + "{{> loop}}"
            + String(repeating: "{{/.}}", count: 90)
        let library = try MustacheLibrary(templates: ["loop": loop])
        let error = try #require(throws: MustacheError.self) {
            try library.render("loop", with: ["a": 1])
        }
        guard case .recursionTooDeep = error.reason else {
            Issue.record("expected recursionTooDeep, got \(error.reason)")
            return
        }
    }

    // MARK: - Quadratic compile times

    /// Thousands of tags on one line: each tag's position counted the line's characters
    /// from its start, which took seconds. Each case must now compile in well under one.
    static let oneLineCases: [(String, String)] = [
        ("partials", String(repeating: "{{>a}}", count: 10_000)),
        ("empty tags", String(repeating: "{{ }}", count: 13_000)),
        ("mismatched closing tags", String(repeating: "{{#a}}{{/b}}", count: 5_400)),
        ("unexpected closing tags", String(repeating: "{{/b}}", count: 10_000)),
        ("unclosed sections", String(repeating: "{{#yes}}", count: 8_000)),
    ]

    @Test(arguments: oneLineCases)
    func manyTagsOnOneLineCompileQuickly(name: String, source: String) throws {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            _ = try? MustacheLibrary(templates: ["main": source, "a": ""])
        }
        #expect(elapsed < .seconds(2), "\(name) took \(elapsed)")
    }

    /// The fast path for ASCII lines gives the same columns as counting characters.
    @Test func columnsOnASCIIAndNonASCIILinesCountCharacters() throws {
        for (prefix, column) in [("abc ", 5), ("🍎é\r ", 5), ("\r\r", 3)] {
            let error = try #require(throws: MustacheError.self) {
                try MustacheTemplate("x\n" + prefix + "{{}}")
            }
            #expect(error.line == 2)
            #expect(error.column == column, "\(prefix.debugDescription)")
        }
    }
}
