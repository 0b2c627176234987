import Foundation
import Mustache
import Testing

/// Runs the official Mustache spec, read from disk beside the project (never copied into it).
@Suite(.enabled(if: SpecSuite.directory != nil, SpecSuite.missingComment))
struct SpecTests {
    @Test(arguments: SpecSuite.cases(in: "comments.json"))
    func comments(_ specCase: SpecCase) throws { try specCase.check() }

    @Test(arguments: SpecSuite.cases(in: "delimiters.json"))
    func delimiters(_ specCase: SpecCase) throws { try specCase.check() }

    @Test(arguments: SpecSuite.cases(in: "interpolation.json"))
    func interpolation(_ specCase: SpecCase) throws { try specCase.check() }

    @Test(arguments: SpecSuite.cases(in: "inverted.json"))
    func inverted(_ specCase: SpecCase) throws { try specCase.check() }

    @Test(arguments: SpecSuite.cases(in: "partials.json"))
    func partials(_ specCase: SpecCase) throws { try specCase.check() }

    @Test(arguments: SpecSuite.cases(in: "sections.json"))
    func sections(_ specCase: SpecCase) throws { try specCase.check() }

    @Test(arguments: SpecSuite.cases(in: "~inheritance.json"))
    func inheritance(_ specCase: SpecCase) throws { try specCase.check() }

    @Test(arguments: SpecSuite.cases(in: "~dynamic-names.json"))
    func dynamicNames(_ specCase: SpecCase) throws { try specCase.check() }

    /// A new spec file must get a test above or a reason in `skippedFiles`, never be ignored.
    @Test func everySpecFileIsRunOrSkipped() throws {
        let directory = try #require(SpecSuite.directory)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }
        let uncovered = Set(files).subtracting(SpecSuite.testedFiles)
            .subtracting(SpecSuite.skippedFiles.keys)
        #expect(
            uncovered.isEmpty, "spec files with no test and no skip reason: \(uncovered.sorted())")
        for file in SpecSuite.testedFiles {
            #expect(!SpecSuite.cases(in: file).isEmpty, "\(file) has no cases")
        }
    }
}

// MARK: - Spec files

enum SpecSuite {
    static let testedFiles: Set<String> = [
        "comments.json", "delimiters.json", "interpolation.json", "inverted.json",
        "partials.json", "sections.json", "~inheritance.json", "~dynamic-names.json",
    ]

    /// Spec files not run, each with the reason.
    static let skippedFiles: [String: String] = [
        "~lambdas.json":
            "lambdas are code in the data; fruitsite data comes from YAML, so the engine has none"
    ]

    static let missingComment: Comment = """
        Mustache spec not found: set MUSTACHE_SPEC_DIR or put the spec in \
        ../shared/spec/mustache beside the repository root
        """

    /// `MUSTACHE_SPEC_DIR`, or `<repo root>/../shared/spec/mustache`, if it exists.
    static let directory: URL? = {
        let fromEnvironment = ProcessInfo.processInfo.environment["MUSTACHE_SPEC_DIR"]
            .map { URL(fileURLWithPath: $0) }
        // This file is <root>/Tests/MustacheTests/SpecTests.swift.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let beside = root.deletingLastPathComponent().appendingPathComponent("shared/spec/mustache")
        return [fromEnvironment, beside].compactMap { $0 }.first { url in
            FileManager.default.fileExists(atPath: url.appendingPathComponent("sections.json").path)
        }
    }()

    static func cases(in file: String) -> [SpecCase] {
        guard let directory,
            let data = try? Data(contentsOf: directory.appendingPathComponent(file)),
            let spec = try? JSONDecoder().decode(SpecFile.self, from: data)
        else { return [] }
        return spec.tests.map { test in
            SpecCase(
                file: file, name: test.name, template: test.template, data: test.data,
                partials: test.partials ?? [:], expected: test.expected)
        }
    }

    private struct SpecFile: Decodable {
        struct Test: Decodable {
            var name: String
            var template: String
            var data: MustacheValue
            var partials: [String: String]?
            var expected: String
        }
        var tests: [Test]
    }
}

/// One spec test, named by file and case so a failure says which one.
struct SpecCase: Sendable, CustomTestStringConvertible {
    var file: String
    var name: String
    var template: String
    var data: MustacheValue
    var partials: [String: String]
    var expected: String

    var testDescription: String { "\(file): \(name)" }

    func check() throws {
        let actual = try MustacheTemplate(template).render(data, partials: partials)
        let partialsText = partials.sorted { $0.key < $1.key }
            .map { "\($0.key): \($0.value.debugDescription)" }
            .joined(separator: ", ")
        #expect(
            actual == expected,
            """
            \(file): \(name)
            template: \(template.debugDescription)
            data:     \(JSONText.of(data))
            partials: [\(partialsText)]
            expected: \(expected.debugDescription)
            actual:   \(actual.debugDescription)
            """)
        // The library compiles the partials once instead of per render; it must agree.
        let library = try MustacheLibrary(
            templates: partials.merging([Self.mainName: template]) { $1 })
        #expect(
            try library.render(Self.mainName, with: data) == expected, "through MustacheLibrary")
    }

    /// A name no spec partial uses, for the test's own template in a library.
    private static let mainName = "spec test template"
}

/// Prints a value as compact JSON for failure messages.
enum JSONText {
    static func of(_ value: MustacheValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): String(bool)
        case .int(let int): String(int)
        case .double(let double): String(double)
        case .string(let string): string.debugDescription
        case .utf8(let bytes): String(decoding: bytes, as: UTF8.self).debugDescription
        case .array(let items): "[" + items.map(of).joined(separator: ", ") + "]"
        case .object(let fields):
            "{"
                + fields.sorted { $0.key < $1.key }
                .map { "\($0.key.debugDescription): \(of($0.value))" }
                .joined(separator: ", ") + "}"
        }
    }
}
