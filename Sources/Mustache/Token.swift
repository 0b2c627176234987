/// One piece of a template as the tokenizer found it: a run of text or a tag.
///
/// Text tokens never span lines (each ends at a line break), so each line of the template
/// is a run of whole tokens and standalone detection can work line by line.
struct Token {
    enum Kind: Equatable {
        case text
        case variable
        case unescapedVariable
        case section
        case invertedSection
        case closing
        case comment
        case partial
        case parent
        case block
        case setDelimiters

        /// Tags that render nothing where they stand and so may sit alone on a line.
        var canBeStandalone: Bool {
            switch self {
            case .text, .variable, .unescapedVariable: false
            default: true
            }
        }

        /// Tags that open a section closed later by a `{{/name}}` tag.
        var opensSection: Bool {
            switch self {
            case .section, .invertedSection, .parent, .block: true
            default: false
            }
        }
    }

    var kind: Kind
    /// The bytes of the token: the text, or the tag from its opening to its closing delimiter.
    var range: Range<Int>
    /// The tag's content without padding (`{{# items }}` holds `items`); empty for text.
    var content: String = ""

    // MARK: Standalone results

    /// A text token that standalone handling or dedenting emptied.
    var isRemoved = false
    /// A tag alone on its line, or in a run of parent and block tags alone on their line.
    var isStandalone = false
}
