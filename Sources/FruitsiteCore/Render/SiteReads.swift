import Mustache

/// The settings every page shows as `site`, which feeds and JSON-LD name too, with the hash
/// of the texts `site` is made of and of the settings that name the pictures' variants, which
/// a page names.
final class SiteSettings: Sendable {
    let title: String
    let description: String
    let language: String
    let direction: String
    let baseURL: String
    /// `site`.
    let value: MustacheValue
    let hash: UInt64

    init(_ config: SiteConfig) {
        (title, description, language) = (config.title, config.description, config.language)
        (direction, baseURL) = (config.direction, config.baseURL)
        let texts = [title, description, language, direction, baseURL]
        value = .object(
            MustacheObject(
                uniqueKeys: ["title", "description", "language", "direction", "baseURL"],
                values: texts.map(MustacheValue.string)))
        var hasher = StableHasher()
        for text in texts { hasher.combine(text) }
        let images = config.images
        hasher.combine(
            "\(images.widths) \(images.formats.map(\.rawValue)) \(images.avifQuality) "
                + "\(images.webpQuality) \(images.jpegQuality) \(images.avifEffort)")
        hash = hasher.value
    }
}

/// The site's settings (`PageData.site`), hashed as they are.
struct SiteRead: PageRead {
    fileprivate let hash: UInt64

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }
}

/// The URLs of the assets a kind's templates can look up (`assets`): hashed as those
/// (`AssetURLs.hash(of:)`).
struct AssetRead: PageRead {
    fileprivate let hash: UInt64

    func combine(into hasher: inout StableHasher) { hasher.combine(hash) }
}

/// A page's title before its number (`, page 2`): a text, or the name of the page's fruit,
/// read only when the page is made, and hashed as the fruit's summary.
enum PageTitle: PageRead {
    case text(String)
    case fruit(ShownFruit)

    func combine(into hasher: inout StableHasher) {
        switch self {
        case .text(let text): text.combine(into: &hasher)
        case .fruit(let fruit): fruit.combine(into: &hasher)
        }
    }

    func mark(_ marks: inout PageMarks) {
        if case .fruit(let fruit) = self { fruit.mark(&marks) }
    }
}

/// Whether the site has feeds, and the category whose feeds a page links first, if any.
struct FeedLinks: PageRead {
    let hasFeeds: Bool
    let category: GroupRead?

    func combine(into hasher: inout StableHasher) {
        hasher.combine(UInt64(hasFeeds ? 1 : 0))
        hasher.combine(UInt64(category == nil ? 0 : 1))
        category?.combine(into: &hasher)
    }
}

extension PageData {
    var siteRead: SiteRead { SiteRead(hash: site.hash) }

    /// The settings a read names.
    func settings(of read: SiteRead) -> SiteSettings { site }

    func assets(of kind: PageKind) -> AssetRead { AssetRead(hash: assetURLs.hash(of: kind)) }

    /// The assets' URLs a read names.
    func urls(of read: AssetRead) -> AssetURLs { assetURLs }
}
