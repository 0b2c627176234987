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

    @Test(arguments: [0, 7, 9, 10, 99, 100, 12_345, 1_000_000, -1, -10, -987, .max, .min])
    func writesNumbersInDecimal(_ number: Int) {
        var json = Array("x".utf8)
        JSONText.append(number, to: &json)
        #expect(String(decoding: json, as: UTF8.self) == "x\(number)")
    }

    @Test func escapesAsDocumented() {
        #expect(
            JSONText.quoted("<a>&\u{2028}\u{2029}\u{1}\"\\")
                == #""\u003ca\u003e\u0026\u2028\u2029\u0001\"\\""#)
    }
}
