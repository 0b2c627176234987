/// Text made safe inside HTML or XML, in element content and in quoted attribute values:
/// the sitemap's addresses, and the errors `serve` shows over a page.
public enum MarkupText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references.
    public static func escaped(_ text: String) -> String {
        guard
            text.utf8.contains(where: {
                $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27
            })
        else {
            return text
        }
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
