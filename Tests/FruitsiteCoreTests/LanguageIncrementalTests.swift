import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// A site in several languages rebuilt after an edit writes what a clean build writes, and
/// renders only the pages that show the edit: its language's, and the other languages'
/// pages whose switcher and alternates name what changed.
@Suite struct LanguageIncrementalTests {
    /// Builds `site` after `step`, expects it to write what a clean build writes, every page
    /// it renders to change (it renders nothing needlessly), and returns the files that
    /// changed.
    @discardableResult
    static func rebuild(_ site: LanguageSite, _ step: String) throws -> Set<String> {
        let before = site.snapshot()
        let rendering = try site.buildAndCompare(step)
        let changed = LanguageSite.changes(from: before, to: site.snapshot()).filter {
            !$0.hasPrefix(".")
        }
        let written = changed.filter { site.exists($0) }
        #expect(rendering.rendered == written.count, "\(step): \(changed.sorted())")
        #expect(rendering.written?.written == written.count, "\(step)")
        return changed
    }

    /// The files of `changed` outside the language folder `prefix` (`fr/`), for which the
    /// default language's are those not in any other language's folder; a path marked
    /// removed (`-fr/…`) is in its folder too.
    static func outside(_ prefix: String, _ changed: Set<String>) -> Set<String> {
        changed.filter { !$0.drop { $0 == "-" }.hasPrefix(prefix) }
    }

    /// Each kind of edit, each made just before the build or, `settled`, long before it; and
    /// with the sharded search index and a fruit a page, whose listings have several pages.
    @Test(arguments: [("", false), ("", true), ("search: {index: sharded}\npageSize: 1\n", false)])
    func anEditRendersItsLanguageAndThePagesThatNameIt(config: String, settled: Bool) throws {
        var site = try LanguageSite(config: config + LanguageSite.trilingual)
        defer { site.folder.remove() }
        if settled { site.now = { Date().addingTimeInterval(3_600) } }
        let base = "https://example.org/shop/"
        try Self.rebuild(site, "first build")
        #expect(try Self.rebuild(site, "no change").isEmpty)

        // A body shows on its own page alone.
        try site.write("apple.fr.md", front: "name: Pomme\ncategory: Pépins", body: "Rouge.\n")
        #expect(try Self.rebuild(site, "a French body") == ["fr/fruits/apple/index.html"])

        // A name moves the fruit in the French listings and search, not in the others'.
        try site.write("apple.fr.md", front: "name: Reinette\ncategory: Pépins", body: "Rouge.\n")
        let renamed = try Self.rebuild(site, "a French name")
        #expect(renamed.contains("fr/fruits/apple/index.html"))
        #expect(Self.outside("fr/", renamed).isEmpty, "\(renamed.sorted())")

        // An English entry French shows by fallback: its page in both.
        try site.write("cherry.md", front: "name: Cherry\ncategory: Stone", body: "Sour.\n")
        #expect(
            try Self.rebuild(site, "the body of an entry French shows by fallback")
                == ["fruits/cherry/index.html", "fr/fruits/cherry/index.html"])

        // A translation added: the French page is the translation's, indexed, and named by
        // the English one and the English sitemap, as the French page of its category, which
        // lists the translation of the English category's fruit now, is by the English
        // category's; Arabic has no cherry, and no page of it changes.
        let withoutCherry = site.snapshot()
        try site.write("cherry.fr.md", front: "name: Cerise\ncategory: Stone")
        let translated = try Self.rebuild(site, "a translation added")
        #expect(
            Self.outside("fr/", translated) == [
                "fruits/cherry/index.html", "categories/stone/index.html", "sitemap1.xml",
            ])
        let cherry = try site.page("fr/fruits/cherry/index.html")
        #expect(!LanguageSite.isNoindex(cherry) && cherry.contains("<bdi>Cerise</bdi>"))
        #expect(LanguageSite.canonical(of: cherry) == base + "fr/fruits/cherry/")
        let cherryAlternates = [
            "en": base + "fruits/cherry/", "fr": base + "fr/fruits/cherry/",
            "x-default": base + "fruits/cherry/",
        ]
        #expect(LanguageSite.alternates(of: cherry) == cherryAlternates)
        #expect(
            LanguageSite.alternates(of: try site.page("fruits/cherry/index.html"))
                == cherryAlternates)
        #expect(try site.page("fr/sitemap1.xml").contains("<loc>\(base)fr/fruits/cherry/</loc>"))

        // Removed, the French page is the fallback again, and the site as it was.
        try site.remove("cherry.fr.md")
        let untranslated = try Self.rebuild(site, "a translation removed")
        #expect(untranslated == translated)
        #expect(
            site.snapshot().filter { !$0.key.hasPrefix(".") }
                == withoutCherry.filter {
                    !$0.key.hasPrefix(".")
                })
        #expect(LanguageSite.isNoindex(try site.page("fr/fruits/cherry/index.html")))

        // Arabic, without fallback: the page appears, and the pages and sitemaps that name it
        // change.
        try site.write("banana.ar.md", front: "name: موز\ncategory: استوائية")
        let arabic = try Self.rebuild(site, "an Arabic translation added")
        #expect(arabic.contains("ar/fruits/banana/index.html"))
        #expect(
            Self.outside("ar/", arabic) == [
                "fruits/banana/index.html", "fr/fruits/banana/index.html", "sitemap1.xml",
                "fr/sitemap1.xml", "categories/tropical/index.html",
                "fr/categories/tropicaux/index.html",
            ])
        #expect(
            LanguageSite.alternates(of: try site.page("fr/fruits/banana/index.html"))["ar"]
                == base + "ar/fruits/banana/")
        try site.remove("banana.ar.md")
        let gone = try Self.rebuild(site, "an Arabic translation removed")
        #expect(!site.exists("ar/fruits/banana/index.html"))
        #expect(Self.outside("ar/", gone) == Self.outside("ar/", arabic))

        // A translation renamed is an entry of its own: French shows the English apple by
        // fallback, and the pages that named the French apple name it no more: its own, and
        // its category's in English and Arabic, whose French counterpart it made. The English
        // apple has a vitamin: French has a page of the vitamins now, which English names.
        #expect(!site.exists("fr/vitamins/index.html"))
        try FileManager.default.moveItem(
            atPath: site.folder.path + "/Content/apple.fr.md",
            toPath: site.folder.path + "/Content/reinette.fr.md")
        let moved = try Self.rebuild(site, "a translation renamed")
        #expect(
            Self.outside("fr/", moved) == [
                "fruits/apple/index.html", "ar/fruits/apple/index.html", "vitamins/index.html",
                "sitemap1.xml", "ar/sitemap1.xml", "categories/pomes/index.html",
                "ar/categories/c-9fd2ee2b/index.html",
            ])
        #expect(site.exists("fr/vitamins/index.html"))
        #expect(LanguageSite.isNoindex(try site.page("fr/fruits/apple/index.html")))
        #expect(site.exists("fr/fruits/reinette/index.html"))
        #expect(
            LanguageSite.alternates(of: try site.page("ar/fruits/apple/index.html")).keys.sorted()
                == ["ar", "en", "x-default"])
        #expect(try Self.rebuild(site, "no change after all that").isEmpty)
        // The alternates agree, and check finds nothing wrong with them; it warns that
        // Reinette, as Églantier, translates no English entry.
        let checked = try site.builder.check()
        #expect(
            LanguageSite.others(checked.warnings).map(\.message) == [
                "the default language lists no 'reinette' for this to translate"
            ])
        _ = try LanguageBuildTests.expectAlternatesAgree(site, baseURL: base)
    }

    /// A language added to the config gets its pages, and every other page's switcher names
    /// it; taken out, its folder goes and the site is as it was.
    @Test func aLanguageAddedToTheConfigBuildsItsPages() throws {
        let site = try LanguageSite(config: LanguageSite.trilingual)
        defer { site.folder.remove() }
        try site.build()
        let before = site.snapshot().filter { !$0.key.hasPrefix(".") }
        try site.folder.write(
            "fruitsite.yml",
            LanguageSite.trilingual + "  - {code: de, title: Obstkatalog, fallback: default}\n")
        try site.write("apple.de.md", front: "name: Apfel\ncategory: Kernobst")
        try site.buildAndCompare("German added")
        #expect(site.exists("de/fruits/apple/index.html") && site.exists("de/sitemap1.xml"))
        #expect(LanguageSite.isNoindex(try site.page("de/fruits/banana/index.html")))
        #expect(
            LanguageSite.htmlLanguage(of: try site.page("de/fruits/apple/index.html")) == "de ltr")
        for page in ["index.html", "fr/fruits/apple/index.html", "ar/index.html"] {
            let switcher = LanguageSite.switcher(of: try site.page(page))
            #expect(switcher.map(\.code) == ["en", "fr", "ar", "de"], "\(page)")
        }
        #expect(
            LanguageSite.alternates(of: try site.page("fruits/apple/index.html"))["de"]
                == "https://example.org/shop/de/fruits/apple/")
        #expect(try site.page("sitemap.xml").contains("/shop/de/sitemap1.xml"))
        #expect(try site.build().rendered == 0, "then nothing changes")

        try site.remove("apple.de.md")
        try site.folder.write("fruitsite.yml", LanguageSite.trilingual)
        try site.buildAndCompare("German taken out")
        #expect(!site.exists("de"))
        #expect(site.snapshot().filter { !$0.key.hasPrefix(".") } == before)
    }
}
