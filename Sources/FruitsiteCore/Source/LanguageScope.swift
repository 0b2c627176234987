/// Which content files the model of one of the site's languages takes, and where its pages
/// go: every language of a site in several has a model of its own (`SiteBuilder`), built from
/// the files whose names end in its code (`apple.fr.md`), the default language's from those
/// with none.
///
/// A site in one language has the empty scope: every file is its, at the root.
struct LanguageScope: Sendable, Equatable {
    /// The language's code as file names end in it, lowercased; empty in a site of one
    /// language.
    var code = ""
    /// The folder of the language's pages below the site root (`fr/`), or empty.
    var prefix = ""
    /// Whether this is the default language, which takes the files with no code.
    var isDefault = true
    /// Whether the language shows the default language's entry where it has no translation.
    var takesFallbacks = false
    /// Every language's code, lowercased, in the config's order: a file with another code is
    /// the default language's to report.
    var codes: [String] = []

    /// The scope of `language`, one of the languages of a site in several.
    init(_ language: SiteLanguage, isDefault: Bool, codes: [String]) {
        code = language.code.lowercased()
        prefix = language.prefix
        self.isDefault = isDefault
        takesFallbacks = language.fallback == .default
        self.codes = codes
    }

    /// The scope of a site in one language.
    init() {}

    /// Whether the site has several languages.
    var isPartial: Bool { !code.isEmpty }

    /// The entry files of this language among `paths`, every `.md` file of the content: its
    /// own, and where it takes fallbacks, the default language's whose translation key
    /// (`SourceFile.translationKey(of:)`) it has no file for, or that are in `keeping`, the
    /// files of the fallbacks its model has (which a draft translation leaves in place). The
    /// scan settles the rest once the files are parsed (`ContentScanner.settleFallbacks`).
    func files(among paths: [String], keeping: Set<String> = []) -> [String] {
        guard isPartial else { return paths }
        var own: [String] = []
        var others: [String] = []
        for path in paths {
            if owns(path) { own.append(path) } else { others.append(path) }
        }
        guard takesFallbacks else { return own }
        let keys = Set(own.map { SourceFile.translationKey(of: $0) })
        return own
            + others.filter {
                isDefaultFile($0)
                    && (!keys.contains(SourceFile.translationKey(of: $0)) || keeping.contains($0))
            }
    }

    /// Whether the file at `path` is one of the default language's entries, which a
    /// language that takes fallbacks may show: named with no language's code.
    func isDefaultFile(_ path: String) -> Bool { SourceFile.language(of: path) == nil }

    /// Whether the file at `path` is this language's own (not a fallback).
    ///
    /// Read from the path's bytes: each language's scope asks it of every file, and making
    /// each file's code a lowercased string had cost about 1,000 instructions a file.
    func owns(_ path: String) -> Bool {
        guard isPartial else { return true }
        var path = path
        return path.withUTF8 { bytes in
            guard let range = SourceFile.languageRange(in: bytes) else { return isDefault }
            let tag = UnsafeBufferPointer(rebasing: bytes[range])
            return Self.names(code, tag) || (isDefault && !codes.contains { Self.names($0, tag) })
        }
    }

    /// Whether a file name's `tag` is the lowercased `code`, in any case: a tag's bytes are
    /// ASCII letters, digits and hyphens (`LanguageTag`).
    private static func names(_ code: String, _ tag: UnsafeBufferPointer<UInt8>) -> Bool {
        code.utf8.elementsEqual(tag) { lowercase, byte in
            lowercase == ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
        }
    }

    /// Whether the entry at `path` is shown in place of a missing translation.
    func isFallback(_ path: String) -> Bool { !owns(path) }

    /// The words the saved model records the scope in (`init(descriptor:)` reads them).
    var descriptor: String {
        guard isPartial else { return "" }
        let fields = [
            code, prefix, isDefault ? "1" : "0", takesFallbacks ? "1" : "0",
            codes.joined(separator: ","),
        ]
        return fields.joined(separator: " ")
    }

    /// The scope a saved model recorded (`descriptor`); nil when the words are damaged.
    init?(descriptor: String) {
        self.init()
        guard !descriptor.isEmpty else { return }
        let fields = descriptor.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 5 else { return nil }
        code = String(fields[0])
        prefix = String(fields[1])
        isDefault = fields[2] == "1"
        takesFallbacks = fields[3] == "1"
        codes = fields[4].split(separator: ",").map(String.init)
    }
}
