/// `sitemap.xml`, or one of its parts when it has more than one (`SitemapBuilder`). In a
/// site of several languages, the root's `sitemap.xml` is the index of every language's
/// parts.
struct SitemapFile {
    /// The part, numbered from 1; 0 for `sitemap.xml`.
    let part: Int

    func walk(_ data: PageData, into walk: inout some PageWalk) {
        let translations = data.translations
        if part == 0 && translations.isMultilingual {
            let files = translations.languages.indices.flatMap { language in
                (0..<translations.sitemapParts[language]).map {
                    translations.baseURL + translations.languages[language].prefix
                        + SitemapBuilder.path(ofPart: $0 + 1)
                }
            }
            walk.add(file: files.joined(separator: "\n")) { _ in SitemapBuilder.index(of: files) }
            return
        }
        walk.add(file: data.siteRead, data.sitemapListing, part) { site, _, part in
            // Every file cuts its part from the list `PageData.prepare(for:within:)` made.
            let builder = SitemapBuilder(
                baseURL: data.settings(of: site).baseURL, pagination: data.pagination,
                translations: translations)
            return part == 0
                ? builder.sitemap(data.sitemap) : builder.part(part, of: data.sitemap)
        }
    }
}

/// `robots.txt`, at the site root, which names the root's sitemap: the index of every
/// language's in a site of several.
struct RobotsFile {
    func walk(_ data: PageData, into walk: inout some PageWalk) {
        let sitemaps = data.config.hasSitemap ? [data.translations.baseURL + "sitemap.xml"] : []
        walk.add(file: sitemaps.joined(separator: "\n")) { _ in
            Array(SitemapBuilder.robots(sitemaps: sitemaps).utf8)
        }
    }
}

/// What the sitemap lists (`SitemapBuilder.locations`): every page of the index, each fruit's
/// slug and date, and each category's and facet value's pages. Its hash is made from the same
/// things when the model is read, so that a rebuild knows whether the sitemap changed without
/// listing it.
struct SitemapListing: PageRead, Sendable {
    private let hash: UInt64

    /// - Parameter fruitPresence: The languages that list the fruit at each catalog position
    ///   (`PageData.fruitPresence`), whose alternates the sitemap names; empty in a site of
    ///   one language.
    init(
        model: SiteModel, positions: SiteModel.Positions, theme: TemplateLoader.Theme,
        pagination: Pagination, translations: Translations,
        fruitPresence: [Translations.Presence]
    ) {
        // A fruit's path names its slug (`SourceFile.slug(of:)`). The fruits' hashes are
        // summed, not chained: the sitemap does not follow the catalog's order, so a fruit that
        // moves in it leaves the hash as it was, and every core can add up a share, in id order.
        let slugs = model.entries.ids.concurrentShares { share in
            var sum: UInt64 = 0
            for id in share {
                guard let position = positions[id] else { continue }
                var entry = StableHasher()
                entry.combine(model[id].pathHash)
                entry.combine(model[id].date.map { UInt64(bitPattern: $0.seconds) } ?? .max)
                if !fruitPresence.isEmpty { fruitPresence[position.rawValue].combine(into: &entry) }
                sum &+= entry.value
            }
            return sum
        }
        .reduce(UInt64(0), &+)
        let language = translations.index(of: model.settings.scope)
        var hasher = StableHasher()
        hasher.combine(slugs)
        hasher.combine(UInt64(model.order.count))
        hasher.combine(UInt64(pagination.pageCount(of: model.order.count)))
        // The listings' pages: their number moves only when a listing crosses a page size, so
        // a fruit changing category leaves the sitemap as it was.
        let listings = [("categories", model.categories)] + zip(model.settings.facets, model.facets)
        for (folder, groups) in listings {
            hasher.combine(folder)
            hasher.combine(UInt64(groups.count))
            for group in groups {
                hasher.combine(group.name)
                hasher.combine(UInt64(pagination.pageCount(of: group.positions.count)))
                // And the listing's counterparts in other languages, which its alternates name.
                if translations.isMultilingual {
                    translations.presence(of: "\(folder)/\(group.slug)/", in: language)
                        .combine(into: &hasher)
                }
            }
        }
        // And whether the categories' and the facets' own pages are written.
        hasher.combine(UInt64(theme.writes(.categories) ? 1 : 0))
        hasher.combine(UInt64(theme.writes(.facetValues) ? 1 : 0))
        // And the languages that have the pages each has alike, which their alternates name.
        if translations.isMultilingual {
            for language in translations.languages {
                hasher.combine(language.code + language.prefix)
            }
            for folder in ["", "categories/"] + model.settings.facets.map({ $0 + "/" }) {
                translations.presence(of: folder, in: language).combine(into: &hasher)
            }
        }
        hash = hasher.value
    }

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }

    func mark(_ marks: inout PageMarks) { marks.markSitemap() }

    /// Every page the sitemap lists, in its order.
    func locations(of data: PageData) -> [SitemapBuilder.Location] {
        let model = data.model
        // The listed fruits in path order, which is slug order but where one slug continues
        // another with a character before `.`: the sort then finds its work almost done.
        // A page shown in place of a missing translation is not to be indexed.
        let scope = model.settings.scope
        var isListed = [Bool](repeating: false, count: model.entries.count)
        for id in model.order where !scope.takesFallbacks || !scope.isFallback(model[id].path) {
            isListed[id.rawValue] = true
        }
        let (positions, presence) = (data.positions, data.fruitPresence)
        var locations = SitemapBuilder(baseURL: data.site.baseURL, pagination: data.pagination)
            .locations(
                fruits: model.savingOrder.lazy.filter { isListed[$0.rawValue] }.map { id in
                    (
                        model[id].slug, model[id].date,
                        presence.isEmpty
                            ? Translations.Presence() : presence[positions[id]!.rawValue]
                    )
                },
                count: model.order.count, categories: model.categories,
                facets: Array(zip(model.settings.facets, model.facets)),
                listsFolders: (data.theme.writes(.categories), data.theme.writes(.facetValues)))
        let translations = data.translations
        guard translations.isMultilingual else { return locations }
        let language = translations.index(of: scope)
        for index in locations.indices where locations[index].folder != "fruits" {
            locations[index].presence = translations.presence(
                of: locations[index].address, in: language)
        }
        return locations
    }
}
