import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// With `defaultLanguageInSubfolder`, every language's pages are in its folder, and the site
/// root holds what belongs to the whole site: a page that leads to the default language,
/// the 404 page servers show, `robots.txt` and the sitemap's index.
@Suite struct LanguageFolderTests {
    static let config = LanguageSite.trilingual + "defaultLanguageInSubfolder: true\n"
    static let base = "https://example.org/shop/"

    @Test func everyLanguageIsInItsFolderAndTheRootLeadsToTheDefault() throws {
        let site = try LanguageSite(config: Self.config)
        defer { site.folder.remove() }
        let built = try site.build()
        #expect(LanguageSite.others(built.warnings).isEmpty)
        let atRoot = site.files.filter { !$0.contains("/") }
        #expect(atRoot.sorted() == ["404.html", "index.html", "robots.txt", "sitemap.xml"])
        for path in ["fruits/apple/index.html", "index.html", "categories/index.html"] {
            #expect(site.exists("en/" + path) && site.exists("fr/" + path), "\(path)")
        }
        #expect(!site.exists("fruits/apple/index.html"))
        // The root's files are the default language's to write, there alone; another
        // language has a 404 page of its own in its folder.
        for file in ["404.html", "robots.txt", "sitemap.xml"] {
            #expect(!site.exists("en/" + file), "\(file)")
        }
        #expect(!site.exists("fr/robots.txt") && site.exists("fr/404.html"))

        // The root page leads to the default language's home, and names every language's.
        let root = try site.page("index.html")
        #expect(root.contains(#"<meta http-equiv="refresh" content="0; url=en/">"#))
        #expect(LanguageSite.canonical(of: root) == Self.base + "en/")
        #expect(LanguageSite.isNoindex(root) == false && LanguageSite.alternates(of: root).isEmpty)
        #expect(LanguageSite.switcher(of: root).map(\.url) == ["en/", "fr/", "ar/"])
        #expect(root.contains(#"href="en/assets/site."#), "its assets are the default's")
        #expect(LanguageSite.htmlLanguage(of: root) == "en ltr")
        #expect(root.contains("<title>Languages · Fruit Catalog</title>"))

        // The 404 page links from the site's address, at whatever depth it is shown.
        let notFound = try site.page("404.html")
        #expect(notFound.contains(#"href="/shop/en/assets/site."#))
        #expect(
            LanguageSite.switcher(of: notFound).map(\.url) == [
                "/shop/en/", "/shop/fr/", "/shop/ar/",
            ])

        #expect(
            try site.page("robots.txt")
                == "User-agent: *\nAllow: /\nSitemap: \(Self.base)sitemap.xml\n")
        let named = try LanguageBuildTests.expectAlternatesAgree(site, baseURL: Self.base)
        #expect(named > 10)
        #expect(
            try LanguageBuildTests.expectSitemapsAgree(
                site, baseURL: Self.base, folders: ["en/", "fr/", "ar/"]) == named)
        #expect(
            LanguageSite.alternates(of: try site.page("fr/fruits/apple/index.html")) == [
                "en": Self.base + "en/fruits/apple/", "fr": Self.base + "fr/fruits/apple/",
                "ar": Self.base + "ar/fruits/apple/", "x-default": Self.base + "en/fruits/apple/",
            ])
        // A French page shown in place of a translation points at the English one.
        #expect(
            LanguageSite.canonical(of: try site.page("fr/fruits/cherry/index.html"))
                == Self.base + "en/fruits/cherry/")
        #expect(try site.searchNames(in: "en/") == ["Apple", "Banana", "Cherry"])
        let checked = try SiteBuilder(options: site.options).check()
        #expect(LanguageSite.others(checked.warnings).isEmpty)
        #expect(checked.htmlPageCount == built.htmlPageCount)
    }

    /// Without a base URL, the 404 page at the root links down into the default language's
    /// folder, as the root page does.
    @Test func withoutABaseURLTheRootsPagesLinkIntoTheDefaultFolder() throws {
        let site = try LanguageSite(
            config: LanguageSite.bilingual + "defaultLanguageInSubfolder: true\nsitemap: false\n",
            entries: LanguageBuildTests.twoLanguageEntries)
        defer { site.folder.remove() }
        #expect(LanguageSite.others(try site.build().warnings).isEmpty)
        let notFound = try site.page("404.html")
        #expect(notFound.contains(#"href="en/assets/site."#))
        #expect(LanguageSite.switcher(of: notFound).map(\.url) == ["en/", "fr/"])
        let checked = try SiteBuilder(options: site.options).check()
        #expect(LanguageSite.others(checked.warnings).isEmpty)
    }

    /// Turned on and off again, the option moves the default language's pages, and each
    /// build is the clean build's, byte for byte.
    @Test func theOptionTurnedOnAndOffRebuildsAsACleanBuild() throws {
        let site = try LanguageSite(config: LanguageSite.trilingual)
        defer { site.folder.remove() }
        try site.build()
        #expect(site.exists("fruits/apple/index.html"))
        try site.folder.write("fruitsite.yml", Self.config)
        try site.buildAndCompare("turned on")
        #expect(
            site.exists("en/fruits/apple/index.html") && !site.exists("fruits/apple/index.html"))
        try site.write("apple.md", front: "name: Green Apple\ncategory: Pomes", body: "Green.\n")
        try site.buildAndCompare("an English name, in its folder")
        #expect(try site.build().rendered == 0, "then nothing changes")
        try site.folder.write("fruitsite.yml", LanguageSite.trilingual)
        try site.buildAndCompare("turned off")
        #expect(site.exists("fruits/apple/index.html") && !site.exists("en/index.html"))
    }
}
