import FruitsiteCore
import Foundation
@testable import FruitsiteCLI
import TestSupport
import Testing

/// `fruitsite new --language CODE [--translates SLUG]` in a site in several languages: a
/// translation that builds, named and keyed as the build reads it, or nothing written.
extension NewCommandTests {
    /// A site in English and French, French showing untranslated entries: apple, cherry, kiwi
    /// and lemon in English, the cherry in French by its name, the apple as `pomme.fr.md`
    /// when `translatedApple`.
    static func bilingualSite(translatedApple: Bool = false) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try folder.write(
            "fruitsite.yml",
            "baseURL: https://example.org/\nlanguages:\n  - code: en\n  - code: fr\n"
                + "    fallback: default\n")
        for (file, name, category) in [
            ("apple.md", "Apple", "Pomes"), ("cherry.md", "Cherry", "Drupes"),
            ("kiwi.md", "Kiwi", "Vines"), ("citrus/lemon.md", "Lemon", "Citrus"),
            ("cherry.fr.md", "Cerise", "Drupes"),
        ] {
            try folder.write("Content/" + file, "---\nname: \(name)\ncategory: \(category)\n---\n")
        }
        if translatedApple {
            try folder.write(
                "Content/pomme.fr.md",
                "---\nname: Pomme\ncategory: Pépins\ntranslationKey: apple\n---\n")
        }
        return folder
    }

    /// `arguments` after `new`, with the site's folders.
    static func new(_ arguments: [String], in folder: TemporaryDirectory) -> (
        CLI.ExitCode, Capture
    ) {
        Capture.run(["new"] + arguments + siteOptions(folder, command: "new"))
    }

    /// The options that point a command at the site in `folder`.
    static func siteOptions(_ folder: TemporaryDirectory, command: String) -> [String] {
        ["--content", folder.path + "/Content", "--config", folder.path + "/fruitsite.yml"]
            + (command == "new" ? [] : ["--templates", repositoryRoot + "/Templates"])
            + ["--output", folder.path + "/Output", "--cache-dir", folder.path + "/.cache"]
    }

    /// The content folder's files, relative to it and sorted.
    static func contentFiles(_ folder: TemporaryDirectory) -> [String] {
        (FileManager.default.subpaths(atPath: folder.path + "/Content") ?? []).filter {
            $0.hasSuffix(".md")
        }.sorted()
    }

    @Test func newWritesATranslationThatBuilds() throws {
        let folder = try Self.bilingualSite()
        defer { folder.remove() }
        let content = folder.path + "/Content"
        // Named otherwise: the key is written. The code is the config's spelling.
        let (code, capture) = Self.new(
            ["Pomme", "--category", "Pépins", "--language", "FR", "--translates", "apple"],
            in: folder)
        #expect(code == .success, "\(capture.standardError)")
        #expect(capture.standardOutput == content + "/pomme.fr.md\n")
        #expect(capture.standardError.isEmpty, "\(capture.standardError)")
        let pomme = try folder.read("Content/pomme.fr.md")
        #expect(pomme.hasPrefix("---\nname: \"Pomme\"\ncategory: \"Pépins\"\n"), "\(pomme)")
        #expect(pomme.contains("\ntranslationKey: \"apple\"\n---\n"), "\(pomme)")
        // Named as its entry: no key. Its category may be one the English kiwi, which the
        // French catalog shows until now, spells otherwise.
        let (kiwiCode, kiwi) = Self.new(
            ["Kiwi", "--category", "vines", "--language", "fr", "--translates", "kiwi"],
            in: folder)
        #expect(kiwiCode == .success, "\(kiwi.standardError)")
        #expect(kiwi.standardOutput == content + "/kiwi.fr.md\n")
        #expect(!(try folder.read("Content/kiwi.fr.md")).contains("translationKey"))
        // The lemon, in a folder, by its name alone; the default language's code writes none.
        let (lemonCode, lemon) = Self.new(
            ["Lemon", "--category", "Agrumes", "--language", "fr"], in: folder)
        #expect(lemonCode == .success, "\(lemon.standardError)")
        #expect(lemon.standardError.isEmpty, "\(lemon.standardError)")
        let (limeCode, lime) = Self.new(
            ["Lime", "--category", "Citrus", "--language", "en"], in: folder)
        #expect(limeCode == .success, "\(lime.standardError)")
        #expect(lime.standardOutput == content + "/lime.md\n")
        #expect(
            Self.contentFiles(folder) == [
                "apple.md", "cherry.fr.md", "cherry.md", "citrus/lemon.md", "kiwi.fr.md",
                "kiwi.md", "lemon.fr.md", "lime.md", "pomme.fr.md",
            ])

        let (buildCode, build) = Capture.run(
            ["build"] + Self.siteOptions(folder, command: "build"))
        #expect(buildCode == .success, "\(build.standardError)")
        #expect(build.standardError.isEmpty, "\(build.standardError)")
        let french = try folder.read("Output/fr/fruits/pomme/index.html")
        #expect(french.contains(#"<a href="../../../fruits/apple/" hreflang="en""#))
        let english = try folder.read("Output/fruits/apple/index.html")
        #expect(english.contains(#"<a href="../../fr/fruits/pomme/" hreflang="fr""#))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Output/fr/fruits/apple"))
        #expect(
            try folder.read("Output/fruits/lemon/index.html").contains(
                #"<a href="../../fr/fruits/lemon/" hreflang="fr""#))
    }

    /// What the build would refuse, `new` refuses, naming the file; from the entries parsed,
    /// and from the model a build saved, which knows which entry each translation names.
    @Test(arguments: [false, true])
    func refusesATranslationTheBuildWouldRefuse(afterABuild: Bool) throws {
        let folder = try Self.bilingualSite(translatedApple: true)
        defer { folder.remove() }
        let content = folder.path + "/Content"
        if afterABuild {
            let (code, build) = Capture.run(["build"] + Self.siteOptions(folder, command: "build"))
            #expect(code == .success, "\(build.standardError)")
            #expect(build.standardError.isEmpty, "\(build.standardError)")
        }
        let files = Self.contentFiles(folder)
        for (arguments, expected) in [
            (
                ["Apple", "--language", "fr"],
                "Content/apple.fr.md: error: 'apple' has a 'fr' translation already: "
                    + content + "/pomme.fr.md"
            ),
            (
                ["Malus", "--language", "fr", "--translates", "apple"],
                "Content/malus.fr.md: error: 'apple' has a 'fr' translation already: "
                    + content + "/pomme.fr.md"
            ),
            (
                ["Griotte", "--language", "fr", "--translates", "cherry"],
                "error: 'cherry' has a 'fr' translation already: " + content + "/cherry.fr.md"
            ),
            (
                ["Kiwi", "--language", "fr", "--translates", "kiwo"],
                "Content/kiwi.fr.md: error: the default language has no entry 'kiwo' to "
                    + "translate\n  hint: did you mean '--translates kiwi'?"
            ),
            (
                ["Kiwi", "--language", "fr", "--translates", "durian"],
                "error: the default language has no entry 'durian' to translate\n  hint: "
                    + "name the slug of one of its entries, its file's name without '.md' "
                    + "('apple' for apple.md); 'fruitsite search --json' lists"
            ),
            // Named like the English lemon, which French shows untranslated at that slug.
            (
                ["Lemon", "--language", "fr", "--translates", "kiwi"],
                "Content/lemon.fr.md: error: the default language's 'lemon' has no 'fr' "
                    + "translation, and is shown in its place at this slug\n  hint: translate "
                    + "it first ('--translates lemon'), or give this translation another name"
            ),
            (
                ["Pomme", "--language", "fr", "--translates", "kiwi"],
                "error: an entry named 'pomme' exists already in 'fr': " + content + "/pomme.fr.md"
            ),
            // The French catalog's own spelling of the category, and that of the English kiwi
            // that it shows until the kiwi is translated.
            (
                ["Prune", "--category", "drupes", "--language", "fr"],
                "category 'drupes' is spelled 'Drupes' by cherry"
            ),
            (
                ["Raisin", "--category", "vines", "--language", "fr"],
                "category 'vines' is spelled 'Vines' by kiwi"
            ),
        ] {
            let (code, capture) = Self.new(
                arguments + (arguments.contains("--category") ? [] : ["--category", "X"]),
                in: folder)
            #expect(code == .failure, "\(arguments)")
            #expect(capture.standardError.contains(expected), "\(capture.standardError)")
            #expect(capture.standardError.contains("1 error; nothing was written"))
            #expect(capture.standardOutput.isEmpty)
            #expect(Self.contentFiles(folder) == files, "\(arguments)")
        }
        // A category of the English entries alone is the French catalog's to spell.
        let (pearCode, pear) = Self.new(
            ["Poire", "--category", "pomes", "--language", "fr"], in: folder)
        #expect(pearCode == .success, "\(pear.standardError)")
    }

    /// A translation of no entry is written, with the build's warning that it is a page of
    /// its language alone.
    @Test func warnsOfAPageOfOneLanguage() throws {
        let folder = try Self.bilingualSite()
        defer { folder.remove() }
        let (code, capture) = Self.new(
            ["Mirabelle", "--category", "Drupes", "--language", "fr"], in: folder)
        #expect(code == .success, "\(capture.standardError)")
        #expect(capture.standardOutput == folder.path + "/Content/mirabelle.fr.md\n")
        #expect(
            capture.standardError.contains(
                "Content/mirabelle.fr.md: warning: the default language has no 'mirabelle' for "
                    + "this to translate: it is a page of 'fr' alone"),
            "\(capture.standardError)")
        let (buildCode, build) = Capture.run(["build"] + Self.siteOptions(folder, command: "build"))
        #expect(buildCode == .success, "\(build.standardError)")
        #expect(build.standardError.contains("warning: the default language lists no 'mirabelle'"))
    }

    /// A language the site does not have, or a translation with none, is a wrong command
    /// line: exit status 2, and nothing written.
    @Test func aLanguageTheSiteLacksIsAUsageError() throws {
        let folder = try Self.bilingualSite()
        defer { folder.remove() }
        let files = Self.contentFiles(folder)
        for (arguments, expected) in [
            (["--language", "de"], "error: 'de' is not one of the site's languages: en, fr\n"),
            (
                ["--translates", "kiwi"],
                "error: --translates needs --language CODE, the translation's language\n"
            ),
            (
                ["--language", "EN", "--translates", "kiwi"],
                "error: 'en' is the default language, whose entries translate none"
            ),
        ] {
            let (code, capture) = Self.new(["Kiwi", "--category", "X"] + arguments, in: folder)
            #expect(code == .usage, "\(arguments)")
            #expect(capture.standardError.hasPrefix(expected), "\(capture.standardError)")
            #expect(Self.contentFiles(folder) == files)
        }
        // A site in one language: where to list its languages.
        try folder.write("fruitsite.yml", "language: en\n")
        try FileManager.default.removeItem(atPath: folder.path + "/Content/cherry.fr.md")
        let (code, capture) = Self.new(
            ["Kiwi", "--category", "X", "--language", "fr"], in: folder)
        #expect(code == .usage)
        #expect(
            capture.standardError.hasPrefix(
                "error: 'fr' is not the site's language, 'en', its only one; list its languages "
                    + "under 'languages' in \(folder.path)/fruitsite.yml to write translations\n"),
            "\(capture.standardError)")
        // Its own language's code writes a file with none.
        let (ownCode, own) = Self.new(
            ["Fig", "--category", "X", "--language", "en"], in: folder)
        #expect(ownCode == .success, "\(own.standardError)")
        #expect(own.standardOutput == folder.path + "/Content/fig.md\n")
        // A config in error is reported: its languages may be the ones left out.
        try folder.write("fruitsite.yml", "languages: fr\n")
        let (brokenCode, broken) = Self.new(
            ["Pear", "--category", "X", "--language", "fr"], in: folder)
        #expect(brokenCode == .failure)
        #expect(
            broken.standardError.contains("fruitsite.yml:1:12: error: 'languages' must be a list"),
            "\(broken.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Content/pear.fr.md"))
    }
}
