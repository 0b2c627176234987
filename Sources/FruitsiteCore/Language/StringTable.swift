/// One language's words for a theme, `i18n/<tag>.yml`: each message key with its text, or for
/// a counted message its text in each plural category it has (`{count}` standing for the
/// number).
///
///     searchLabel: Search fruits
///     fruits:
///       one: "{count} fruit"
///       other: "{count} fruits"
struct StringTable: Sendable, Equatable {
    /// A message's text: plain, or one for each plural category, `other` always among them.
    enum Message: Sendable, Equatable {
        case text(String)
        case counted([PluralCategory: String])
    }

    /// The table's file, as diagnostics name it.
    var path: String
    var messages: [String: Message]

    /// Reads a table from its YAML text.
    /// - Parameters:
    ///   - text: The file's text.
    ///   - path: The file, as diagnostics name it.
    /// - Returns: The table, or the errors that make it unusable, each at its line:column.
    static func parse(_ text: String, path: String) -> Result<StringTable, BuildFailure> {
        func error(at node: YAMLNode, _ message: String) -> Diagnostic {
            .error(at: SourceLocation(path: path, line: node.line, column: node.column), message)
        }
        let root: YAMLNode?
        do {
            root = try YAMLParser().parse(text)
        } catch {
            return .failure(
                BuildFailure([
                    .error(
                        at: SourceLocation(path: path, line: error.line, column: error.column),
                        "invalid YAML: \(error.message)")
                ]))
        }
        guard let root, !root.isNull else {
            return .success(StringTable(path: path, messages: [:]))
        }
        guard case .mapping(let pairs) = root.kind else {
            return .failure(
                BuildFailure([error(at: root, "a string table is a map of message keys to texts")]))
        }
        var diagnostics: [Diagnostic] = root.repeatedKeys.map { repeated in
            .error(
                at: SourceLocation(
                    path: path, line: repeated.key.line, column: repeated.key.column),
                "the message '\(repeated.key.scalarText ?? "")' is given twice",
                hint: "the first is at line \(repeated.first.line)")
        }
        var messages: [String: Message] = [:]
        for (key, value) in pairs {
            guard let name = key.scalarText else {
                diagnostics.append(error(at: key, "a message key is a plain name"))
                continue
            }
            switch value.kind {
            case .scalar(let text, _):
                messages[name] = .text(text)
            case .sequence:
                diagnostics.append(
                    error(
                        at: value,
                        "the message '\(name)' is a list, not a text or a map of plural forms"))
            case .mapping(let forms):
                switch counted(name, forms, at: value, path: path) {
                case .success(let message): messages[name] = message
                case .failure(let failure): diagnostics += failure.diagnostics
                }
            }
        }
        if !diagnostics.isEmpty { return .failure(BuildFailure(diagnostics)) }
        return .success(StringTable(path: path, messages: messages))
    }

    /// A counted message from its map of plural forms.
    private static func counted(
        _ name: String, _ forms: [(key: YAMLNode, value: YAMLNode)], at node: YAMLNode,
        path: String
    ) -> Result<Message, BuildFailure> {
        var texts: [PluralCategory: String] = [:]
        var diagnostics: [Diagnostic] = []
        for (key, value) in forms {
            let location = SourceLocation(path: path, line: key.line, column: key.column)
            guard let form = key.scalarText.flatMap(PluralCategory.init(rawValue:)) else {
                let names = PluralCategory.allCases.map(\.rawValue)
                diagnostics.append(
                    .error(
                        at: location,
                        "'\(key.scalarText ?? "")' is not a plural category of the message "
                            + "'\(name)'",
                        hint: "CLDR's categories are " + names.joined(separator: ", ")))
                continue
            }
            guard let text = value.scalarText else {
                diagnostics.append(
                    .error(
                        at: SourceLocation(path: path, line: value.line, column: value.column),
                        "the '\(form.rawValue)' form of '\(name)' is not a text"))
                continue
            }
            texts[form] = text
        }
        if diagnostics.isEmpty, texts[.other] == nil {
            diagnostics.append(
                .error(
                    at: SourceLocation(path: path, line: node.line, column: node.column),
                    "the counted message '\(name)' has no 'other' form",
                    hint: "every language uses 'other' for some numbers"))
        }
        return diagnostics.isEmpty ? .success(.counted(texts)) : .failure(BuildFailure(diagnostics))
    }
}
