import Foundation

/// The optional `fruitsite.yml` at the project root.
public struct SiteConfig: Sendable, Equatable {
    public var title = "Fruit Catalog"
    public var description = "Fruits by name and category, with a search that runs in your browser."
    /// The absolute URL the site is served from, such as `https://example.org/fruits/`, or
    /// empty. Only `sitemap.xml`, `robots.txt`, canonical links and `404.html` use it:
    /// every other link is relative.
    public var baseURL = ""
    /// Whether the site is to have a sitemap (`sitemap`): it has one when it has a base URL
    /// too (`hasSitemap`).
    public var sitemap = true
    /// The `lang` attribute of every page, whose collation orders the catalog (`Collation`).
    public var language = Self.defaultLanguage
    /// The site's languages when `languages:` lists them, the default first; empty for a
    /// site in one language, which `language`, `title` and `description` declare
    /// (`siteLanguages`).
    public var languages: [SiteLanguage] = []
    /// Whether the default language's pages are in a folder of their own (`en/`), as the
    /// others' are, with a page at the root that leads to it (`defaultLanguageInSubfolder`).
    public var defaultLanguageInSubfolder = false
    /// Which files and folder the config's pages are built from, when it is one language's
    /// of a site in several (`SiteBuilder.LanguagePart`).
    var scope = LanguageScope()
    /// Let raw HTML and any link scheme in Markdown through (off: libcmark's safe mode).
    public var rawHTML = false
    /// The most bytes one entry's file may hold (`maxEntrySize`): a bigger file is an error
    /// naming it, not hours of parsing and gigabytes of memory.
    public var maximumEntrySize = Self.defaultMaximumEntrySize
    /// The most bytes one rendered page may hold (`maxPageSize`): a template whose loops
    /// nest over the catalog stops with an error naming it, before memory runs out.
    public var maximumPageSize = Self.defaultMaximumPageSize
    /// How many fruits each page of a listing (the index, a category) shows (`pageSize`);
    /// 0 lists them all on one page.
    public var pageSize = Self.defaultPageSize
    /// How many of the most recently added fruits each feed lists (`feed: {limit: …}`); 0
    /// writes no feeds.
    public var feedLimit = 20
    /// The front-matter keys whose values filter the catalog and get pages of their own
    /// (`facets`), in the order written.
    public var facets = ["vitamins"]
    /// Where each of `facets` is written, when the config lists them: a key no entry has is
    /// an error there.
    public var facetLocations: [SourceLocation] = []
    /// Which search index the site gets (`search: {index: …}`).
    public var searchIndex = SearchIndex.auto
    /// How pictures are published (`images:`): their variants' widths and formats, and how
    /// hard each encoder works.
    public var images = PictureSettings()

    /// The language of a site whose config names none.
    public static let defaultLanguage = "en"

    /// The kinds of search index: one file the browser loads whole, or a manifest and shards
    /// it loads as a query needs them (docs/reference/search-index.md).
    public enum SearchIndex: String, Sendable, CaseIterable {
        /// `single` up to `shardedSearchThreshold` fruits, `sharded` above.
        case auto
        case single
        case sharded
    }

    /// Above this many fruits `auto` shards the index: Benchmarks/HISTORY.md has the figures
    /// it comes from.
    public static let shardedSearchThreshold = 5_000

    /// Whether a catalog of `fruitCount` fruits gets the sharded index.
    public func shardsSearch(fruitCount: Int) -> Bool {
        switch searchIndex {
        case .auto: fruitCount > Self.shardedSearchThreshold
        case .single: false
        case .sharded: true
        }
    }

    /// 100 fruits: a listing page of the default theme stays near 25 KB.
    public static let defaultPageSize = 100

    /// 8 MB: thousands of times the longest entry of the sample.
    public static let defaultMaximumEntrySize = 8 << 20
    /// 512 MB: an index listing a million fruits on one page is about 220 MB.
    public static let defaultMaximumPageSize = 512 << 20
    /// The most the config file may hold.
    public static let maximumFileSize = 1 << 20
    /// The most characters a text setting may have: each is repeated on every page.
    public static let maximumValueLength = 4_096

    /// The defaults, used when there is no config file.
    public init() {}
}
