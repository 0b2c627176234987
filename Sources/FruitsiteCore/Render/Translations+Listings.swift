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
    /// - Parameter parts: Each language's model, the default language's first.
    static func listingCounterparts(of parts: [SiteModel]) -> [[String: [String]]] {
        var counterparts = [[String: [String]]](repeating: [:], count: parts.count)
        // Each language's entries' keys, by catalog position.
        let keys = parts.map { model in
            model.order.map { model[$0].translationKey }
        }
        let defaultKeys = Set(keys[0])
        // Each default listing's address in every language, matched through the default
        // language, which every translation translates.
        var byDefault: [String: [String]] = [:]
        for language in parts.indices.dropFirst() {
            let model = parts[language]
            let scope = model.settings.scope
            var own: Set<Substring> = []
            for (id, key) in zip(model.order, keys[language]) where scope.owns(model[id].path) {
                own.insert(key)
            }
            let defaults = Self.bySignature(parts[0], keys: keys[0]) { own.contains($0) }
            let translations = Self.bySignature(model, keys: keys[language]) {
                defaultKeys.contains($0) && own.contains($0)
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
    /// key (in `keys`, by catalog position) `counts`. Nil for a signature two listings
    /// share, and no listing with none of those entries.
    private static func bySignature(
        _ model: SiteModel, keys: [Substring], counting counts: (Substring) -> Bool
    ) -> [Signature: String?] {
        var addresses: [Signature: String?] = [:]
        let listings =
            [("categories", model.categories)] + zip(model.settings.facets, model.facets)
        for (folder, groups) in listings {
            for group in groups {
                var signature = Signature(folder: folder)
                for position in group.positions where counts(keys[position.rawValue]) {
                    signature.count += 1
                    signature.sum &+= UInt64(bitPattern: Int64(keys[position.rawValue].hashValue))
                }
                guard signature.count > 0 else { continue }
                let address = "\(folder)/\(group.slug)/"
                addresses[signature] = addresses[signature] == nil ? address : .some(nil)
            }
        }
        return addresses
    }
}
