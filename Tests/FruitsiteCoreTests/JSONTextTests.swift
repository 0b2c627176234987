import Foundation
import Testing

@testable import FruitsiteCore

/// The search index's strings: valid JSON that reads back as written, and safe inside HTML.
@Suite struct JSONTextTests {
    @Test(arguments: [
        "plain", "quote \" backslash \\", "line\nfeed\r\ttab", "<script>&</script>",
        "\u{2028}\u{2029}", "\u{01}\u{1F}\u{7F}", "Açaí 果物 🍓", "€ ≠ … \u{E2}", "",
    ])
    func readsBackAsWritten(_ text: String) throws {
        let json = JSONText.quoted(text)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8)) as? [String]
        #expect(decoded == [text])
        for unsafe in ["<", ">", "&", "\u{2028}", "\u{2029}", "\n"] {
            #expect(!json.contains(unsafe), "\(json) holds \(unsafe.debugDescription)")
        }
    }

    @Test func escapesAsDocumented() {
        #expect(
            JSONText.quoted("<a>&\u{2028}\u{2029}\u{1}\"\\")
                == #""\u003ca\u003e\u0026\u2028\u2029\u0001\"\\""#)
    }
}
