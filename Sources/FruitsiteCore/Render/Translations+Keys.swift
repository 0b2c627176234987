extension Translations {
    /// Every language's fruits by translation key (`SiteModel.Entry.translationKey`), each key
    /// numbered: what a fruit's presence and a listing's counterparts are matched by. Each
    /// entry's key is read from its path once, and each key's presence made once, where
    /// looking up every fruit's key in every language for each page cost more than the pages'
    /// switchers.
    struct Keys {
        /// For each language, the number of the key of the fruit at each catalog position.
        private(set) var byPosition: [[Int]] = []
        /// Each key's presence: the languages that list it, those of them that show the
        /// default language's entry in place of a missing translation, and its address in
        /// each where its slugs differ.
        private(set) var presence: [Presence] = []

        /// The keys of `models`, each language's, the default language's first.
        init(_ models: [SiteModel]) {
            var numbers: [Substring: Int] = [:]
            numbers.reserveCapacity(models.first?.order.count ?? 0)
            // Each key's slug in each language, a row of `models.count` for each key.
            var slugs: [Substring?] = []
            for (language, model) in models.enumerated() {
                let scope = model.settings.scope
                var keys: [Int] = []
                keys.reserveCapacity(model.order.count)
                for id in model.order {
                    let (path, slug) = (model[id].path, model[id].slug)
                    let key = model[id].namedKey.map { Substring($0) } ?? slug
                    let number = numbers[key] ?? presence.count
                    if number == presence.count {
                        numbers[key] = number
                        presence.append(Presence())
                        slugs += repeatElement(nil, count: models.count)
                    }
                    presence[number].has |= 1 << language
                    if scope.takesFallbacks && scope.isFallback(path) {
                        presence[number].fallbacks |= 1 << language
                    }
                    slugs[number * models.count + language] = slug
                    keys.append(number)
                }
                byPosition.append(keys)
            }
            // A fruit whose slugs differ is at another address in each language.
            for number in presence.indices {
                let row = slugs[number * models.count..<(number + 1) * models.count]
                guard let first = row.lazy.compactMap({ $0 }).first,
                    row.contains(where: { $0 != nil && $0 != first })
                else { continue }
                presence[number].addresses = row.map { $0.map { "fruits/\($0)/" } ?? "" }
            }
        }
    }
}
