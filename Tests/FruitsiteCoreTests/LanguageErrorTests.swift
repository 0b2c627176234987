import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// What is wrong with a site's languages is an error at the file, or at the line and column
/// of the config, and a build reports every one of them together.
@Suite struct LanguageErrorTests {
    /// A config whose `1️⃣` marks the one error, and what the error says.
    @Test(arguments: [
        (
            "languages:\n  - {code: en}\n  - {code: 1️⃣xx}\n",
            "'xx' is not a language fruitsite knows"
        ),
        ("languages: [{code: en}, {code: 1️⃣fr_CA}]\n", "'fr_CA' is not a language tag"),
        (
            "languages:\n  - {code: fr}\n  - {code: en}\n  - {code: 1️⃣FR}\n",
            "language 'FR' is listed twice"
        ),
        (
            "languages:\n  - 1️⃣{code: en, fallback: default}\n  - {code: fr}\n",
            "the default language 'en' cannot have a fallback"
        ),
        (
            "1️⃣language: en\nlanguages: [{code: en}, {code: fr}]\n",
            "'language' and 'languages' are both set"
        ),
        (
            "languages: [{code: en}, {code: fr}]\n1️⃣language: en\n",
            "'language' and 'languages' are both set"
        ),
        // The facets are read whichever comes first.
        (
            "languages: [{code: en}, {code: 1️⃣fr}]\nfacets: [vitamins, fr]\n",
            "language 'fr' and the facet 'fr' would write their pages in one folder"
        ),
        (
            "facets: [de]\nlanguages: [{code: en}, {code: 1️⃣de}]\n",
            "language 'de' and the facet 'de' would write their pages in one folder"
        ),
        (
            "languages: [{code: en}, {code: fr, fallback: 1️⃣maybe}]\n",
            "'languages.fallback' must be 'none' or 'default'"
        ),
        ("languages: [{code: en}, 1️⃣{title: Fruits}]\n", "a language needs a 'code'"),
        ("languages: [{code: en}, {code: fr, 1️⃣titel: Fruits}]\n", "unknown key 'languages.titel'"),
        ("languages: [{code: en}, {code: 1️⃣[fr]}]\n", "'languages.code' must be a string"),
        ("languages: [{code: en}, 1️⃣fr]\n", "each language must be a map with a 'code'"),
        ("languages: 1️⃣fr\n", "'languages' must be a list of languages"),
        ("languages: 1️⃣[]\n", "'languages' must be a list of languages"),
        (
            "1️⃣defaultLanguageInSubfolder: true\n",
            "'defaultLanguageInSubfolder' needs the site's 'languages'"
        ),
        (
            "languages: [{code: en}, {code: fr}]\ndefaultLanguageInSubfolder: 1️⃣yes please\n",
            "'defaultLanguageInSubfolder' must be true or false"
        ),
        // With it, the default language has a folder too.
        (
            "defaultLanguageInSubfolder: true\nfacets: [en]\nlanguages: [{code: 1️⃣en}, {code: fr}]\n",
            "language 'en' and the facet 'en' would write their pages in one folder"
        ),
    ])
    func aLanguageErrorIsAtItsLineAndColumn(marked: String, message: String) {
        let config = MarkedText(marked, columns: .unicodeScalars)
        var problems: [Diagnostic] = []
        _ = SiteConfig(yaml: config.text, path: "fruitsite.yml", problems: &problems)
        let errors = problems.filter(\.isError)
        #expect(errors.count == 1, "\(errors)")
        #expect(
            errors.first?.location
                == SourceLocation(path: "fruitsite.yml", line: config.line, column: config.column))
        #expect(errors.first?.message.hasPrefix(message) == true, "\(errors)")
    }

    /// A file whose name ends in a code that is no language of the site is an error at the
    /// file, which says what the site's languages are, or how to have some.
    @Test(arguments: [(LanguageSite.bilingual, "the site's languages are en, fr"), ("", "rename")])
    func aFileInAnotherLanguageIsAnErrorAtTheFile(config: String, hint: String) throws {
        let site = try LanguageSite(
            config: config, entries: [("apple.md", "name: Apple\ncategory: Pomes")])
        defer { site.folder.remove() }
        try site.write("apple.de.md", front: "name: Apfel\ncategory: Kernobst")
        let failure = #expect(throws: BuildFailure.self) { try site.build() }
        let errors = failure?.diagnostics.filter(\.isError) ?? []
        #expect(errors.map(\.location.path) == [site.options.contentDirectory + "/apple.de.md"])
        #expect(errors.first?.message == "'de' in the file name is not a language of the site")
        #expect(errors.first?.hint?.contains(hint) == true, "\(errors)")
        #expect(!site.exists("index.html"), "nothing is written")
    }

    /// A dotted name whose last part has a language tag's shape but is no language is a slug
    /// that is not valid, as it was before sites had languages: not a language to list.
    @Test(arguments: [LanguageSite.bilingual, ""])
    func aDottedNameIsNoLanguage(config: String) throws {
        let site = try LanguageSite(
            config: config, entries: [("apple.md", "name: Apple\ncategory: Pomes")])
        defer { site.folder.remove() }
        try site.write("blood.orange.md", front: "name: Blood Orange\ncategory: Citrus")
        let failure = #expect(throws: BuildFailure.self) { try site.build() }
        let errors = failure?.diagnostics.filter(\.isError) ?? []
        #expect(errors.map(\.location.path) == [site.options.contentDirectory + "/blood.orange.md"])
        #expect(errors.first?.message == "file name 'blood.orange.md' is not a valid slug")
        #expect(
            errors.first?.hint
                == "slugs look like 'apple' or 'blood-orange'; rename the file to 'blood-orange.md'"
        )
    }

    /// The config's errors, and the content's in every language, come out of one build.
    @Test func aBuildReportsTheErrorsOfEveryLanguageTogether() throws {
        let config = MarkedText(
            """
            languages:
              - {code: en}
              - {code: fr, fallback: default}
              - {code: 1️⃣xx}

            """, columns: .unicodeScalars)
        let site = try LanguageSite(config: config.text)
        defer { site.folder.remove() }
        try site.write("apple.de.md", front: "name: Apfel\ncategory: Kernobst")
        try site.write("banana.fr.md", front: "category: Tropicaux")
        try site.write("cherry.md", front: "category: Stone")
        let failure = #expect(throws: BuildFailure.self) { try site.build() }
        let content = site.options.contentDirectory
        let errors = (failure?.diagnostics ?? []).filter(\.isError).map {
            "\($0.location.path.replacingOccurrences(of: site.folder.path + "/", with: "")):"
                + "\($0.location.line ?? 0): \($0.message)"
        }
        #expect(content.hasPrefix(site.folder.path))
        #expect(
            errors == [
                "Content/apple.ar.md:0: 'ar' in the file name is not a language of the site",
                "Content/apple.de.md:0: 'de' in the file name is not a language of the site",
                "Content/banana.fr.md:1: missing required key 'name'",
                "Content/cherry.md:1: missing required key 'name'",
                "fruitsite.yml:\(config.line): 'xx' is not a language fruitsite knows",
            ])
    }
}
