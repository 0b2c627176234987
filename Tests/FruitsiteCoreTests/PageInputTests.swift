import Mustache
import TestSupport
import Testing

@testable import FruitsiteCore

/// A rebuild skips a page whose inputs hash as before, so the inputs must cover the data:
/// whatever changes a page's data must change its input hash. Each case changes one thing
/// about the sample site and checks every page.
@Suite struct PageInputTests {
    enum Change: String, CaseIterable, Sendable {
        case body, params, name, emoji, vitamins, category, newCategory, removal, addition
        case title, baseURL, language
    }

    /// Hashes of each page's data and of its inputs.
    static func pages(_ config: SiteConfig, _ catalog: Catalog) -> [String: (UInt64, UInt64)] {
        let data = ContextBuilder(config: config, catalog: catalog, themeHash: 1)
        func hash(_ value: MustacheValue) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(value)
            return hasher.value
        }
        var pages = [
            "index": (hash(data.indexContext()), data.indexInputs()),
            "404": (hash(data.notFoundContext()), data.notFoundInputs()),
        ]
        for index in catalog.fruits.indices {
            pages["fruit " + catalog.fruits[index].slug] = (
                hash(data.fruitContext(index)), data.fruitInputs(index)
            )
        }
        for index in catalog.categories.indices {
            pages["category " + catalog.categories[index].slug] = (
                hash(data.categoryContext(index)), data.categoryInputs(index)
            )
        }
        var listings = StableHasher()
        listings.combine(SearchIndexBuilder().build(catalog))
        for file in SitemapBuilder(config: config).build(catalog) { listings.combine(file.bytes) }
        pages["listings"] = (listings.value, data.listingInputs())
        return pages
    }

    static func apply(_ change: Change, to config: SiteConfig, _ fruits: [Fruit]) -> (
        SiteConfig, [Fruit]
    ) {
        var (config, fruits) = (config, fruits)
        let index = fruits.firstIndex { $0.slug == "kiwi" }!
        var fruit = fruits[index]
        // A real edit changes the file, and so its hash.
        fruit.sourceHash &+= 1
        func renamed(_ name: String) -> Fruit {
            Fruit(
                slug: fruit.slug, name: name, emoji: fruit.emoji, category: fruit.category,
                vitamins: fruit.vitamins, details: fruit.details, sourceHash: fruit.sourceHash,
                location: fruit.location)
        }
        switch change {
        case .body: fruit.details?.bodyHTML += "<p>More.</p>"
        case .params: fruit.details?.params["origin"] = "Somewhere"
        case .name: fruit = renamed("Kiwifruit")
        case .emoji: fruit.emoji = "🥝🥝"
        case .vitamins:
            // As many as before: the count alone must not be what changes the hash.
            #expect(!fruit.vitamins.isEmpty)
            fruit.vitamins[0] = fruit.vitamins[0] == "E" ? "D" : "E"
        case .category, .newCategory:
            fruit = Fruit(
                slug: fruit.slug, name: fruit.name, emoji: fruit.emoji,
                category: change == .category ? fruits[0].category : "Vines",
                vitamins: fruit.vitamins,
                details: fruit.details, sourceHash: fruit.sourceHash, location: fruit.location)
        case .removal: break
        case .addition:
            fruits.append(
                Fruit(
                    slug: "zucchini", name: "Zucchini", category: fruit.category,
                    location: SourceLocation(path: "Content/zucchini.md")))
        case .title: config.title = "Other"
        case .baseURL: config.baseURL = "https://example.org/fruits/"
        case .language: config.language = "de"
        }
        if change == .removal {
            fruits.remove(at: index)
        } else if change != .addition {
            fruits[index] = fruit
        }
        return (config, fruits)
    }

    @Test(arguments: Change.allCases)
    func inputsChangeWheneverTheDataDoes(_ change: Change) throws {
        var options = BuildOptions()
        options.contentDirectory = repositoryRoot + "/Content"
        let builder = SiteBuilder(options: options)
        let config = SiteConfig()
        let base = try #require(builder.loadCatalog(config: config).catalog)
        let (newConfig, newFruits) = Self.apply(change, to: config, base.fruits)
        let before = Self.pages(config, base)
        let after = Self.pages(newConfig, Catalog(fruits: newFruits))
        var changed = 0
        for (page, (data, inputs)) in after {
            guard let (oldData, oldInputs) = before[page] else { continue }
            if data != oldData {
                changed += 1
                #expect(inputs != oldInputs, "\(change): \(page) has new data but the same inputs")
            }
        }
        #expect(changed > 0, "\(change) changed no page: the case tests nothing")
    }
}
