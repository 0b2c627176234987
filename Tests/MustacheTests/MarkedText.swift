import Mustache
import TestSupport

extension MarkedText.Position {
    /// The same place as the engine reports it.
    var mustache: MustacheError.Position { MustacheError.Position(line: line, column: column) }
}
