import FruitsiteCore
import Testing

/// Content files the fuzzer (`make fuzz`) or a targeted search found crashing or hanging the
/// parser. Each must now give a diagnostic, quickly.
@Suite struct FuzzRegressionTests {
    /// 30,000 nested flow lists: converting the tree to template values recursed once per
    /// level and overflowed the stack; unclosed, libyaml took seconds to reject them.
    @Test(arguments: [true, false])
    func deeplyNestedListsAreAnError(isClosed: Bool) throws {
        let depth = 30_000
        let lists =
            String(repeating: "[", count: depth)
            + (isClosed ? String(repeating: "]", count: depth) : "")
        let clock = ContinuousClock()
        var result: FruitParser.Result?
        let elapsed = clock.measure {
            result = parse("---\nname: Fig\ncategory: Figs\nz: \(lists)\n---\n")
        }
        let diagnostic = try #require(result?.diagnostics.first)
        #expect(result?.fruit == nil)
        #expect(diagnostic.message == "invalid YAML: lists and maps nest deeper than 100 levels")
        #expect(diagnostic.location.line == 4)
        // The front matter's own map is the first level, so the 100th list is one too many.
        #expect(diagnostic.location.column == 4 + 99)
        #expect(elapsed < .seconds(2))
    }

    @Test func deeplyNestedMapsAreAnError() throws {
        var yaml = "name: Fig\ncategory: Figs\n"
        for level in 0..<150 {
            yaml += String(repeating: " ", count: level) + "k\(level):\n"
        }
        let result = parse("---\n\(yaml)---\n")
        #expect(result.fruit == nil)
        #expect(result.diagnostics.first?.message.contains("nest deeper than 100") == true)
    }

    /// Nesting within the bound is fine.
    @Test func nestingWithinTheBoundParses() throws {
        let lists = String(repeating: "[", count: 50) + String(repeating: "]", count: 50)
        let result = parse("---\nname: Fig\ncategory: Figs\nz: \(lists)\n---\n")
        #expect(result.fruit != nil)
    }
}
