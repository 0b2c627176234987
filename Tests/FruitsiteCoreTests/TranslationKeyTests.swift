import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// A translation named otherwise than its entry (`pomme.fr.md` of `apple.md`) names the entry
/// in `translationKey:`: its page is at its own slug, and every page, sitemap and fallback
/// takes it for the entry's translation.
@Suite struct TranslationKeyTests {
    /// The test sites' entries, with the French apple as `pomme.fr.md`.
    static let entries =
        LanguageSite.entries.filter { $0.0 != "apple.fr.md" } + [
            ("pomme.fr.md", "name: Pomme\ncategory: Pépins\ntranslationKey: apple")
        ]

    @Test func aTranslationNamedOtherwiseIsItsEntrysPageAtItsOwnSlug() throws {
        let site = try LanguageSite(config: LanguageSite.trilingual, entries: Self.entries)
        defer { site.folder.remove() }
        let rendering = try site.build()
        #expect(LanguageSite.others(rendering.warnings).isEmpty, "\(rendering.warnings)")
        let base = "https://example.org/shop/"
        // No fallback in its place: the French catalog has the apple once.
        #expect(site.exists("fr/fruits/pomme/index.html"))
        #expect(!site.exists("fr/fruits/apple/index.html"))
        #expect(
            try site.searchNames(in: "fr/").filter { $0 == "Pomme" || $0 == "Apple" } == ["Pomme"])

        let expected = [
            "en": base + "fruits/apple/", "fr": base + "fr/fruits/pomme/",
            "ar": base + "ar/fruits/apple/", "x-default": base + "fruits/apple/",
        ]
        for path in ["fruits/apple/", "fr/fruits/pomme/", "ar/fruits/apple/"] {
            let page = try site.page(path + "index.html")
            #expect(LanguageSite.alternates(of: page) == expected, "\(path)")
        }
        let english = LanguageSite.switcher(of: try site.page("fruits/apple/index.html"))
        #expect(
            english.map(\.url) == [
                "../../fruits/apple/", "../../fr/fruits/pomme/", "../../ar/fruits/apple/",
            ])
        let french = LanguageSite.switcher(of: try site.page("fr/fruits/pomme/index.html"))
        #expect(
            french.map(\.url) == [
                "../../../fruits/apple/", "../../../fr/fruits/pomme/",
                "../../../ar/fruits/apple/",
            ])
        // The sitemaps carry the same alternates, and the categories still match.
        #expect(try LanguageBuildTests.expectSitemapsAgree(site, baseURL: base) > 0)
        #expect(
            LanguageSite.alternates(of: try site.page("fr/categories/pepins/index.html"))["en"]
                == base + "categories/pomes/")
    }

    /// Naming an entry takes the place of its fallback, and the fallback comes back when the
    /// name goes: whether the build lists the folders or trusts the files' statuses.
    @Test(arguments: [false, true])
    func namingAnEntryDropsItsFallbackAndUnnamingBringsItBack(settled: Bool) throws {
        var site = try LanguageSite(config: LanguageSite.bilingual)
        defer { site.folder.remove() }
        if settled { site.now = { Date().addingTimeInterval(3_600) } }
        try site.remove("apple.fr.md")
        try site.remove("apple.ar.md")
        try site.write("pomme.fr.md", front: "name: Pomme\ncategory: Pépins")
        try site.build()
        #expect(LanguageSite.isNoindex(try site.page("fr/fruits/apple/index.html")))

        try site.write("pomme.fr.md", front: "name: Pomme\ncategory: Pépins\ntranslationKey: apple")
        try site.buildAndCompare("named")
        #expect(!site.exists("fr/fruits/apple/index.html"))
        #expect(
            LanguageSite.switcher(of: try site.page("fruits/apple/index.html")).map(\.url)
                == ["../../fruits/apple/", "../../fr/fruits/pomme/"])

        try site.write("pomme.fr.md", front: "name: Pomme\ncategory: Pépins")
        try site.buildAndCompare("unnamed")
        #expect(LanguageSite.isNoindex(try site.page("fr/fruits/apple/index.html")))

        try site.write("pomme.fr.md", front: "name: Pomme\ncategory: Pépins\ntranslationKey: apple")
        try site.buildAndCompare("named again")
        try site.remove("pomme.fr.md")
        try site.buildAndCompare("the translation removed")
        #expect(LanguageSite.isNoindex(try site.page("fr/fruits/apple/index.html")))
        #expect(!site.exists("fr/fruits/pomme/index.html"))
    }

    /// A draft translation translates nothing yet: the language shows its entry by fallback
    /// until it is published, or drafts are built.
    @Test(arguments: [false, true])
    func aDraftTranslationShowsItsEntryByFallback(settled: Bool) throws {
        var site = try LanguageSite(config: LanguageSite.bilingual)
        defer { site.folder.remove() }
        if settled { site.now = { Date().addingTimeInterval(3_600) } }
        try site.remove("apple.ar.md")
        let french = "fr/fruits/apple/index.html"
        try site.build()
        try site.write("apple.fr.md", front: "name: Pomme\ncategory: Pépins\ndraft: true")
        try site.buildAndCompare("a draft")
        #expect(LanguageSite.isNoindex(try site.page(french)))
        #expect(try site.page(french).contains("Apple"))
        try site.write(
            "apple.fr.md", front: "name: Pomme\ncategory: Pépins\ndraft: true", body: "Rouge.\n")
        try site.buildAndCompare("a draft edited")
        #expect(LanguageSite.isNoindex(try site.page(french)))

        try site.write("apple.fr.md", front: "name: Pomme\ncategory: Pépins")
        try site.buildAndCompare("published")
        #expect(!LanguageSite.isNoindex(try site.page(french)))
        try site.write("apple.fr.md", front: "name: Pomme\ncategory: Pépins\ndraft: true")
        try site.buildAndCompare("a draft again")
        #expect(LanguageSite.isNoindex(try site.page(french)))

        site.options.includeDrafts = true
        try site.build()
        #expect(!LanguageSite.isNoindex(try site.page(french)))
        #expect(try site.page(french).contains("Pomme"))
    }

    /// A translation may be named like a default entry it does not translate: the French
    /// plum is `prune`, the French prune `pruneau`, and each page names its own entry's.
    @Test func aTranslationMayBeNamedLikeAnotherEntry() throws {
        let site = try LanguageSite(
            config: "baseURL: https://example.org/\n" + LanguageSite.bilingual,
            entries: [
                ("plum.md", "name: Plum\ncategory: Stone"),
                ("prune.md", "name: Prune\ncategory: Dried"),
                ("apricot.md", "name: Apricot\ncategory: Stone"),
                ("prune.fr.md", "name: Prune\ncategory: Noyaux\ntranslationKey: plum"),
                ("abricot.fr.md", "name: Abricot\ncategory: Noyaux\ntranslationKey: apricot"),
            ])
        defer { site.folder.remove() }
        // The English prune, untranslated, would be shown in French by fallback at the
        // French plum's slug.
        let failure = #expect(throws: BuildFailure.self) { try site.build() }
        #expect(
            failure?.diagnostics.map(\.message) == [
                "duplicate slug 'prune': \(site.options.contentDirectory)/prune.fr.md has it too"
            ])
        #expect(
            failure?.diagnostics.first?.hint
                == "\(site.options.contentDirectory)/prune.md has no 'fr' translation, and is "
                + "shown in its place: translate it, or rename the other file")
        try site.write(
            "pruneau.fr.md", front: "name: Pruneau\ncategory: Secs\ntranslationKey: prune")
        #expect(try site.buildAndCompare("the prune translated").warnings.isEmpty)
        let base = "https://example.org/"
        #expect(
            LanguageSite.alternates(of: try site.page("fruits/plum/index.html"))["fr"]
                == base + "fr/fruits/prune/")
        #expect(
            LanguageSite.alternates(of: try site.page("fruits/prune/index.html"))["fr"]
                == base + "fr/fruits/pruneau/")
        #expect(try site.searchNames(in: "fr/") == ["Abricot", "Prune", "Pruneau"])
        #expect(
            LanguageSite.alternates(of: try site.page("fr/categories/noyaux/index.html"))["en"]
                == base + "categories/stone/")
    }

    /// A front matter whose `1️⃣` marks the error, the file it is in, and what the error says.
    @Test(arguments: [
        (
            "apple.md", "name: Apple\ncategory: Pomes\ntranslationKey: 1️⃣apple",
            "only a translation has a 'translationKey'"
        ),
        (
            "pomme.fr.md", "name: Pomme\ncategory: Pépins\ntranslationKey: 1️⃣Apple Pie",
            "'translationKey' must be the slug of the default language's entry"
        ),
        (
            "pomme.fr.md", "name: Pomme\ncategory: Pépins\ntranslationKey: 1️⃣apricot",
            "'translationKey' names 'apricot', which the default language has no entry for"
        ),
        (
            "pomme.fr.md", "name: Pomme\ncategory: Pépins\ntranslationKey: 1️⃣banana",
            "'banana' has two 'fr' translations: this and "
        ),
    ])
    func aTranslationKeyErrorIsAtItsLineAndColumn(file: String, marked: String, message: String)
        throws
    {
        let front = MarkedText(marked, columns: .unicodeScalars)
        let site = try LanguageSite(config: LanguageSite.bilingual)
        defer { site.folder.remove() }
        try site.remove("apple.fr.md")
        try site.remove("apple.ar.md")
        try site.write(file, front: front.text)
        let before = site.snapshot()
        let failure = #expect(throws: BuildFailure.self) { try site.build() }
        let errors = failure?.diagnostics.filter(\.isError) ?? []
        #expect(errors.count == 1, "\(errors)")
        #expect(
            errors.first?.location
                == SourceLocation(
                    path: site.options.contentDirectory + "/" + file, line: front.line + 1,
                    column: front.column))
        #expect(errors.first?.message.hasPrefix(message) == true, "\(errors)")
        #expect(site.snapshot() == before)
    }

    @Test func aSiteInOneLanguageHasNoTranslationKey() throws {
        let site = try LanguageSite(
            config: "", entries: [("apple.md", "name: Apple\ncategory: Pomes")])
        defer { site.folder.remove() }
        try site.write("pomme.md", front: "name: Pomme\ncategory: Pépins\ntranslationKey: apple")
        let failure = #expect(throws: BuildFailure.self) { try site.build() }
        let errors = failure?.diagnostics.filter(\.isError) ?? []
        #expect(errors.map(\.message) == ["only a translation has a 'translationKey'"])
        #expect(
            errors.first?.hint == "list the site's languages under 'languages' in fruitsite.yml")
    }
}
