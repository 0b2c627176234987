import Foundation
@testable import FruitsiteCLI
import TestSupport
import Testing

/// `fruitsite check` reports hreflang alternates that do not agree at the line that writes
/// them.
@Suite struct CheckAlternatesTests {
    /// The default theme, its layout's head given an alternate of each page in English, as
    /// an absolute URL, and as `x-default`, from the root; then `extra`.
    private func site(withAlternate extra: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try Sample.copyInOneLanguage(to: folder.path)
        let layout = try folder.read("Templates/layout.mustache")
        let stylesheet = #"<link rel="stylesheet" href="{{assets.site.css}}">"# + "\n"
        #expect(layout.contains(stylesheet))
        let alternates = """
            <link rel="alternate" hreflang="en" href="{{site.baseURL}}{{page.path}}">
            <link rel="alternate" hreflang="x-default" href="{{root}}{{page.path}}">

            """
        try folder.write(
            "Templates/layout.mustache",
            layout.replacingOccurrences(of: stylesheet, with: stylesheet + alternates + extra))
        try folder.write("fruitsite.yml", "baseURL: https://example.org/shop/\n")
        return folder
    }

    private func check(_ folder: TemporaryDirectory) -> (CLI.ExitCode, Capture) {
        Capture.run([
            "check", "--content", folder.path + "/Content", "--templates",
            folder.path + "/Templates", "--config", folder.path + "/fruitsite.yml",
        ])
    }

    @Test func reportsAnAlternateThatLeadsNowhereWhereTheLayoutWritesIt() throws {
        let broken = #"<link rel="alternate" hreflang="fr" href="{{root}}fr/">"# + "\n"
        let folder = try site(withAlternate: broken)
        defer { folder.remove() }
        let layout = try folder.read("Templates/layout.mustache")
        let lines = layout.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0 + "\n" == broken }) + 1
        let column = try #require(broken.range(of: "fr/")).lowerBound.utf16Offset(in: broken) + 1
        let (code, capture) = check(folder)
        #expect(code == .success)
        let warnings = capture.standardError.split(separator: "\n").filter {
            $0.contains("warning:")
        }
        let message =
            "warning: the alternate 'fr' leads to fr/index.html, which is no page of the site"
        // The 404 page's links are from the base path, `/shop/fr/`, written nowhere as such.
        #expect(
            warnings == [
                "\(folder.path)/Templates: \(message) (on 404.html)",
                "\(folder.path)/Templates/layout.mustache:\(line):\(column): \(message) "
                    + "(on categories/ancient-fruits/index.html and 68 more)",
            ])
    }

    /// The same alternates without the broken one name each page itself and `x-default`:
    /// nothing to warn about.
    @Test func passesAlternatesThatAgree() throws {
        let folder = try site(withAlternate: "")
        defer { folder.remove() }
        let (code, capture) = check(folder)
        #expect(code == .success)
        #expect(capture.standardError.isEmpty, "\(capture.standardError)")
        #expect(capture.standardOutput.hasPrefix("No errors: "))
    }
}
