import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// `serve`'s site in memory, in several languages: each update hands on the files of every
/// language at their paths in the output folder, and only those that changed.
@Suite struct LanguageLiveSiteTests {
    /// A live site over `site`, and the files it serves.
    struct Live {
        let site: LanguageSite
        var live: SiteBuilder.LiveSite
        var files: [String: [UInt8]] = [:]

        init(_ site: LanguageSite) {
            self.site = site
            live = SiteBuilder.LiveSite(builder: site.builder)
        }

        /// Updates the site after a change to the content files `names`, the pages at `open`
        /// open in a browser, and returns the paths of the files it changed, the removed
        /// ones marked `-`, and the paths of the pages handed on first.
        mutating func update(
            changing names: [String]?, open: Set<String> = []
        ) throws -> (changed: Set<String>, first: [RenderedPage]) {
            var first: [RenderedPage] = []
            let paths = names.map { Set($0.map { site.options.contentDirectory + "/" + $0 }) }
            let update = try live.update(changing: paths, open: open) { pages, _ in
                first += pages
            }
            for file in update.files { files[file.path] = file.bytes }
            for path in update.removed { files[path] = nil }
            return (Set(update.files.map(\.path) + update.removed.map { "-" + $0 }), first)
        }

        /// Expects the files to be what a fresh live site makes of the folder now.
        func expectFresh(_ step: String) throws {
            var fresh = SiteBuilder.LiveSite(builder: SiteBuilder(options: site.options))
            let expected = Dictionary(
                uniqueKeysWithValues: try fresh.update().files.map { ($0.path, $0.bytes) })
            #expect(files.keys.sorted() == expected.keys.sorted(), "\(step)")
            for (path, bytes) in expected where files[path] != bytes {
                Issue.record("\(step): \(path) differs from a fresh site")
            }
        }
    }

    @Test func anUpdateHandsOnWhatChangedInEachLanguage() throws {
        let site = try LanguageSite(config: LanguageSite.trilingual)
        defer { site.folder.remove() }
        var live = Live(site)
        let first = try live.update(changing: nil)
        // What build writes, at the same paths and with the same bytes.
        try site.build()
        let built = site.snapshot().filter { !$0.key.hasPrefix(".") }
        #expect(first.changed == Set(built.keys))
        for (path, bytes) in built where live.files[path].map({ Data($0) }) != bytes {
            Issue.record("\(path) differs from the built one")
        }
        #expect(live.files["fr/fruits/apple/index.html"] != nil)
        #expect(live.files["ar/index.html"] != nil && live.files["fr/robots.txt"] == nil)

        // A French body: the French page alone, handed on first when open.
        try site.write("apple.fr.md", front: "name: Pomme\ncategory: Pépins", body: "Rouge.\n")
        let body = try live.update(
            changing: ["apple.fr.md"], open: ["fr/fruits/apple/index.html"])
        #expect(body.changed == ["fr/fruits/apple/index.html"])
        #expect(body.first.map(\.path) == ["fr/fruits/apple/index.html"])
        #expect(body.first.first?.bytes == live.files["fr/fruits/apple/index.html"])
        try live.expectFresh("a French body")

        // A translation added: the French pages, and the English pages and sitemap that name
        // them: the cherry's, and its category's, whose French page lists its translation now.
        try site.write("cherry.fr.md", front: "name: Cerise\ncategory: Stone")
        let added = try live.update(changing: ["cherry.fr.md"])
        #expect(added.changed.contains("fr/fruits/cherry/index.html"))
        #expect(
            LanguageIncrementalTests.outside("fr/", added.changed)
                == ["fruits/cherry/index.html", "categories/stone/index.html", "sitemap1.xml"])
        try live.expectFresh("a translation added")

        // The English entry it translates: its page alone, French has its own now.
        try site.write("cherry.md", front: "name: Cherry\ncategory: Stone", body: "Sour.\n")
        #expect(try live.update(changing: ["cherry.md"]).changed == ["fruits/cherry/index.html"])
        try live.expectFresh("an English body")

        // A translation removed: the French fallback takes its place; the pages that named it.
        try site.remove("apple.fr.md")
        let removed = try live.update(changing: ["apple.fr.md"])
        #expect(
            removed.changed.isSuperset(of: [
                "fr/fruits/apple/index.html", "fruits/apple/index.html",
                "ar/fruits/apple/index.html",
            ]))
        #expect(
            LanguageSite.isNoindex(
                String(decoding: live.files["fr/fruits/apple/index.html"] ?? [], as: UTF8.self)))
        try live.expectFresh("a translation removed")

        // An Arabic translation: Arabic, which takes no fallbacks, reads the watcher's paths
        // alone; the French and English bananas name it.
        try site.write("banana.ar.md", front: "name: موز\ncategory: استوائية")
        let arabic = try live.update(changing: ["banana.ar.md"])
        #expect(
            arabic.changed.isSuperset(of: [
                "ar/fruits/banana/index.html", "fruits/banana/index.html",
                "fr/fruits/banana/index.html",
            ]))
        try live.expectFresh("an Arabic translation added")

        // An error in a French file fails the update; fixed, the next one is whole again.
        try site.write("banana.fr.md", front: "category: Tropicaux")
        let failure = #expect(throws: BuildFailure.self) {
            try live.update(changing: ["banana.fr.md"])
        }
        #expect(
            failure?.diagnostics.map(\.location.path) == [
                site.options.contentDirectory + "/banana.fr.md"
            ])
        try site.write("banana.fr.md", front: "name: Bananes\ncategory: Tropicaux")
        let fixed = try live.update(changing: ["banana.fr.md"])
        #expect(fixed.changed.contains("fr/fruits/banana/index.html"))
        #expect(LanguageIncrementalTests.outside("fr/", fixed.changed).isEmpty)
        try live.expectFresh("an error fixed")

        // A language taken out of the config: its files go.
        try site.folder.write(
            "fruitsite.yml",
            LanguageSite.trilingual.replacingOccurrences(
                of: "  - {code: ar, title: كتالوج الفواكه, fallback: none}\n", with: ""))
        try site.remove("apple.ar.md")
        try site.remove("banana.ar.md")
        let config = try live.update(changing: nil)
        #expect(config.changed.contains("-ar/index.html"))
        #expect(!live.files.keys.contains { $0.hasPrefix("ar/") })
        try live.expectFresh("a language taken out")
    }

    /// With the sharded search index, which pages do not name by its bytes, an open page
    /// comes first: a French page whose translation is removed comes as the English entry's
    /// fallback, and one whose translation is added as the translation, with the bytes the
    /// whole update gives it.
    @Test func anOpenPageFollowsItsTranslation() throws {
        let site = try LanguageSite(
            config: "search: {index: sharded}\n" + LanguageSite.trilingual)
        defer { site.folder.remove() }
        var live = Live(site)
        _ = try live.update(changing: nil)
        let open = "fr/fruits/apple/index.html"
        for (step, change) in [
            ("removed", { try site.remove("apple.fr.md") }),
            ("added", { try site.write("apple.fr.md", front: "name: Pomme\ncategory: Pépins") }),
        ] as [(String, () throws -> Void)] {
            try change()
            let update = try live.update(changing: ["apple.fr.md"], open: [open])
            #expect(update.first.map(\.path) == [open], "\(step)")
            #expect(update.first.first?.bytes == live.files[open], "\(step)")
            let page = String(decoding: live.files[open] ?? [], as: UTF8.self)
            #expect(LanguageSite.isNoindex(page) == (step == "removed"), "\(step)")
            try live.expectFresh("a translation \(step)")
        }
    }
}
