import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// Parses `text` as `Content/<slug>.md`.
func parse(_ text: String, slug: String = "apple", parser: FruitParser = FruitParser())
    -> FruitParser.Result
{
    parser.parse(SourceFile(path: "Content/\(slug).md", bytes: Array(text.utf8)))
}
