import Foundation
import Mustache
import Testing

@Suite struct MustacheTemplateTests {
    /// The documentation's example: a template with a partial, rendered against JSON data.
    @Test func readmeExample() throws {
        let json = Data(#"{"fruits": [{"name": "Apple", "price": 1.2}, {"name": "Pear"}]}"#.utf8)
        let template = try MustacheTemplate(
            """
            <ul>
              {{#fruits}}
              {{> fruit}}
              {{/fruits}}
            </ul>
            """)
        let html = try template.render(
            MustacheValue(jsonData: json),
            partials: ["fruit": "<li>{{name}}{{#price}}: {{.}} €{{/price}}</li>\n"])
        #expect(html == "<ul>\n  <li>Apple: 1.2 €</li>\n  <li>Pear</li>\n</ul>")
    }

    @Test func escapesHTMLIncludingApostrophes() throws {
        let template = try MustacheTemplate("{{text}}|{{{text}}}|{{&text}}")
        let output = try template.render(["text": "<a href=\"x\">Tom & Jerry's</a>"])
        #expect(
            output == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
                + "|<a href=\"x\">Tom & Jerry's</a>|<a href=\"x\">Tom & Jerry's</a>")
    }

    @Test func escapesTheFiveCharactersAndNoOther() throws {
        let template = try MustacheTemplate("{{text}}")
        let entities: [Character: String] = [
            "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
        ]
        let characters = (1..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["é", "€", "🍎"]
        // At every position of the eight bytes values are scanned by at a time, in the first
        // word, a later one and the short tail.
        for character in characters {
            let written = entities[character] ?? String(character)
            for before in 0..<20 {
                let (head, tail) = (String(repeating: "a", count: before), "bcdefghijk")
                #expect(
                    try template.render(["text": .string(head + String(character) + tail)])
                        == head + written + tail)
            }
        }
        // Several in one word, and the bytes beside them.
        let crowded = "x&y<>\"'z\"\"&&''<<>>end"
        #expect(
            try template.render(["text": .string(crowded)])
                == "x&amp;y&lt;&gt;&quot;&#39;z&quot;&quot;&amp;&amp;&#39;&#39;&lt;&lt;&gt;&gt;end")
    }

    @Test func rendersScalars() throws {
        let template = try MustacheTemplate(
            "{{i}} {{d}} {{whole}} {{yes}} {{no}} [{{none}}] [{{list}}]")
        let context: MustacheValue = [
            "i": 85, "d": 1.21, "whole": 2.0, "yes": true, "no": false, "none": nil,
            "list": [1, 2],
        ]
        #expect(try template.render(context) == "85 1.21 2.0 true false [] []")
    }

    @Test func compiledOnceRenderedMany() throws {
        let template = try MustacheTemplate("Hello, {{name}}!")
        #expect(try template.render(["name": "Apple"]) == "Hello, Apple!")
        #expect(try template.render(["name": "Pear"]) == "Hello, Pear!")
    }

    @Test func partialCompileErrorsAreAllReported() throws {
        let template = try MustacheTemplate("{{> a}}{{> b}}")
        let errors = try #require(throws: MustacheErrors.self) {
            try template.render([:], partials: ["a": "{{#x}}", "b": "{{/y}}"])
        }
        #expect(errors.errors.map(\.template) == ["a", "b"])
    }
}
