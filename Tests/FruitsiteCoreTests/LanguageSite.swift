import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// A small site in several languages in a temporary folder, built with the repository's
/// theme into `Output/`, and what its pages say of their languages.
struct LanguageSite {
    let folder: TemporaryDirectory
    var options = BuildOptions()
    /// The clock; an hour ahead when the files are to look settled, their statuses trusted
    /// at once (see `FileStatus.isSettled(at:)`), rather than each file just written read
    /// again.
    var now: @Sendable () -> Date = { Date() }

    /// The two languages every test site has: English, the default, and French, which shows
    /// the English entry where it lacks a translation.
    static let bilingual = """
        languages:
          - {code: en, title: Fruit Catalog}
          - {code: fr, title: Catalogue de fruits, fallback: default}

        """

    /// Three languages, with Arabic, which has no fallback, and a base URL under a path.
    static let trilingual = """
        baseURL: https://example.org/shop/
        languages:
          - {code: en, title: Fruit Catalog}
          - {code: fr, title: Catalogue de fruits, fallback: default}
          - {code: ar, title: كتالوج الفواكه, fallback: none}

        """

    /// The entries of the test sites, `(file name, front matter)`: three in English, two of
    /// them translated into French and one into Arabic, and one in French alone. The French
    /// names sort differently by French collation (`Églantier` among the `E`s) than by code
    /// point (after `Z`); Églantier translates no English entry, which is a warning. Only
    /// the English apple has a value of a facet: the other languages
    /// have no page of the facet's values.
    static let entries = [
        ("apple.md", "name: Apple\ncategory: Pomes\nvitamins: [C]"),
        ("apple.fr.md", "name: Pomme\ncategory: Pépins"),
        ("apple.ar.md", "name: تفاح\ncategory: تفاحيات"),
        ("banana.md", "name: Banana\ncategory: Tropical"),
        ("banana.fr.md", "name: Banane\ncategory: Tropicaux"),
        ("cherry.md", "name: Cherry\ncategory: Stone"),
        ("eglantier.fr.md", "name: Églantier\ncategory: Sauvages"),
    ]

    /// The warnings of `warnings` but the one every test site has, whose French Églantier
    /// translates no English entry; expects that one among them once.
    static func others(_ warnings: [Diagnostic]) -> [Diagnostic] {
        let isEglantier = { (warning: Diagnostic) in
            warning.location.path.hasSuffix("/Content/eglantier.fr.md")
                && warning.message
                    == "the default language lists no 'eglantier' for this to translate"
        }
        #expect(warnings.count(where: isEglantier) == 1, "\(warnings)")
        return warnings.filter { !isEglantier($0) }
    }

    /// - Parameters:
    ///   - config: The text of `fruitsite.yml`.
    ///   - entries: `(file name, front matter)` of each entry written in `Content/`.
    init(config: String, entries: [(String, String)] = Self.entries) throws {
        folder = try TemporaryDirectory()
        for (name, front) in entries { try write(name, front: front) }
        try folder.write("fruitsite.yml", config)
        options.contentDirectory = folder.path + "/Content"
        options.templatesDirectory = repositoryRoot + "/Templates"
        options.outputDirectory = folder.path + "/Output"
        options.cacheDirectory = folder.path + "/.cache"
        options.configPath = folder.path + "/fruitsite.yml"
    }

    /// Writes the entry `Content/<name>` with `front` as its front matter.
    func write(_ name: String, front: String, body: String = "Text.\n") throws {
        try folder.write("Content/" + name, "---\n\(front)\n---\n\(body)")
    }

    func remove(_ name: String) throws {
        try FileManager.default.removeItem(atPath: folder.path + "/Content/" + name)
    }

    /// A builder of the site with its options and clock.
    var builder: SiteBuilder {
        var builder = SiteBuilder(options: options)
        builder.now = now
        return builder
    }

    @discardableResult
    func build() throws -> SiteBuilder.Rendering {
        try builder.build()
    }

    /// Builds into `Output` (incrementally when it holds a build), then cleanly into `Clean`,
    /// and expects the two folders to hold the same files with the same bytes, the marker
    /// included.
    @discardableResult
    func buildAndCompare(_ step: String) throws -> SiteBuilder.Rendering {
        let incremental = try build()
        try IncrementalBuildTests.expectSameAsACleanBuild(options, in: folder.path, step)
        return incremental
    }

    /// The output's files and their bytes, to tell which files a build changed.
    func snapshot() -> [String: Data] {
        let output = folder.path + "/Output/"
        var files: [String: Data] = [:]
        for path in filesBelow(output) {
            files[path] = FileManager.default.contents(atPath: output + path)
        }
        return files
    }

    /// The output's files whose bytes differ between two snapshots, or which only one has.
    static func changes(from old: [String: Data], to new: [String: Data]) -> Set<String> {
        Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }
    }

    /// The text of `Output/<path>`.
    func page(_ path: String) throws -> String { try folder.read("Output/" + path) }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.path + "/Output/" + path)
    }

    /// The output's files but the theme's assets, which every language has alike.
    var files: [String] {
        filesBelow(folder.path + "/Output").filter {
            !$0.hasPrefix(".") && !$0.contains("assets/")
        }
    }

    /// The names of the records of the search index in `folder` of the output (`fr/`), in
    /// order.
    func searchNames(in folder: String = "") throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(
            atPath: self.folder.path + "/Output/" + folder)
        let file = try #require(names.first { $0.hasPrefix("search-index.") })
        let index = try #require(
            try JSONSerialization.jsonObject(with: Data(page(folder + file).utf8))
                as? [String: Any])
        let fruits = try #require(index["fruits"] as? [[String: Any]])
        return fruits.compactMap { $0["name"] as? String }
    }

    // MARK: - What a page says of its languages

    /// One link of a page's language switcher.
    struct SwitcherLink: Equatable, CustomStringConvertible {
        var code: String
        var url: String
        var direction: String
        var isCurrent: Bool
        var isFallback: Bool

        var description: String {
            "\(code) \(url) \(direction)" + (isCurrent ? " current" : "")
                + (isFallback ? " fallback" : "")
        }
    }

    /// The links of the language switcher of the page `html`, in order.
    static func switcher(of html: String) -> [SwitcherLink] {
        let pattern =
            /<li><a href="([^"]*)" hreflang="([^"]*)" lang="[^"]*" dir="([^"]*)"( aria-current="page")?>[^<]*(<small>)?/
        return html.matches(of: pattern).map {
            SwitcherLink(
                code: String($0.2), url: String($0.1), direction: String($0.3),
                isCurrent: $0.4 != nil, isFallback: $0.5 != nil)
        }
    }

    /// The `hreflang` alternates of the page `html`, by language.
    static func alternates(of html: String) -> [String: String] {
        let pattern = /<link rel="alternate" hreflang="([^"]*)" href="([^"]*)">/
        var alternates: [String: String] = [:]
        for match in html.matches(of: pattern) {
            #expect(alternates[String(match.1)] == nil, "one alternate per language")
            alternates[String(match.1)] = String(match.2)
        }
        return alternates
    }

    /// The page's canonical URL, or nil.
    static func canonical(of html: String) -> String? {
        html.firstMatch(of: /<link rel="canonical" href="([^"]*)">/).map { String($0.1) }
    }

    /// Whether the page asks search engines not to index it.
    static func isNoindex(_ html: String) -> Bool {
        html.contains(#"<meta name="robots" content="noindex">"#)
    }

    /// The `lang` and `dir` of the page's `<html>`.
    static func htmlLanguage(of html: String) -> String? {
        html.firstMatch(of: /<html lang="([^"]*)" dir="([^"]*)">/).map { "\($0.1) \($0.2)" }
    }
}
