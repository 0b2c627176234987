import _FoundationICU

/// ICU's locale ID for a BCP 47 language tag (`zh-Hant-TW` is `zh_Hant_TW`, `und` the root's
/// empty one), which ICU's services open; nil when ICU cannot read the tag.
///
/// fruitsite uses the ICU that Foundation links in (`_FoundationICU`, whose functions carry a
/// `swift_` prefix): it costs a build nothing to load, and its CLDR data is the toolchain's.
func icuLocale(of language: String) -> String? {
    var status = U_ZERO_ERROR
    var locale = [CChar](repeating: 0, count: 160)
    let length = swift_uloc_forLanguageTag(language, &locale, Int32(locale.count), nil, &status)
    // "und" (no language) is the empty ID, the root.
    guard status.rawValue <= U_ZERO_ERROR.rawValue, length >= 0, length < locale.count else {
        return nil
    }
    return String(decoding: locale[..<Int(length)].map(UInt8.init), as: UTF8.self)
}

/// Whether the language of a BCP 47 tag (its first subtag) is one of ISO 639's that ICU
/// knows: `fr-CA` and `zh-Hant` are, `xx` and `frr-XX` are not unless their language is.
func isKnownLanguage(_ tag: String) -> Bool {
    guard let first = tag.split(separator: "-").first?.lowercased() else { return false }
    return knownLanguages.contains(first)
}

/// ISO 639's two- and three-letter codes as ICU lists them, read once.
private let knownLanguages: Set<String> = {
    var codes: Set<String> = []
    guard var next = swift_uloc_getISOLanguages() else { return codes }
    while let code = next.pointee {
        codes.insert(String(cString: code))
        next += 1
    }
    return codes
}()

/// The language `tag` names, in that language, as CLDR writes it ("English", "français",
/// "العربية"); nil when ICU has no name for it.
func icuDisplayName(of tag: String) -> String? {
    guard let locale = icuLocale(of: tag) else { return nil }
    var status = U_ZERO_ERROR
    var name = [UChar](repeating: 0, count: 160)
    let length = swift_uloc_getDisplayName(locale, locale, &name, Int32(name.count), &status)
    guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0, length < name.count else {
        return nil
    }
    return String(decoding: name[..<Int(length)], as: UTF16.self)
}
