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

    /// Each character at each place of the first words and the tail, since strings are
    /// scanned eight bytes at a time; escaped as one character at a time would.
    @Test(arguments: [
        "\"", "\\", "\n", "\r", "\t", "<", ">", "&", "\u{2028}", "\u{2029}", "\u{1}", "\u{1F}",
        "\u{7F}", " ", "’", "€", "é", "🍓", "\u{2027}", "\u{202A}",
    ])
    func escapesEachCharacterWherever(_ character: String) {
        for position in 0..<20 {
            let text =
                String(repeating: "a", count: position) + character
                + String(repeating: "b", count: 19 - position)
            #expect(JSONText.quoted(text) == "\"\(Self.escaped(text))\"", "at \(position)")
        }
        let crowded = String(repeating: character + "x" + character, count: 9)
        #expect(JSONText.quoted(crowded) == "\"\(Self.escaped(crowded))\"")
    }

    /// What `JSONText` writes, one character at a time.
    private static func escaped(_ text: String) -> String {
        text.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\"": #"\""#
            case "\\": #"\\"#
            case "\n": #"\n"#
            case "\r": #"\r"#
            case "\t": #"\t"#
            case "<": #"\u003c"#
            case ">": #"\u003e"#
            case "&": #"\u0026"#
            case "\u{2028}": #"\u2028"#
            case "\u{2029}": #"\u2029"#
            case _ where scalar.value < 0x20: String(format: #"\u%04x"#, scalar.value)
            default: String(scalar)
            }
        }.joined()
    }

    @Test func escapesAsDocumented() {
        #expect(
            JSONText.quoted("<a>&\u{2028}\u{2029}\u{1}\"\\")
                == #""\u003ca\u003e\u0026\u2028\u2029\u0001\"\\""#)
    }
}
