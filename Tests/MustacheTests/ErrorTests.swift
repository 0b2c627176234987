import Mustache
import TestSupport
import Testing

@Suite struct ErrorTests {
    // MARK: - Syntax errors, one per kind

    /// Each case: a template with `1️⃣` where the error is expected, and the reason.
    static let syntaxCases: [(String, MustacheError.Reason)] = [
        ("Hello 1️⃣{{name", .unclosedTag(expected: "}}")),
        ("Hello 1️⃣{{{name}}", .unclosedTag(expected: "}}}")),
        ("{{=<% %>=}}\nHello 1️⃣<%name %", .unclosedTag(expected: "%>")),
        ("a 1️⃣{{}} b", .emptyTagName),
        ("a\n  1️⃣{{# }}{{/x}}", .emptyTagName),
        ("1️⃣{{> }}", .emptyTagName),
        ("x 1️⃣{{first name}}", .invalidTagName("first name")),
        ("x 1️⃣{{a..b}}", .invalidTagName("a..b")),
        ("x 1️⃣{{> my card}}", .invalidTagName("my card")),
        ("x 1️⃣{{first\tname}}", .invalidTagName("first\tname")),
        ("x 1️⃣{{first\u{00A0}name}}", .invalidTagName("first\u{00A0}name")),
        ("x 1️⃣{{> my\u{3000}card}}", .invalidTagName("my\u{3000}card")),
        ("1️⃣{{=<%%>=}}", .invalidDelimiters("<%%>")),
        ("1️⃣{{=<% = %>=}}", .invalidDelimiters("<% = %>")),
        ("text\n1️⃣{{/items}}", .unexpectedClosingTag("items")),
        ("🍎🍐 é 1️⃣{{#}}{{/x}}", .emptyTagName),
    ]

    @Test(arguments: syntaxCases)
    func syntaxError(marked: String, reason: MustacheError.Reason) throws {
        let source = MarkedText(marked)
        let error = try #require(throws: MustacheError.self) {
            try MustacheTemplate(source.text, name: "fruit")
        }
        #expect(error.reason == reason)
        #expect(error.template == "fruit")
        #expect((error.line, error.column) == (source["1️⃣"].line, source["1️⃣"].column))
    }

    @Test func unclosedSectionPointsAtTheEndAndAtTheOpeningTag() throws {
        let source = MarkedText("<ul>\n  2️⃣{{#items}}\n  <li>{{name}}</li>\n</ul>\n1️⃣")
        let error = try #require(throws: MustacheError.self) {
            try MustacheTemplate(source.text, name: "fruit")
        }
        #expect(error.reason == .unclosedSection("items"))
        #expect((error.line, error.column) == (source["1️⃣"].line, source["1️⃣"].column))
        #expect(error.openedAt == source["2️⃣"].mustache)
        #expect(error.message == "unclosed section 'items' (opened at 2:3)")
        #expect(error.description == "fruit:5:1: unclosed section 'items' (opened at 2:3)")
    }

    /// A tag missing its closing delimiter takes in the text up to the next tag's: the
    /// message quotes its first line and says what is likely wrong, not the lines it took.
    @Test func aTagRunningOntoTheNextLineAsksForItsClosingDelimiter() throws {
        let source = MarkedText("<h1>1️⃣{{fruit.name}</h1>\n{{/main}}")
        let error = try #require(throws: MustacheError.self) {
            try MustacheTemplate(source.text, name: "fruit")
        }
        #expect((error.line, error.column) == (source["1️⃣"].line, source["1️⃣"].column))
        #expect(
            error.message
                == "invalid tag name 'fruit.name}</h1>…': the tag runs onto the next line; "
                + "is its closing delimiter missing?")
    }

    @Test func mismatchedClosingTagNamesBothSections() throws {
        let source = MarkedText("{{#a}}\n2️⃣{{^b}}\n1️⃣{{/a}}")
        let error = try #require(throws: MustacheError.self) {
            try MustacheTemplate(source.text, name: "fruit")
        }
        #expect(error.reason == .mismatchedClosingTag(expected: "b", found: "a"))
        #expect((error.line, error.column) == (source["1️⃣"].line, source["1️⃣"].column))
        #expect(error.openedAt == source["2️⃣"].mustache)
    }

    @Test func unclosedParentAndBlockAreReported() throws {
        let source = MarkedText("2️⃣{{<layout}}\n3️⃣{{$body}}\nHi\n1️⃣")
        let errors = try #require(throws: MustacheErrors.self) {
            try MustacheLibrary(templates: ["page": source.text])
        }
        #expect(
            errors.errors.map(\.reason) == [.unclosedSection("body"), .unclosedSection("layout")])
        #expect(errors.errors.map(\.openedAt) == [source["3️⃣"].mustache, source["2️⃣"].mustache])
    }

    // MARK: - Collecting errors

    @Test func libraryCollectsEveryErrorOfEveryTemplate() throws {
        let fruit = MarkedText("1️⃣{{#items}}\n2️⃣{{a b}}\n3️⃣{{/item}}")
        let layout = MarkedText("<title>4️⃣{{title}</title>")
        let errors = try #require(throws: MustacheErrors.self) {
            try MustacheLibrary(templates: [
                "fruit": fruit.text, "layout": layout.text, "fine": "{{x}}",
            ])
        }
        let found = errors.errors.map { "\($0.template):\($0.line):\($0.column)" }
        let expected = [
            "fruit:\(fruit["2️⃣"].line):\(fruit["2️⃣"].column)",
            "fruit:\(fruit["3️⃣"].line):\(fruit["3️⃣"].column)",
            "layout:\(layout["4️⃣"].line):\(layout["4️⃣"].column)",
        ]
        #expect(found == expected)
        #expect(errors.errors[1].reason == .mismatchedClosingTag(expected: "items", found: "item"))
        #expect(errors.errors[1].openedAt == fruit["1️⃣"].mustache)
        #expect(errors.description.split(separator: "\n").count == 3)
    }

    // MARK: - Unknown partials and parents

    @Test func unknownPartialAndParentAreCompileErrorsWhenRequired() throws {
        let page = MarkedText("{{<layout}}{{/layout}}\n  1️⃣{{> cards}}\n2️⃣{{< base}}{{/base}}")
        let errors = try #require(throws: MustacheErrors.self) {
            try MustacheLibrary(
                templates: ["page": page.text, "layout": "", "card": ""],
                requiresKnownPartials: true)
        }
        #expect(errors.errors.map(\.reason) == [.unknownPartial("cards"), .unknownParent("base")])
        #expect(
            errors.errors.map { MustacheError.Position(line: $0.line, column: $0.column) }
                == [page["1️⃣"].mustache, page["2️⃣"].mustache])
        #expect(errors.errors[0].hint == "did you mean 'card'?")
        #expect(errors.errors[1].hint == nil)
    }

    @Test func unknownPartialRendersEmptyByDefault() throws {
        let library = try MustacheLibrary(templates: ["page": "[{{> missing}}|{{<gone}}{{/gone}}]"])
        #expect(try library.render("page", with: [:]) == "[|]")
    }

    @Test func unknownDynamicPartialIsARenderErrorWhenRequired() throws {
        let page = MarkedText("x\n1️⃣{{> *kind}}")
        let library = try MustacheLibrary(
            templates: ["page": page.text, "apple": "A"], requiresKnownPartials: true)
        #expect(try library.render("page", with: ["kind": "apple"]) == "x\nA")
        let error = try #require(throws: MustacheError.self) {
            try library.render("page", with: ["kind": "pear"])
        }
        #expect(error.reason == .unknownPartial("pear"))
        #expect(
            MustacheError.Position(line: error.line, column: error.column) == page["1️⃣"].mustache)
    }

    @Test func unknownTemplateHasNoPosition() throws {
        let library = try MustacheLibrary(templates: ["page": "x"])
        let error = try #require(throws: MustacheError.self) {
            try library.render("pgae", with: nil)
        }
        #expect(error.reason == .unknownTemplate("pgae"))
        #expect(error.description == "pgae: unknown template 'pgae'")
    }

    // MARK: - Recursion

    @Test func partialsIncludingEachOtherStopAtTheBound() throws {
        let first = MarkedText("a\n1️⃣{{> second}}")
        let library = try MustacheLibrary(
            templates: ["first": first.text, "second": "b{{> first}}"], requiresKnownPartials: true)
        let error = try #require(throws: MustacheError.self) {
            try library.render("first", with: [:])
        }
        #expect(error.reason == .recursionTooDeep(["second", "first", "second"]))
        #expect(error.template == "first")
        #expect(
            MustacheError.Position(line: error.line, column: error.column) == first["1️⃣"].mustache)
    }

    @Test func parentIncludingItselfStopsAtTheBound() throws {
        let library = try MustacheLibrary(templates: ["loop": "{{<loop}}{{/loop}}"])
        let error = try #require(throws: MustacheError.self) {
            try library.render("loop", with: [:])
        }
        #expect(error.reason == .recursionTooDeep(["loop", "loop"]))
    }

    @Test func blockOverrideHoldingItselfStopsAtTheBound() throws {
        let library = try MustacheLibrary(templates: [
            "page": "{{<layout}}{{$body}}{{$body}}x{{/body}}{{/body}}{{/layout}}",
            "layout": "{{$body}}{{/body}}",
        ])
        let error = try #require(throws: MustacheError.self) {
            try library.render("page", with: [:])
        }
        #expect(error.reason == .recursionTooDeep(["$body", "$body"]))
    }

    @Test func recursionWithinTheBoundRenders() throws {
        let library = try MustacheLibrary(templates: [
            "tree": "{{name}}({{#children}}{{> tree}}{{/children}})"
        ])
        var node: MustacheValue = ["name": "leaf", "children": []]
        for level in 0..<150 {
            node = ["name": .string("n\(level)"), "children": [node]]
        }
        let output = try library.render("tree", with: node)
        #expect(output.hasPrefix("n149(n148("))
        #expect(output.hasSuffix("leaf()" + String(repeating: ")", count: 150)))
    }

    // MARK: - Missing data

    @Test func missingVariableRendersEmpty() throws {
        let template = try MustacheTemplate("[{{missing}}|{{{a.b.c}}}|{{#none}}x{{/none}}]")
        #expect(try template.render(["a": ["b": 1]]) == "[||]")
    }
}
