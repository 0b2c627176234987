import Mustache
import Testing

/// A standalone partial's indentation goes before each line of the partial's source, as if
/// prepended to its text before rendering (the spec's partials module); and a standalone line
/// holds one tag.
@Suite struct PartialIndentationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var template: String
        var partials: [String: String] = [:]
        var data: MustacheValue = [:]
        var expected: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // Indentation belongs to the partial's lines, wherever the output stands.
        Case(
            name: "a nested standalone partial after text on the line",
            template: "x{{>p1}}", partials: ["p1": "  {{>p2}}", "p2": "b"], expected: "x  b"),
        Case(
            name: "a standalone partial in each iteration of an inline section",
            template: "{{#l}}{{>p}}{{/l}}", partials: ["p": "  {{>q}}\n", "q": "[{{.}}]"],
            data: ["l": [1, 2]], expected: "  [1]  [2]"),
        Case(
            name: "the first of two standalone partials inside an inline partial",
            template: "<main>{{>content}}</main>",
            partials: ["content": "  {{>card}}\n  {{>card}}\n", "card": "<c>\n"],
            expected: "<main>  <c>\n  <c>\n</main>"),
        Case(
            name: "inner and outer indentation add up",
            template: "  {{>p}}\n", partials: ["p": "a\n  {{>q}}\n", "q": "b\nc\n"],
            expected: "  a\n    b\n    c\n"),
        // Lines produced by data, by section iterations or by inline partials are not lines
        // of the partial's source.
        Case(
            name: "a value's line breaks are not indented",
            template: " {{>p}}\n", partials: ["p": "{{x}}y\n"], data: ["x": "a\n"],
            expected: " a\ny\n"),
        Case(
            name: "a section's second iteration on the same source line is not indented",
            template: "  {{>p}}\n", partials: ["p": "{{#l}}<{{.}}>\n{{/l}}"],
            data: ["l": [1, 2]], expected: "  <1>\n<2>\n"),
        Case(
            name: "a standalone line inside a section is indented in every iteration",
            template: "  {{>p}}\n", partials: ["p": "{{#l}}\n{{.}}\n{{/l}}\n"],
            data: ["l": [1, 2]], expected: "  1\n  2\n"),
        Case(
            name: "an inline partial inside an indented partial is not indented",
            template: "  {{>p}}\n", partials: ["p": "[{{>q}}]\n", "q": "1\n2\n"],
            expected: "  [1\n2\n]\n"),
        Case(
            name: "a line starting with a tag that renders nothing is still indented",
            template: "  {{>p}}\n", partials: ["p": "{{missing}}\n{{^missing}}x{{/missing}}\n"],
            expected: "  \n  x\n"),
        Case(
            name: "empty lines of a partial stay empty, a deliberate difference",
            template: "  {{>p}}\n", partials: ["p": "a\n\nb\r\n\r\nc\n"],
            expected: "  a\n\n  b\r\n\r\n  c\n"),
        // Parents and blocks inside an indented partial.
        Case(
            name: "an inline parent is not indented, its inline block's override is",
            template: "  {{>p}}\n",
            partials: ["p": "{{<l}}{{$b}}x\ny{{/b}}{{/l}}\n", "l": "[{{$b}}{{/b}}]\nl\n"],
            expected: "  [x\n  y]\nl\n\n"),
        // One tag per standalone line.
        Case(
            name: "two tags alone on a line are not standalone",
            template: "a\n{{#t}}{{/t}}\nb", data: ["t": true], expected: "a\n\nb"),
        Case(
            name: "a comment and a section tag alone on a line are not standalone",
            template: "a\n  {{! c }}{{#t}}\nb\n{{/t}}\n", data: ["t": true],
            expected: "a\n  \nb\n"),
        Case(
            name: "a parent and its block alone on a line are standalone together",
            template: "{{<parent}}{{$b}}\nx\n{{/b}}{{/parent}}\n",
            partials: ["parent": "<{{$b}}{{/b}}>\n"], expected: "<x\n>\n"),
    ]

    @Test(arguments: cases)
    func renders(_ testCase: Case) throws {
        let output = try MustacheTemplate(testCase.template).render(
            testCase.data, partials: testCase.partials)
        #expect(
            output == testCase.expected,
            """
            template: \(testCase.template.debugDescription)
            partials: \(testCase.partials.sorted { $0.key < $1.key })
            expected: \(testCase.expected.debugDescription)
            actual:   \(output.debugDescription)
            """)
    }
}
