import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// `check` reads the links and alternates of every language's pages together.
@Suite struct LanguageCheckTests {
    /// A broken link in a French body is found on the French page, and placed in the French
    /// file; the same link in an English body French shows by fallback, on both its pages, in
    /// the English file, in one warning.
    @Test func placesABrokenLinkInTheFileOfItsLanguage() throws {
        let site = try LanguageSite(config: LanguageSite.trilingual)
        defer { site.folder.remove() }
        try site.write(
            "apple.fr.md", front: "name: Pomme\ncategory: Pépins", body: "Voir [rien](../rien/).\n")
        try site.write(
            "cherry.md", front: "name: Cherry\ncategory: Stone", body: "See [it](../rien/).\n")
        let checked = try site.builder.check()
        let content = site.options.contentDirectory
        let message = "link '../rien/' leads nowhere: no such page in the site"
        #expect(
            LanguageSite.others(checked.warnings).map(\.description) == [
                "\(content)/apple.fr.md:5:13: warning: \(message) (on fr/fruits/apple/index.html)",
                "\(content)/cherry.md:5:10: warning: \(message) (on fr/fruits/cherry/index.html "
                    + "and 1 more)",
            ])
    }

    /// A theme whose layout names a German page the site does not have, on every page: check
    /// warns once at the layout's line, for the pages of every language; and on the pages
    /// that had no alternates, that these name neither the page nor `x-default`.
    @Test func warnsOnceOfAnAlternateThatLeadsNowhereInEveryLanguage() throws {
        var site = try LanguageSite(config: LanguageSite.trilingual)
        defer { site.folder.remove() }
        // The pages that have no alternates with the default theme.
        try site.build()
        let unnamed = try site.files.filter {
            try $0.hasSuffix(".html") && LanguageSite.alternates(of: site.page($0)).isEmpty
        }
        #expect(unnamed.first == "404.html" && unnamed.contains("fr/fruits/cherry/index.html"))
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Templates", toPath: site.folder.path + "/Templates")
        site.options.templatesDirectory = site.folder.path + "/Templates"
        let layout = try site.folder.read("Templates/layout.mustache")
        let section = "{{/alternates}}\n"
        let german = "https://example.org/shop/de/"
        let wrong = #"<link rel="alternate" hreflang="de" href="\#(german)">"#
        #expect(layout.contains(section))
        try site.folder.write(
            "Templates/layout.mustache",
            layout.replacingOccurrences(
                of: section, with: section + "{{#hasLanguages}}\(wrong){{/hasLanguages}}\n"))
        let lines = try site.folder.read("Templates/layout.mustache").split(
            separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains(wrong) }) + 1
        let column =
            try #require(lines[line - 1].range(of: german)).lowerBound.utf16Offset(
                in: lines[line - 1]) + 1
        let checked = try SiteBuilder(options: site.options).check()
        let place = site.options.templatesDirectory + "/layout.mustache:\(line):\(column)"
        let others = "(on 404.html and \(unnamed.count - 1) more)"
        #expect(
            LanguageSite.others(checked.warnings).map(\.description) == [
                "\(place): warning: the alternate 'de' leads to de/index.html, which is no page "
                    + "of the site (on 404.html and \(checked.htmlPageCount - 1) more)",
                "\(place): warning: the alternates do not name this page itself \(others)\n"
                    + "  hint: a page names itself too, as the alternate of its own language",
                "\(place): warning: the alternates name no 'x-default' \(others)\n"
                    + "  hint: add one with hreflang=\"x-default\": the page for a reader whose "
                    + "language none of the others is",
            ])
    }
}
