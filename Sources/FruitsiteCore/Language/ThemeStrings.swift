import Mustache

/// The theme's words in the site's language: the string table of its tag
/// (`i18n/fr-CA.yml`), else of its primary subtag (`fr.yml`), else English (`en.yml`), each
/// message the chosen table lacks taken from English; with the language's plural rules and
/// number format, which fill in counted messages.
final class ThemeStrings: Sendable {
    /// The table whose words pages show, as diagnostics name it; nil for the default theme's
    /// English, which a theme without tables shows.
    let table: String?
    /// Every message, the chosen table's over English's.
    let messages: [String: StringTable.Message]
    let plurals: PluralRules
    let numbers: NumberFormat
    /// The language's long date format, shared by every `ThemeStrings` of the language.
    let dates: DateFormat
    /// `strings`: every plain message by its key.
    let value: MustacheValue
    /// `searchStrings`: every message whose key starts with `script`, as JSON an inline script
    /// can hold, counted ones as maps of their forms, and under `numberingSystem` the digits
    /// the build writes numbers with, for `assets/search.js`.
    let searchJSON: String
    /// A hash of the language and every message.
    let hash: UInt64

    /// The words of `language` from `tables`, by tag, with a warning for each message the
    /// chosen table lacks.
    /// - Parameters:
    ///   - tables: The theme's tables by tag (`fr`, `en`), with the default theme's English
    ///     under `fallback`.
    ///   - language: The site's BCP 47 language tag.
    ///   - fallback: The default theme's English, which has every message fruitsite fills in.
    ///   - folder: The theme's `i18n` folder, as diagnostics name it.
    ///   - warnings: Where the warnings go.
    /// How many of the messages the chosen table lacks, each shown in English.
    let missingCount: Int
    /// How many messages there are.
    var messageCount: Int { messages.count }

    init(
        tables: [String: StringTable], language: String, fallback: StringTable = defaultEnglish,
        folder: String, warnings: inout [Diagnostic]
    ) {
        let tags = Dictionary(tables.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        let tag = language.lowercased()
        let primary = String(tag.prefix { $0 != "-" && $0 != "_" })
        let english = tags["en"] ?? fallback
        let chosen = tags[tag] ?? tags[primary] ?? english
        if tags[tag] == nil, tags[primary] == nil, primary != "en" {
            warnings.append(
                .warning(
                    at: SourceLocation(path: folder),
                    "the theme has no string table for '\(language)': its words are English",
                    hint: "add i18n/\(primary).yml to the theme"))
        }
        var messages = fallback.messages.merging(english.messages) { $1 }
        missingCount = messages.keys.count { chosen.messages[$0] == nil }
        for key in messages.keys.sorted() where chosen.messages[key] == nil && !tables.isEmpty {
            warnings.append(
                .warning(
                    at: SourceLocation(path: chosen.path),
                    "the string table has no '\(key)' message: the English one is shown",
                    hint: "add '\(key)' to \(chosen.path)"))
        }
        messages.merge(chosen.messages) { $1 }
        self.messages = messages
        table = tables.isEmpty ? nil : chosen.path
        plurals = PluralRules(language: language)
        numbers = NumberFormat(language: language)
        dates = DateFormat.of(language, numberingSystem: numbers.numberingSystem)
        let keys = messages.keys.sorted()
        var texts = MustacheObject()
        var json = "{"
        var hasher = StableHasher()
        hasher.combine(language)
        for key in keys {
            let message = messages[key]!
            hasher.combine(key)
            switch message {
            case .text(let text):
                texts[key] = .string(text)
                hasher.combine(text)
            case .counted(let forms):
                for (form, text) in forms.sorted(by: { $0.key < $1.key }) {
                    hasher.combine(form.rawValue)
                    hasher.combine(text)
                }
            }
            guard key.hasPrefix("script") else { continue }
            json += (json.count > 1 ? "," : "") + JSONText.quoted(key) + ":"
            switch message {
            case .text(let text): json += JSONText.quoted(text)
            case .counted(let forms):
                json +=
                    "{"
                    + forms.sorted { $0.key < $1.key }.map {
                        JSONText.quoted($0.key.rawValue) + ":" + JSONText.quoted($0.value)
                    }.joined(separator: ",") + "}"
            }
        }
        value = .object(texts)
        searchJSON =
            json + (json.count > 1 ? "," : "") + JSONText.quoted("numberingSystem") + ":"
            + JSONText.quoted(numbers.numberingSystem) + "}"
        hash = hasher.value
    }

    /// The default theme's English (`Templates/i18n/en.yml`, embedded), which has every
    /// message the default theme and fruitsite show.
    static let defaultEnglish: StringTable = {
        let path = "i18n/en.yml"
        let bytes = DefaultTheme.files.first { $0.path == path }?.bytes ?? []
        // The default theme's tests read it without errors.
        let table = try? StringTable.parse(String(decoding: bytes, as: UTF8.self), path: path).get()
        return table ?? StringTable(path: path, messages: [:])
    }()

    // MARK: - Messages

    /// The message `key`, its `{name}`s filled in from `values`; a counted message in its
    /// `other` form.
    func text(_ key: String, _ values: KeyValuePairs<String, String> = [:]) -> String {
        Self.fill(form(of: key, count: nil), values)
    }

    /// The counted message `key` in the form `count` takes, `{count}` written as the language
    /// writes numbers, its other `{name}`s filled in from `values`.
    func text(_ key: String, count: Int, _ values: KeyValuePairs<String, String> = [:])
        -> String
    {
        Self.fill(
            form(of: key, count: count), [(key: "count", value: numbers.string(count))] + values)
    }

    /// The message `key` as `text(_:_:)` makes it, as HTML for a template to write with
    /// `{{{…}}}`: the text and the values escaped as `{{…}}` escapes them, and each value named
    /// in `isolating` in a `<bdi>`, as the default theme isolates a name.
    func markup(
        _ key: String, _ values: KeyValuePairs<String, String>, isolating: Set<String>
    ) -> String {
        Self.markup(form(of: key, count: nil), Array(values), isolating: isolating)
    }

    /// The counted message `key` as `text(_:count:_:)` makes it, as HTML, as
    /// `markup(_:_:isolating:)` makes a message.
    func markup(
        _ key: String, count: Int, _ values: KeyValuePairs<String, String>,
        isolating: Set<String>
    ) -> String {
        Self.markup(
            form(of: key, count: count), [(key: "count", value: numbers.string(count))] + values,
            isolating: isolating)
    }

    private static func markup(
        _ text: String, _ values: [(key: String, value: String)], isolating: Set<String>
    ) -> String {
        let escaped = values.map { name, value in
            let value = MustacheTemplate.escaped(value)
            return (key: name, value: isolating.contains(name) ? "<bdi>\(value)</bdi>" : value)
        }
        return fill(MustacheTemplate.escaped(text), escaped)
    }

    /// The form of the message `key` that `count` takes, `other` without a count; a plain
    /// message's text.
    private func form(of key: String, count: Int?) -> String {
        switch messages[key] {
        case .text(let text): text
        case .counted(let forms):
            forms[count.map(plurals.category(of:)) ?? .other] ?? forms[.other] ?? ""
        case nil: ""
        }
    }

    /// A facet's label: the message `facet.<key>` when the table has one (`facet.vitamins:
    /// Vitamines`), else the key capitalized, hyphens as spaces (`country-of-origin` is
    /// `Country of origin`), as English writes it.
    func label(ofFacet key: String) -> String {
        if case .text(let label) = messages["facet." + key] { return label }
        // Not `replacingOccurrences`, which goes through `NSString`: every fruit page labels
        // its facets, and that cost 1.2% of a clean build's instructions.
        let words = key.split(separator: "-", omittingEmptySubsequences: false)
            .joined(separator: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// A number as the language writes it.
    func number(_ number: Int) -> String { numbers.string(number) }

    /// A date's day in UTC as the language writes it, with the digits of its numbers.
    func date(_ date: EntryDate) -> String { dates.string(date) }

    /// `text` with each `{name}` of `values` replaced by its value; other braces kept.
    ///
    /// Read byte by byte, not character by character: every fruit page's description and
    /// every listing's pager fill a message, and grapheme breaking took most of the time.
    static func fill(
        _ text: String, _ values: some Collection<(key: String, value: String)>
    ) -> String {
        let (utf8, open, close) = (text.utf8, UInt8(ascii: "{"), UInt8(ascii: "}"))
        guard var brace = utf8.firstIndex(of: open) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count + 64)
        var rest = utf8.startIndex
        while true {
            result += utf8[rest..<brace]
            let name = utf8.index(after: brace)
            if let end = utf8[name...].firstIndex(of: close),
                let value = values.first(where: { $0.key.utf8.elementsEqual(utf8[name..<end]) })
            {
                result += value.value.utf8
                rest = utf8.index(after: end)
            } else {
                result.append(open)
                rest = name
            }
            guard let next = utf8[rest...].firstIndex(of: open) else { break }
            brace = next
        }
        result += utf8[rest...]
        return String(decoding: result, as: UTF8.self)
    }

}
