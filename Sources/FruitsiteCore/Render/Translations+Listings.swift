/// Which page of a category or of a facet's value is the same page in another language.
///
/// A category's name is translated with its entries, so its page has another address in each
/// language (`categories/citrus/`, `fr/categories/agrumes/`). Two such pages are the same when
/// they list the same entries: the French page of a category lists exactly the French
/// translations of the English category's entries, and no other translated entry. A listing
/// whose entries are translated into several of a language's listings, or that shares its
/// entries with another listing (two facet values on the same fruits), has no counterpart
/// there: its switcher then leads to that language's home page, as before.
extension Translations {
    /// The listings of each language (its categories' and facet values' first pages) that are
    /// the same page in other languages: for each, the address of that page in every
    /// language, empty where a language has none.
    /// - Parameter parts: Each language's model, the default language's first.
    static func listingCounterparts(of parts: [SiteModel]) -> [[String: [String]]] {
        var counterparts = [[String: [String]]](repeating: [:], count: parts.count)
        let defaultKeys = Set(parts[0].order.map { SourceFile.slug(of: parts[0][$0].path) })
        // Each default listing's address in every language, matched through the default
        // language, which every translation translates.
        var byDefault: [String: [String]] = [:]
        for language in parts.indices.dropFirst() {
            let model = parts[language]
            let scope = model.settings.scope
            var own: Set<Substring> = []
            for id in model.order where scope.owns(model[id].path) {
                own.insert(SourceFile.slug(of: model[id].path))
            }
            let defaults = Self.bySignature(parts[0]) { own.contains($0) }
            let translations = Self.bySignature(model) {
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

    /// The address of each listing of `model` by its folder and the entries it lists, those
    /// whose key `counts`: the sorted keys, joined. Nil for a signature two listings share,
    /// and no listing with none of those entries.
    private static func bySignature(
        _ model: SiteModel, counting counts: (Substring) -> Bool
    ) -> [String: String?] {
        var addresses: [String: String?] = [:]
        let listings =
            [("categories", model.categories)] + zip(model.settings.facets, model.facets)
        for (folder, groups) in listings {
            for group in groups {
                let keys = group.positions.map { SourceFile.slug(of: model[position: $0].path) }
                    .filter(counts)
                guard !keys.isEmpty else { continue }
                // A category matches a category, a facet's value a value of the same facet.
                let signature = folder + "\n" + keys.sorted().joined(separator: "/")
                let address = "\(folder)/\(group.slug)/"
                addresses[signature] = addresses[signature] == nil ? address : .some(nil)
            }
        }
        return addresses
    }
}
