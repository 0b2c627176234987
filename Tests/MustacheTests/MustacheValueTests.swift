import Foundation
import Mustache
import Testing

@Suite struct MustacheValueTests {
    @Test func decodesJSONWithExactTypes() throws {
        let json = #"{"a": 1, "b": 1.5, "c": true, "d": null, "e": "x", "f": [0, false], "g": {}}"#
        let value = try MustacheValue(jsonData: Data(json.utf8))
        let expected: MustacheValue = [
            "a": .int(1), "b": .double(1.5), "c": .bool(true), "d": .null, "e": "x",
            "f": [.int(0), .bool(false)], "g": .object([:]),
        ]
        #expect(value == expected)
    }

    @Test func decodesTopLevelScalars() throws {
        #expect(try MustacheValue(jsonData: Data("85".utf8)) == .int(85))
        #expect(try MustacheValue(jsonData: Data(#""world""#.utf8)) == .string("world"))
    }

    @Test func rejectsInvalidJSON() {
        #expect(throws: (any Error).self) {
            try MustacheValue(jsonData: Data("{".utf8))
        }
    }

    /// Only null, false and the empty list are falsy, as in the spec's reference implementation.
    @Test(
        arguments: [
            (MustacheValue.null, false), (false, false), ([], false), (true, true), ("", true),
            (0, true), (0.0, true), ([:], true), ([nil], true), (.utf8([]), true),
        ] as [(MustacheValue, Bool)])
    func truthiness(value: MustacheValue, isTruthy: Bool) throws {
        #expect(value.isTruthy == isTruthy)
        let template = try MustacheTemplate("{{#value}}yes{{/value}}{{^value}}no{{/value}}")
        #expect(try template.render(["value": value]) == (isTruthy ? "yes" : "no"))
    }

    /// A string given as UTF-8 renders, escapes, names a partial and stands for itself in
    /// its section as the same string would.
    @Test(arguments: ["", "plain", #"<a href="x">&'</a>"#, "Açaí ‘果物’ 🍓 عربي"])
    func utf8RendersAsTheString(_ text: String) throws {
        let template = try MustacheTemplate(
            "{{value}}|{{{value}}}|{{&value}}|{{#value}}[{{.}}]{{/value}}|{{>*value}}")
        let partials = [text: "partial"]
        let asString = try template.render(["value": .string(text)], partials: partials)
        let asUTF8 = try template.render(["value": .utf8(Array(text.utf8))], partials: partials)
        #expect(asUTF8 == asString)
        #expect(asString.contains("partial"))
        #expect(MustacheValue.utf8(Array(text.utf8)).isTruthy)
    }
}
