/// Text with position markers (`1️⃣`, `2️⃣`, …) that are removed and turned into 1-based line
/// and column positions, so a test points at where an error belongs instead of stating numbers.
/// A line ends at any line break, `\r\n` included.
public struct MarkedText {
    /// What a column counts: editors and the Mustache engine count `Character`s; libyaml
    /// counts Unicode scalars.
    public enum ColumnUnit: Sendable {
        case characters
        case unicodeScalars
    }

    /// A marker's place.
    public struct Position: Sendable, Hashable {
        public var line: Int
        public var column: Int
    }

    public static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣"]

    /// The text without its markers.
    public private(set) var text = ""
    public private(set) var positions: [String: Position] = [:]

    /// Removes the markers from `marked` and records where each stood.
    public init(_ marked: String, columns: ColumnUnit = .characters) {
        var line = 1
        var column = 1
        for character in marked {
            let marker = String(character)
            if Self.markers.contains(marker) {
                positions[marker] = Position(line: line, column: column)
                continue
            }
            text.append(character)
            if character.isNewline {
                line += 1
                column = 1
            } else {
                column += columns == .characters ? 1 : character.unicodeScalars.count
            }
        }
    }

    /// The position of a marker, or line and column -1 (which no error has) if it is missing.
    public subscript(marker: String) -> Position {
        positions[marker] ?? Position(line: -1, column: -1)
    }

    /// The first marker's line, or 0 when the text has none.
    public var line: Int { positions["1️⃣"]?.line ?? 0 }
    /// The first marker's column, or 0 when the text has none.
    public var column: Int { positions["1️⃣"]?.column ?? 0 }
}
