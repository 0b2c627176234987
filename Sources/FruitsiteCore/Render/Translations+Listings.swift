/// Which page of a category or of a facet's value is the same page in another language.
///
/// A category's name is translated with its entries, so its page has another address in each
/// language (`categories/citrus/`, `fr/categories/agrumes/`). Two such pages are the same when
/// they list the same entries: the French page of a category lists exactly the French
/// translations of the English category's entries, and no other translated entry. A listing
/// whose entries are translated into several of a language's listings, or that shares its
/// entries with another listing (two facet values on the same fruits), has no counterpart
/// there: its switcher then leads to that language's home page.
extension Translations {
    /// The listings of each language (its categories' and facet values' first pages) that are
    /// the same page in other languages: for each, the address of that page in every
    /// language, empty where a language has none.
    /// - Parameters:
    ///   - parts: Each language's model, the default language's first.
    ///   - keys: Their entries' translation keys.
    static func listingCounterparts(of parts: [SiteModel], keys: Keys) -> [[String: [String]]] {
        var counterparts = [[String: [String]]](repeating: [:], count: parts.count)
        // Each default listing's address in every language, matched through the default
        // language, which every translation translates.
        var byDefault: [String: [String]] = [:]
        for language in parts.indices.dropFirst() {
            // The keys the language has an entry of its own for, and those of them that
            // translate a default entry.
            let own = keys.presence.map { $0.has(language) && !$0.isFallback(language) }
            let defaults = Self.bySignature(parts[0], keys: keys.byPosition[0]) { own[$0] }
            let translations = Self.bySignature(parts[language], keys: keys.byPosition[language]) {
                own[$0] && keys.presence[$0].has(0)
            }
            for (signature, original) in defaults {
                guard let original, let translation = translations[signature] ?? nil else {
                    continue
                }
                byDefault[original, default: Array(repeating: "", count: parts.count)][
                    language] = translation
            }
        }
        for (original, var addresses) in byDefault {
            addresses[0] = original
            for language in addresses.indices where !addresses[language].isEmpty {
                counterparts[language][addresses[language]] = addresses
            }
        }
        return counterparts
    }

    /// What tells listings apart: the folder (a category matches a category, a facet's value
    /// a value of the same facet) and the keys of the entries listed, summed as hashes so
    /// that they need no sorting.
    private struct Signature: Hashable {
        var folder: String
        var count = 0
        var sum: UInt64 = 0
    }

    /// The address of each listing of `model` by its signature, counting the entries whose
    /// key's number (in `keys`, by catalog position) `counts`. Nil for a signature two
    /// listings share, and no listing with none of those entries.
    private static func bySignature(
        _ model: SiteModel, keys: [Int], counting counts: (Int) -> Bool
    ) -> [Signature: String?] {
        var addresses: [Signature: String?] = [:]
        let listings =
            [("categories", model.categories)] + zip(model.settings.facets, model.facets)
        for (folder, groups) in listings {
            for group in groups {
                var signature = Signature(folder: folder)
                for position in group.positions where counts(keys[position.rawValue]) {
                    signature.count += 1
                    signature.sum &+= mixed(UInt64(keys[position.rawValue]))
                }
                guard signature.count > 0 else { continue }
                let address = "\(folder)/\(group.slug)/"
                addresses[signature] = addresses[signature] == nil ? address : .some(nil)
            }
        }
        return addresses
    }

    /// A key's number with its bits spread over all 64 (SplitMix64's finalizer), so that the
    /// sums of two different sets of keys differ.
    private static func mixed(_ number: UInt64) -> UInt64 {
        var bits = number &+ 0x9E37_79B9_7F4A_7C15
        bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
        bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
        return bits ^ (bits >> 31)
    }
}
