import Foundation

/// A page of the documentation as the documentation tests read it: its sections, and in each
/// the rows of its tables, by the code spans of their first cell (what a row documents) and
/// the anchors on the same page that the row links to. Fenced code blocks are passed over.
public struct MarkdownTables: Sendable {
    /// One table row: `| `fruit.name`, `fruit.slug` | … [summary](#a-fruit-in-a-list) |`.
    public struct Row: Sendable {
        /// The code spans of the first cell, as written.
        public var names: [String]
        /// The in-page anchors the row links to, without their `#`.
        public var anchors: [String]
    }

    /// The text under one heading, up to the next heading of any level.
    public struct Section: Sendable {
        /// The heading's text with its code spans' backticks dropped; empty before the first.
        public var heading: String
        public var rows: [Row]
    }

    public var sections: [Section] = [Section(heading: "", rows: [])]

    /// Every row of every section.
    public var rows: [Row] { sections.flatMap(\.rows) }

    /// Reads the page at `path`.
    /// - Throws: The error of reading the file.
    public init(path: String) throws {
        var isInFence = false
        for line in try String(contentsOfFile: path, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                isInFence.toggle()
            } else if isInFence {
                continue
            } else if let heading = line.wholeMatch(of: /#{1,6} +(.*?) *#* */) {
                sections.append(
                    Section(heading: heading.1.replacingOccurrences(of: "`", with: ""), rows: []))
            } else if trimmed.hasPrefix("|") {
                sections[sections.count - 1].rows.append(Self.row(trimmed.dropFirst()))
            }
        }
    }

    /// The row whose first cell ends at the first `|` outside a code span.
    private static func row(_ text: Substring) -> Row {
        var isInCode = false
        var end = text.endIndex
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            if character == "`" { isInCode.toggle() }
            if character == "|", !isInCode, previous != "\\" {
                end = index
                break
            }
            previous = character
        }
        let names = text[..<end].matches(of: /`([^`]+)`/).map { String($0.1) }
        let anchors = text.matches(of: /\]\(#([^)\s]+)\)/).map { String($0.1) }
        return Row(names: names, anchors: anchors)
    }
}
