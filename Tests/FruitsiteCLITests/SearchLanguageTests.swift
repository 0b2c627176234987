import Foundation
@testable import FruitsiteCLI
import TestSupport
import Testing

/// `fruitsite search --language CODE` searches one language's catalog, as that language's
/// pages' search box does.
@Suite struct SearchLanguageTests {
    /// A site in English and French, which shows the English cherry by fallback, and the
    /// arguments that search it.
    private func site(config: String? = nil) throws -> (TemporaryDirectory, [String]) {
        let folder = try TemporaryDirectory()
        let entries = [
            ("apple.md", "name: Apple\ncategory: Pomes"),
            ("apple.fr.md", "name: Pomme\ncategory: Pépins"),
            ("banana.md", "name: Banana\ncategory: Tropical"),
            ("banana.fr.md", "name: Banane\ncategory: Tropicaux"),
            ("cherry.md", "name: Cherry\ncategory: Stone"),
            ("eglantier.fr.md", "name: Églantier\ncategory: Sauvages"),
        ]
        for (name, front) in entries {
            try folder.write("Content/" + name, "---\n\(front)\n---\nText.\n")
        }
        try folder.write(
            "fruitsite.yml",
            config ?? "languages: [{code: en}, {code: fr, fallback: default}]\n")
        let arguments = [
            "search", "--content", folder.path + "/Content", "--config",
            folder.path + "/fruitsite.yml",
        ]
        return (folder, arguments)
    }

    @Test func searchesTheCatalogOfTheLanguageInItsOrder() throws {
        let (folder, search) = try site()
        defer { folder.remove() }
        // French order: `É` among the `E`s, the English fallback in its place.
        for language in ["fr", "FR"] {
            let (code, capture) = Capture.run(search + ["--language", language, ""])
            #expect(code == .success, "\(capture.standardError)")
            #expect(capture.standardOutput == "Banane\nCherry\nÉglantier\nPomme\n")
        }
        let (_, pomme) = Capture.run(search + ["--language=fr", "pom"])
        #expect(pomme.standardOutput == "Pomme\n")
        let (_, json) = Capture.run(
            search + ["--language", "fr", "--category", "Pépins", "--json"])
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
                as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == ["Pomme"])
        // Without it, or with the first's code, the default language's.
        for language in [[], ["--language", "en"]] {
            let (code, english) = Capture.run(search + language + [""])
            #expect(code == .success)
            #expect(english.standardOutput == "Apple\nBanana\nCherry\n")
        }
        // A category of the French catalog alone is not the English one's.
        let (code, capture) = Capture.run(search + ["--category", "Pépins", ""])
        #expect(code == .usage)
        #expect(capture.standardError.contains("no category is named 'Pépins'"))
    }

    @Test(arguments: [
        ("de", "error: 'de' is not one of the site's languages; the site's languages: en, fr\n"),
        ("fra", "error: 'fra' is not one of the site's languages; did you mean 'fr'?\n"),
    ])
    func aLanguageTheSiteDoesNotHaveIsAUsageError(language: String, message: String) throws {
        let (folder, search) = try site()
        defer { folder.remove() }
        let (code, capture) = Capture.run(search + ["--language", language, ""])
        #expect(code == .usage)
        #expect(capture.standardOutput.isEmpty)
        #expect(capture.standardError.hasPrefix(message), "\(capture.standardError)")
    }

    /// A site in one language has that language alone.
    @Test func aSiteInOneLanguageHasItsOwn() throws {
        let (folder, search) = try site(config: "language: fr\n")
        defer { folder.remove() }
        try FileManager.default.removeItem(atPath: folder.path + "/Content/apple.fr.md")
        try FileManager.default.removeItem(atPath: folder.path + "/Content/banana.fr.md")
        try FileManager.default.removeItem(atPath: folder.path + "/Content/eglantier.fr.md")
        let (code, capture) = Capture.run(search + ["--language", "fr", ""])
        #expect(code == .success, "\(capture.standardError)")
        #expect(capture.standardOutput == "Apple\nBanana\nCherry\n")
        let (english, error) = Capture.run(search + ["--language", "en", ""])
        #expect(english == .usage)
        #expect(error.standardError.hasPrefix("error: 'en' is not one of the site's languages; "))
    }

    /// A language the config lists in error is not one of the site's: the config's error is
    /// what search reports, as build does, not that the site has no such language.
    @Test func aLanguageListedInErrorReportsTheConfigsError() throws {
        let config = "languages: [{code: en}, {code: fr}]\nfacets: [fr]\n"
        let (folder, search) = try site(config: config)
        defer { folder.remove() }
        let (code, capture) = Capture.run(search + ["--language", "fr", ""])
        #expect(code == .failure)
        #expect(capture.standardOutput.isEmpty)
        #expect(
            capture.standardError.contains(
                folder.path + "/fruitsite.yml:1:32: error: language 'fr' and the facet 'fr' "
                    + "would write their pages in one folder"),
            "\(capture.standardError)")
        #expect(!capture.standardError.contains("is not one of the site's languages"))
    }
}
