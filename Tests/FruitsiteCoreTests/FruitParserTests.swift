@testable import FruitsiteCore
import Mustache
import TestSupport
import Testing

@Suite struct FruitParserTests {
    @Test func readsEveryField() throws {
        let result = parse(
            """
            ---
            name: Apple
            emoji: 🍎
            category: Core Fruits
            vitamins: C, B6
            origin: Central Asia
            tagline: "Crisp: never soft"
            ---
            A **crisp** fruit.
            """)
        let fruit = try #require(result.fruit)
        #expect(result.diagnostics.isEmpty)
        #expect(fruit.slug == "apple")
        #expect(fruit.name == "Apple")
        #expect(fruit.emoji == "🍎")
        #expect(fruit.category == "Core Fruits")
        #expect(fruit.vitamins == ["C", "B6"])
        #expect(fruit.vitaminsText == "C, B6")
        #expect(result.details?.params["origin"] == "Central Asia")
        #expect(result.details?.params["tagline"] == "Crisp: never soft")
        #expect(result.details?.bodyHTML == "<p>A <strong>crisp</strong> fruit.</p>\n")
        #expect(!fruit.isDraft)
    }

    @Test func yamlBehavesAsYAML() throws {
        let result = parse(
            """
            ---
            # a comment line
            name: 'Blood: Orange'   # trailing comment
            category: Citrus
            vitamins:
              - C
              - A
            note: >
              folded
              text
            count: 3
            ratio: 0.5
            seasonal: yes
            hex: 0x1F
            octal: 0o17
            huge: 12345678901234567890
            float: -1.5e3
            words: 0xZ
            ---
            """)
        let fruit = try #require(result.fruit)
        #expect(fruit.name == "Blood: Orange")
        #expect(fruit.vitaminsText == "C, A")
        #expect(result.details?.params["note"] == "folded text\n")
        #expect(result.details?.params["count"] == .int(3))
        #expect(result.details?.params["ratio"] == .double(0.5))
        // YAML 1.2 core schema: `yes` is a string.
        #expect(result.details?.params["seasonal"] == "yes")
        // Its integers, hex and octal too; one past 64 bits stays as written.
        #expect(result.details?.params["hex"] == .int(31))
        #expect(result.details?.params["octal"] == .int(15))
        #expect(result.details?.params["huge"] == "12345678901234567890")
        #expect(result.details?.params["float"] == .double(-1500))
        #expect(result.details?.params["words"] == "0xZ")
        for (text, value) in [
            ("-12", MustacheValue.int(-12)), ("0xfF", .int(255)), ("1.", .double(1)),
            (".5", .double(0.5)), ("+1E-2", .double(0.01)), ("2e5", .double(200_000)),
        ] {
            #expect(FruitParser.number(text) == value, "\(text)")
        }
        for text in [".", "1.2.3", "e5", "1e", "1e+", "0x", "0o8", "--1", "1_000", "0x1g", ".e1"] {
            #expect(FruitParser.number(text) == nil, "\(text)")
        }
        #expect(result.details?.bodyHTML.isEmpty == true)
    }

    /// Spaces a quoted name or category starts or ends with are dropped, as a facet value's
    /// are: `"Zed "` and `Zed` are one category.
    @Test func trimsTheNameAndTheCategory() throws {
        let fruit = try #require(
            parse("---\nname: \"  Apple \"\ncategory: \"Zed \"\n---\n").fruit)
        #expect(fruit.name == "Apple")
        #expect(fruit.category == "Zed")
    }

    @Test func acceptsBOMAndCRLF() throws {
        let text = "\u{FEFF}---\r\nname: Kiwi\r\ncategory: Berries\r\n---\r\nGreen *inside*.\r\n"
        let result = parse(text, slug: "kiwi")
        let fruit = try #require(result.fruit)
        #expect(fruit.name == "Kiwi")
        #expect(result.details?.bodyHTML == "<p>Green <em>inside</em>.</p>\n")
    }

    @Test func normalizesStringsToNFC() throws {
        let fruit = try #require(
            parse("---\nname: Acai\u{0301}\ncategory: Berries\n---\n", slug: "acai").fruit)
        #expect(fruit.name.unicodeScalars.map(\.value) == [0x41, 0x63, 0x61, 0xED])
    }

    /// `image:` names a picture from the entry's folder, with the text that stands for it;
    /// `alt: ""` is a decorative picture's. The scan reads the file.
    @Test func readsTheImageItNames() throws {
        let marked = MarkedText(
            "---\nname: A\ncategory: B\nimage:\n  src: 1️⃣photos/a.jpg\n  alt: \" A red apple \"\n---\n",
            columns: .unicodeScalars)
        let result = parse(marked.text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.fruit?.image == nil)
        let image = try #require(result.image)
        #expect(image.source == "photos/a.jpg" && image.alt == "A red apple")
        #expect(image.location.line == marked.line && image.location.column == marked.column)
        let decorative = parse("---\nname: A\ncategory: B\nimage: {src: a.jpg, alt: \"\"}\n---\n")
        #expect(decorative.diagnostics.isEmpty && decorative.image?.alt == "")
    }

    @Test func draftIsRead() throws {
        let fruit = try #require(parse("---\nname: A\ncategory: B\ndraft: true\n---\n").fruit)
        #expect(fruit.isDraft)
    }

    @Test func warnsAboutALikelyTypo() throws {
        let marked = MarkedText(
            "---\nname: A\ncategory: B\n1️⃣catgory: C\n---\n", columns: .unicodeScalars)
        let result = parse(marked.text)
        #expect(result.fruit != nil)
        try #require(result.diagnostics.count == 1, "\(result.diagnostics)")
        let warning = result.diagnostics[0]
        #expect(warning.severity == .warning)
        #expect(warning.message.hasPrefix("unknown key 'catgory'"), "\(warning)")
        #expect(warning.hint == "did you mean 'category'?")
        #expect(warning.location.path == "Content/apple.md")
        #expect(warning.location.line == marked.line, "\(warning)")
        #expect(warning.location.column == marked.column, "\(warning)")
    }

    /// A known key in another case is the likeliest typo of all: it is not silently taken
    /// for a param.
    @Test func warnsAboutAKeyInAnotherCase() throws {
        let marked = MarkedText(
            "---\nname: A\ncategory: B\n1️⃣Category: C\n---\n", columns: .unicodeScalars)
        let result = parse(marked.text)
        try #require(result.diagnostics.count == 1, "\(result.diagnostics)")
        let warning = result.diagnostics[0]
        #expect(warning.severity == .warning)
        #expect(warning.message.hasPrefix("unknown key 'Category'"), "\(warning)")
        #expect(warning.hint == "did you mean 'category'?")
        #expect(warning.location.line == marked.line, "\(warning)")
        #expect(warning.location.column == marked.column, "\(warning)")
    }

    // MARK: - Invalid front matter: one diagnostic each, at the marked spot

    struct InvalidCase: CustomTestStringConvertible, Sendable {
        var name: String
        var source: String
        var message: String
        var testDescription: String { name }
    }

    static let invalidCases: [InvalidCase] = [
        .init(name: "empty file", source: "\n  \n", message: "the file is empty"),
        .init(
            name: "no front matter", source: "1️⃣name: Apple\n",
            message: "the file does not start with front matter"),
        .init(
            name: "no closing delimiter", source: "1️⃣---\nname: Apple\ncategory: Core\n",
            message: "the front matter is never closed"),
        .init(
            name: "bracket never closed", source: "---\nname: Apple\ncategory: 1️⃣[Core\n---\n",
            message: "invalid YAML: did not find expected ',' or ']' while parsing a flow "
                + "sequence that is never closed"),
        .init(
            name: "bracket never closed above a key",
            source: "---\nname: 1️⃣[x\ncategory: X\nemoji: y\n---\n",
            message: "invalid YAML: did not find expected ',' or ']' while parsing a flow "
                + "sequence that is never closed"),
        .init(
            name: "brace never closed above a key",
            source: "---\nname: 1️⃣{a: b\ncategory: X\n---\n",
            message: "invalid YAML: did not find expected ',' or '}' while parsing a flow "
                + "mapping that is never closed"),
        .init(
            name: "quote never closed", source: "---\nname: 1️⃣\"Apple\ncategory: Core\n---\n",
            message: "invalid YAML: found unexpected end of stream while scanning a quoted "
                + "scalar that is never closed"),
        .init(
            name: "key without colon", source: "---\nname: Apple\ncategory: Core\n1️⃣key\n---\n",
            message: "invalid YAML: could not find expected ':' while scanning a simple key"),
        .init(
            name: "control character in a quoted value",
            source: "---\nname: Apple\ncategory: \"Pépin 1️⃣\u{0}\"\n---\n",
            message: "invalid YAML: control characters are not allowed"),
        .init(
            name: "control character after CRLF lines",
            source: "---\r\nname: Apple\r\ncategory: \"Co1️⃣\u{7}re\"\r\n---\r\n",
            message: "invalid YAML: control characters are not allowed"),
        .init(
            name: "category too long for a folder name",
            source: "---\nname: A\ncategory: 1️⃣\(String(repeating: "Long ", count: 52))\n---\n",
            message: "the category 'Long Long"),
        .init(
            name: "vitamin too long for a folder name",
            source:
                "---\nname: A\ncategory: B\nvitamins: [C, 1️⃣\(String(repeating: "k", count: 256))]\n---\n",
            message: "the 'vitamins' value 'kkk"),
        .init(
            name: "bad indentation", source: "---\nname: Apple\n  category1️⃣: Core\n---\n",
            message: "invalid YAML"),
        .init(
            name: "missing name", source: "1️⃣---\ncategory: Core\n---\n",
            message: "missing required key 'name'"),
        .init(
            name: "empty category", source: "---\nname: Apple\ncategory:1️⃣\n---\n",
            message: "required key 'category' is empty"),
        .init(
            name: "blank name", source: "---\nname: 1️⃣\"  \"\ncategory: Core\n---\n",
            message: "'name' is blank"),
        .init(
            name: "name of two lines", source: "---\nname: 1️⃣\"Two\\nLines\"\ncategory: Core\n---\n",
            message: "'name' must be one line"),
        .init(
            name: "category with a tab", source: "---\nname: A\ncategory: 1️⃣\"Co\\tre\"\n---\n",
            message: "'category' must be one line"),
        .init(
            name: "emoji of two lines",
            source: "---\nname: A\ncategory: B\nemoji: 1️⃣\"🍎\\n🍐\"\n---\n",
            message: "'emoji' must be one line"),
        .init(
            name: "control character in a name",
            source: "---\nname: 1️⃣\"A\\x01\"\ncategory: Core\n---\n",
            message: "the value holds U+0001, a character HTML pages cannot hold"),
        .init(
            name: "noncharacter in a list's item",
            source: "---\nname: A\ncategory: B\ncolour: [red, 1️⃣\"\\U0001FFFE\\uFFFF\"]\n---\n",
            message: "the value holds U+1FFFE (and 1 more), a character HTML pages cannot hold"),
        .init(
            name: "control character in the body",
            source: "---\nname: A\ncategory: B\n---\nFine.\nA vertical 1️⃣\u{0B}tab.\n",
            message: "the body holds U+000B, a character HTML pages cannot hold"),
        .init(
            name: "list as name", source: "---\nname: 1️⃣[a, b]\ncategory: Core\n---\n",
            message: "'name' must be a string, not a list"),
        .init(
            name: "map as category", source: "---\nname: A\ncategory:\n  1️⃣x: y\n---\n",
            message: "'category' must be a string, not a map"),
        .init(
            name: "vitamins as map", source: "---\nname: A\ncategory: B\nvitamins:\n  1️⃣c: 1\n---\n",
            message: "'vitamins' must be a string"),
        .init(
            name: "draft not boolean", source: "---\nname: A\ncategory: B\ndraft: 1️⃣maybe\n---\n",
            message: "'draft' must be true or false"),
        .init(
            name: "duplicate key", source: "---\nname: A\ncategory: B\n1️⃣name: C\n---\n",
            message: "duplicate key 'name'"),
        .init(
            name: "duplicate key in a map",
            source: "---\nname: A\ncategory: B\nextra: {a: 1, 1️⃣a: 2}\n---\n",
            message: "duplicate key 'a'"),
        .init(
            name: "date past the year 9999 in UTC",
            source: "---\nname: A\ncategory: B\ndate: 1️⃣9999-12-31T23:59:59-14:00\n---\n",
            message: "'date' must be a date"),
        .init(
            name: "not a map", source: "---\n1️⃣- a\n- b\n---\n",
            message: "front matter must be a map"),
        .init(
            name: "image as a string", source: "---\nname: A\ncategory: B\nimage: 1️⃣a.jpg\n---\n",
            message: "'image' must be a map of 'src' and 'alt', not a string"),
        .init(
            name: "image without alt",
            source: "---\nname: A\ncategory: B\nimage: 1️⃣{src: a.jpg}\n---\n",
            message: "'image' has no 'alt'"),
        .init(
            name: "image without src",
            source: "---\nname: A\ncategory: B\nimage:\n  1️⃣alt: An apple\n---\n",
            message: "'image' has no 'src'"),
        .init(
            name: "image with a misspelt key",
            source: "---\nname: A\ncategory: B\nimage: {1️⃣scr: a.jpg, alt: x, src: a.jpg}\n---\n",
            message: "unknown key 'scr' in 'image'"),
        .init(
            name: "image src not a string",
            source: "---\nname: A\ncategory: B\nimage: {src: 1️⃣[a.jpg], alt: x}\n---\n",
            message: "'image.src' must be a string, not a list"),
        .init(
            name: "image alt of two lines",
            source: "---\nname: A\ncategory: B\nimage: {src: a.jpg, alt: 1️⃣\"red\\napple\"}\n---\n",
            message: "'image.alt' must be one line"),
        .init(
            name: "alias bomb",
            source: """
                ---
                a: &a ["x","x","x","x","x","x","x","x","x","x"]
                b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
                c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]
                d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]
                e: &e [*d,*d,*d,*d,*d,*d,*d,1️⃣*d,*d,*d]
                f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]
                ---
                """,
            message: "invalid YAML: aliases expand to more than 100000 values"),
        .init(
            name: "a great many values without aliases",
            // Four values before the list, and the list's key: the 99,996th item crosses.
            source:
                "---\nname: A\ncategory: B\nv: [\(String(repeating: "x, ", count: 99_995))1️⃣y, y]\n---\n",
            message: "invalid YAML: more than 100000 values, the most fruitsite reads"),
    ]

    @Test(arguments: invalidCases)
    func reportsInvalidFrontMatterAtItsPlace(_ invalid: InvalidCase) throws {
        let marked = MarkedText(invalid.source, columns: .unicodeScalars)
        let result = parse(marked.text)
        #expect(result.fruit == nil)
        let errors = result.diagnostics.filter(\.isError)
        try #require(errors.count == 1, "\(result.diagnostics)")
        let error = errors[0]
        #expect(error.message.hasPrefix(invalid.message), "\(error)")
        #expect(error.location.path == "Content/apple.md")
        #expect(error.location.line == (marked.line == 0 ? nil : marked.line), "\(error)")
        if marked.line > 0 && error.location.column != nil {
            #expect(error.location.column == marked.column, "\(error)")
        }
    }

    @Test func saysNeverClosedOnlyOfQuotesAndBrackets() throws {
        let error = try #require(
            parse("---\nname: Apple\ncategory: Core\nkey\n---\n").diagnostics.first)
        #expect(
            error.message == "invalid YAML: could not find expected ':' while scanning a simple key"
        )
    }

    @Test func reportsInvalidUTF8ByLine() throws {
        var bytes = Array("---\nname: A\ncategory: B\n---\nok\nbad ".utf8)
        bytes.append(0xFF)
        let result = FruitParser().parse(SourceFile(path: "Content/apple.md", bytes: bytes))
        let error = try #require(result.diagnostics.first)
        #expect(
            error.description.hasPrefix("Content/apple.md:6:5: error: the file is not valid UTF-8"))
    }

    @Test func collectsEveryErrorOfAFile() {
        let result = parse("---\nname: [x]\ndraft: maybe\n---\n")
        #expect(result.diagnostics.filter(\.isError).count == 3)
    }

    @Test func keepsEachVitaminOnceAsFirstWritten() throws {
        let fruit = try #require(
            parse("---\nname: A\ncategory: B\nvitamins: [\" K \", C, K, \"C\"]\n---\n").fruit)
        #expect(fruit.vitamins == ["K", "C"])
        #expect(fruit.vitaminsText == "K, C")
    }

    /// A null item of a list is no value: it gets no page of its own.
    @Test func leavesNullItemsOutOfAList() throws {
        let fruit = try #require(
            parse("---\nname: A\ncategory: B\nvitamins: [C, null, ~, \"null\"]\n---\n").fruit)
        #expect(fruit.vitamins == ["C", "null"])
    }

    @Test func acceptsTheLastMomentOfTheYear9999InUTC() throws {
        let fruit = try #require(
            parse("---\nname: A\ncategory: B\ndate: 9999-12-31T23:59:59Z\n---\n").fruit)
        #expect(fruit.date?.timestamp == "9999-12-31T23:59:59Z")
    }

    @Test func rejectsAFileNameThatIsNotASlug() throws {
        let result = parse("---\nname: A\ncategory: B\n---\n", slug: "Blood Orange")
        let error = try #require(result.diagnostics.first)
        #expect(error.message == "file name 'Blood Orange.md' is not a valid slug")
        #expect(error.hint?.contains("blood-orange.md") == true)
    }
}

/// The byte scan that finds what HTML pages cannot hold agrees with the code points' rule.
@Suite struct HTMLCharactersTests {
    @Test func theByteScanFindsExactlyTheForbiddenCodePoints() {
        let planes = (0...16).flatMap { plane in
            [plane << 16 | 0xFFF0...plane << 16 | 0xFFFF, plane << 16...plane << 16 | 0x10]
        }
        for range in [0...0x3000, 0xD000...0xFFFF] + planes {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }  // surrogates
                // Short, and after 8 to 16 printable ASCII bytes, which are read eight at a
                // time: every code point at every offset within a word.
                let before = String(repeating: "x", count: 8 + value % 9)
                for (text, column) in [
                    ("a" + String(Character(scalar)) + "é", 2),
                    (before + String(Character(scalar)) + "yyyyyyyyy", before.count + 1),
                ] {
                    let found = HTMLCharacters.firstForbidden(in: text[...])
                    if HTMLCharacters.isForbidden(scalar) {
                        #expect(found?.scalar == scalar && found?.column == column, "U+\(value)")
                    } else {
                        #expect(found == nil, "U+\(String(value, radix: 16))")
                    }
                }
            }
        }
    }

    /// A value is one line unless it holds a control character (Unicode's `Cc`) HTML can hold,
    /// or a line or paragraph separator: every scalar of Unicode is tried, so that comparing
    /// values, not categories, cannot drift from the definition.
    @Test func aValueIsOneLineUnlessItHoldsAControlCharacterOrASeparator() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let breaks =
                scalar.properties.generalCategory == .control && !HTMLCharacters.isForbidden(scalar)
                || value == 0x2028 || value == 0x2029
            let text = "a" + String(Character(scalar)) + "b"
            if FruitParser.FieldReader.isOneLine(text) == breaks { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { String($0, radix: 16) })")
    }
}
