import Mustache

/// Template text with position markers (`1️⃣`, `2️⃣`, …) that are removed from the text and
/// turned into 1-based line and `Character` column positions, so a test shows where an
/// error is expected instead of stating numbers.
struct MarkedText {
    static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣"]

    var text = ""
    var positions: [String: MustacheError.Position] = [:]

    init(_ marked: String) {
        var line = 1
        var column = 1
        for character in marked {
            let marker = String(character)
            if Self.markers.contains(marker) {
                positions[marker] = MustacheError.Position(line: line, column: column)
                continue
            }
            text.append(character)
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
    }

    /// The position of a marker, or line and column -1 (which no error has) if it is missing.
    subscript(marker: String) -> MustacheError.Position {
        positions[marker] ?? MustacheError.Position(line: -1, column: -1)
    }
}
