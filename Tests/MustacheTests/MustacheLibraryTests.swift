import Foundation
import Mustache
import Testing

@Suite struct MustacheLibraryTests {
    /// The example in docs/explanation/mustache.md, line for line.
    @Test func readmeLibraryExample() throws {
        let library = try MustacheLibrary(templates: [
            "page": "<h1>{{title}}</h1>{{#fruits}}{{> item}}{{/fruits}}",
            "item": "<p>{{name}}</p>\n",
        ])
        let data = try MustacheValue(
            jsonData: Data(#"{"title": "Fruit", "fruits": [{"name": "Fig"}]}"#.utf8))
        #expect(try library.render("page", with: data) == "<h1>Fruit</h1><p>Fig</p>\n")
    }

    /// A dynamic partial's name is what an interpolation writes of the value: a number too.
    @Test func aDynamicPartialNamedByANumber() throws {
        let library = try MustacheLibrary(templates: ["page": "[{{>*p}}]", "123": "x", "1.5": "y"])
        #expect(try library.render("page", with: ["p": .int(123)]) == "[x]")
        #expect(try library.render("page", with: ["p": .double(1.5)]) == "[y]")
        #expect(try library.render("page", with: ["p": .array([])]) == "[]")
    }

    @Test func namesAreSorted() throws {
        let library = try MustacheLibrary(templates: [
            "layout": "", "fruit": "", "partials/card": "",
        ])
        #expect(library.names == ["fruit", "layout", "partials/card"])
    }

    /// The way fruitsite uses the library: pages fill the blocks of a shared layout.
    @Test func pageInheritsLayout() throws {
        let library = try MustacheLibrary(
            templates: [
                "layout": """
                <html>
                  <head><title>{{$title}}Fruitsite{{/title}}</title></head>
                  <body>
                    {{$content}}
                    {{/content}}
                  </body>
                </html>

                """,
                "fruit": """
                {{<layout}}
                  {{$title}}{{name}} · Fruitsite{{/title}}
                  {{$content}}
                    <h1>{{name}}</h1>
                    {{> partials/price}}
                  {{/content}}
                {{/layout}}

                """,
                "partials/price": "<p>{{price}} €</p>\n",
            ],
            requiresKnownPartials: true)
        let html = try library.render("fruit", with: ["name": "Apple", "price": 1.5])
        #expect(
            html == """
                <html>
                  <head><title>Apple · Fruitsite</title></head>
                  <body>
                    <h1>Apple</h1>
                    <p>1.5 €</p>
                  </body>
                </html>

                """)
    }

    @Test func rendersConcurrently() async throws {
        let library = try MustacheLibrary(templates: [
            "page": "{{#items}}{{> item}}{{/items}}", "item": "<{{.}}>",
        ])
        let outputs = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for number in 0..<64 {
                group.addTask {
                    let items = MustacheValue.array((0..<number).map { .int($0) })
                    return (number, try library.render("page", with: ["items": items]))
                }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        for (number, output) in outputs {
            #expect(output == (0..<number).map { "<\($0)>" }.joined())
        }
    }
}
