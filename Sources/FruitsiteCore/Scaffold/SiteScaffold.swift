import Foundation

/// What `fruitsite init` writes: a site that builds at once, with a config, three fruits, the
/// default theme and a `.gitignore` for what builds make.
public enum SiteScaffold {
    /// Writes the site into `folder`, creating it when missing.
    /// - Returns: The paths written, relative to `folder`.
    /// - Throws: `BuildFailure` when the folder holds anything already or a file cannot be
    ///   written; nothing is written then (see `NewFiles`).
    public static func create(at folder: String) throws(BuildFailure) -> [String] {
        try create(at: folder, writer: NewFiles.systemWriter)
    }

    /// `create(at:)` with the writer of each file's bytes given, so tests can fail one.
    static func create(at folder: String, writer: NewFiles.Writer) throws(BuildFailure)
        -> [String]
    {
        let location = SourceLocation(path: folder)
        // Joined with the site's paths, an empty name would write them into `/`.
        guard !folder.isEmpty else {
            throw BuildFailure([.error(at: location, "the folder's name is empty")])
        }
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw BuildFailure([.error(at: location, "a file is in the way, not a folder")])
            }
            let entries = (try? manager.contentsOfDirectory(atPath: folder)) ?? []
            guard entries.isEmpty else {
                throw BuildFailure([
                    .error(
                        at: location, "the folder is not empty",
                        hint: "choose a new or empty folder; init never overwrites")
                ])
            }
        }
        var files: [(path: String, bytes: [UInt8])] = [
            ("fruitsite.yml", Array(config.utf8)),
            (
                ".gitignore",
                Array("/Output/\n/.fruitsite-cache/\n/.Output.fruitsite-*\n".utf8)
            ),
        ]
        files += fruits.map { ("Content/\($0.slug).md", Array($0.text.utf8)) }
        files += DefaultTheme.files.map { ("Templates/" + $0.path, $0.bytes) }
        do throws(PathError) {
            try NewFiles.create(files, in: folder, writer: writer)
        } catch {
            throw BuildFailure([.error(at: location, "cannot write the site: \(error)")])
        }
        return files.map(\.path)
    }

    /// Settings a new site may want are commented out, each in a form that builds once
    /// uncommented (`NewCommandTests` uncomments them all).
    private static let config = """
        # The site's settings. Every key is optional; fruitsite's docs/reference/config.md
        # describes each.
        title: My Fruit Catalog
        description: Every fruit we know, with what is in it.
        # Where the site is served from: its sitemap, feeds and canonical links need it. Without
        # it the build warns that it writes no sitemap; 'sitemap: false' says you want none.
        # baseURL: https://example.org/fruits/
        language: en
        # Fruits on each page of the index and of a category; 0 lists them all on one page.
        # pageSize: 100
        # Feeds (feed.xml, feed.json) list the newest fruits with a 'date:', which
        # 'fruitsite new' writes; they need baseURL. A limit of 0 writes none.
        # feed: {limit: 20}
        # Front-matter keys whose values filter the search and get pages of their own, such as
        # vitamins/c/. Some fruit must have each key: add 'colour: red' to entries, then list
        # colour. [] has none.
        # facets: [vitamins]
        # The search index: one file, or shards a query loads as it needs them; auto shards
        # above 5,000 fruits.
        # search: {index: auto}

        """

    private static let fruits = [
        NewEntry(
            name: "Apple", category: "Pome Fruits", emoji: "🍎", vitamins: "C",
            body: "A crisp fruit of cool climates, eaten **fresh**, baked or pressed into cider.\n"
        ),
        NewEntry(
            name: "Banana", category: "Tropical", emoji: "🍌", vitamins: "B6, C",
            body: "Picked green and ripened on the way, it sweetens as its starch turns to sugar.\n"
        ),
        NewEntry(
            name: "Lemon", category: "Citrus", emoji: "🍋", vitamins: "C",
            body: "Too sour to eat alone, and in half the recipes of any kitchen.\n"),
    ]
}
