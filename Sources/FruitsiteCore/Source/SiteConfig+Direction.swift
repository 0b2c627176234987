/// The pages' text direction, from the config's `language`.
extension SiteConfig {
    /// The direction `language` is written in, every page's `dir`: `rtl` for a script written
    /// right to left (a subtag such as `Arab` or `Hebr`), or with none, for a language
    /// usually written in one (`ar`, `he`, `fa`, `ur` …); else `ltr`.
    public var direction: String { Self.direction(of: language) }

    /// The direction the language `language` is written in (see `direction`).
    static func direction(of language: String) -> String {
        let subtags = language.lowercased().split(separator: "-")
        if let script = subtags.dropFirst().first(where: {
            $0.count == 4 && $0.allSatisfy(\.isLetter)
        }) {
            return Self.rightToLeftScripts.contains(String(script)) ? "rtl" : "ltr"
        }
        return subtags.first.map { Self.rightToLeftLanguages.contains(String($0)) } == true
            ? "rtl" : "ltr"
    }

    /// ISO 15924 codes of the scripts written right to left that Unicode encodes, as CLDR
    /// lists them.
    private static let rightToLeftScripts: Set<String> = [
        "adlm", "arab", "aran", "armi", "avst", "cprt", "egyp", "elym", "hatr", "hebr", "hung",
        "khar", "lydi", "mand", "mani", "mend", "merc", "mero", "narb", "nbat", "nkoo", "orkh",
        "ougr", "palm", "phli", "phlp", "phnx", "prti", "rohg", "samr", "sarb", "sogd", "sogo",
        "syrc", "thaa", "yezi",
    ]

    /// Languages whose usual script is written right to left (CLDR's likely scripts).
    private static let rightToLeftLanguages: Set<String> = [
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "khw", "ks", "lrc", "mzn", "nqo", "ps",
        "sd", "syr", "ug", "ur", "yi",
    ]
}
