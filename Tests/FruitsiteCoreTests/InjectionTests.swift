import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// Every payload of `Tests/Fixtures/xss-payloads.txt`, in every front-matter field and the body,
/// must come out inert in every generated file.
@Suite struct InjectionTests {
    static let payloads: [String] = {
        let path = repositoryRoot + "/Tests/Fixtures/xss-payloads.txt"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }()

    /// A YAML double-quoted string holding `text` exactly.
    static func quoted(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\"")
            + "\""
    }

    @Test func payloadsAreLoaded() { #expect(Self.payloads.count >= 10) }

    @Test func everyFieldIsEscapedEverywhere() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        for (index, payload) in Self.payloads.enumerated() {
            try temporary.write(
                "Content/entry-\(index).md",
                """
                ---
                name: \(Self.quoted("N\(index) " + payload))
                category: \(Self.quoted("C\(index) " + payload))
                emoji: \(Self.quoted(payload))
                vitamins: [\(Self.quoted("V\(index) " + payload))]
                origin: \(Self.quoted(payload))
                tagline: \(Self.quoted(payload))
                season: \(Self.quoted(payload))
                date: 2024-05-\(String(format: "%02d", index % 28 + 1))
                ---
                \(payload)

                [link](\(payload)) ![image](\(payload))

                """)
        }
        // With a base URL and dates, so that the feeds list every entry too.
        try temporary.write("fruitsite.yml", "baseURL: https://example.org/\nfeed: {limit: 1000}\n")
        var options = BuildOptions()
        options.contentDirectory = temporary.path + "/Content"
        options.templatesDirectory = repositoryRoot + "/Templates"
        options.outputDirectory = temporary.path + "/Output"
        options.configPath = temporary.path + "/fruitsite.yml"
        let rendering = try SiteBuilder(options: options).build()
        #expect(rendering.fruitCount == Self.payloads.count)
        #expect(FileManager.default.fileExists(atPath: temporary.path + "/Output/feed.xml"))

        let output = temporary.path + "/Output"
        for file in filesBelow(output) where !file.hasPrefix("assets/") {
            let text = try String(contentsOfFile: output + "/" + file, encoding: .utf8)
            let lowered = text.lowercased()
            #expect(!lowered.contains("alert(1)</script>"), "\(file): a payload script survived")
            #expect(!lowered.contains("<img src=x"), "\(file): a payload tag survived")
            #expect(!lowered.contains("<svg"), "\(file): a payload tag survived")
            #expect(!lowered.contains("<iframe"), "\(file): a payload tag survived")
            #expect(!lowered.contains("<style>*"), "\(file): a payload tag survived")
            #expect(!lowered.contains("href=\"javascript:"), "\(file): a javascript: link survived")
            #expect(
                !lowered.contains("src=\"javascript:"), "\(file): a javascript: source survived")
            if file.hasSuffix(".html") {
                // Outside JSON-LD, where a quote is the JSON escape `\"`, not markup.
                let markup = text.components(separatedBy: #"<script type="application/ld+json">"#)
                    .enumerated().map { index, part in
                        index == 0
                            ? part
                            : part.components(separatedBy: "</script>").dropFirst()
                                .joined(separator: "</script>")
                    }.joined()
                #expect(
                    !markup.contains("\" autofocus"), "\(file): an attribute was broken out of")
                // JSON-LD holds the payloads as JSON strings, inside one script element.
                for block in try StructuredDataTests.structuredData(in: text) {
                    #expect(!block.isEmpty, "\(file): JSON-LD that is not an object")
                }
            }
            if file.hasSuffix(".json") || file.hasSuffix(".xml") {
                #expect(!text.contains("<script"), "\(file)")
            }
            if file.hasSuffix(".json") {
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil,
                    "\(file) is not JSON")
            }
        }
        // The index still lists every entry's name, escaped.
        let index = try temporary.read("Output/index.html")
        #expect(index.contains("N0 &lt;script&gt;alert(1)&lt;/script&gt;"))
        // A name that closes the script element stays a name inside it.
        let page = try temporary.read("Output/fruits/entry-1/index.html")
        let trail = try StructuredDataTests.objects(
            #require(StructuredDataTests.structuredData(in: page).first))
        #expect(
            StructuredDataTests.items(trail[0]).last?["name"] as? String
                == "N1 " + Self.payloads[1])
        // Each feed gives every name back whole, as XML text and as a JSON string.
        let atom = try FeedTests.parseXML(temporary.read("Output/feed.xml"))
        let atomNames = try FeedTests.checkAtom(atom).map { try $0.one("title").text }
        let names = Self.payloads.indices.map { "N\($0) " + Self.payloads[$0] }
        #expect(Set(atomNames) == Set(names))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(temporary.read("Output/feed.json").utf8))
                as? [String: Any])
        let jsonNames = (json["items"] as? [[String: Any]] ?? []).compactMap {
            $0["title"] as? String
        }
        #expect(Set(jsonNames) == Set(names))
        // Data is text, never a template: Mustache tags in it come out as they were written.
        #expect(index.contains("N8 {{site.title}}{{{fruit.body}}}"))
    }
}
