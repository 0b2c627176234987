import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// The site `serve` keeps in memory: every update leaves it as a fresh one would be, whether
/// it looks at every file or only at the paths a watcher reported.
@Suite struct LiveSiteTests {
    /// A live site over a copy of the sample in one language, and the files it serves.
    struct Live {
        let folder: TemporaryDirectory
        var options = BuildOptions()
        var site: SiteBuilder.LiveSite
        var files: [String: [UInt8]] = [:]

        init() throws {
            folder = try TemporaryDirectory()
            try Sample.copyInOneLanguage(to: folder.path)
            // A config of its own: none would be the working folder's, the sample's.
            try folder.write("fruitsite.yml", "")
            options.configPath = folder.path + "/fruitsite.yml"
            options.contentDirectory = folder.path + "/Content"
            options.templatesDirectory = folder.path + "/Templates"
            site = SiteBuilder.LiveSite(builder: SiteBuilder(options: options))
            try update(changing: nil)
        }

        @discardableResult
        mutating func update(changing paths: Set<String>?) throws -> SiteBuilder.LiveSite.Update {
            let update = try site.update(changing: paths)
            for file in update.files { files[file.path] = file.bytes }
            for path in update.removed { files[path] = nil }
            return update
        }

        /// Expects the files to be what a fresh live site makes of the folder now.
        func expectFresh(_ step: String) throws {
            var fresh = SiteBuilder.LiveSite(builder: SiteBuilder(options: options))
            let update = try fresh.update()
            let expected = Dictionary(
                uniqueKeysWithValues: update.files.map { ($0.path, $0.bytes) })
            #expect(files.keys.sorted() == expected.keys.sorted(), "\(step)")
            for (path, bytes) in expected where files[path] != bytes {
                Issue.record("\(step): \(path) differs from a fresh site")
            }
        }

        func path(_ name: String) -> String { options.contentDirectory + "/" + name }

        /// Gives the site a `fruitsite.yml` of `yaml`, and starts it anew from it.
        mutating func configure(_ yaml: String) throws {
            let config = folder.path + "/fruitsite.yml"
            try yaml.write(toFile: config, atomically: true, encoding: .utf8)
            options.configPath = config
            site = SiteBuilder.LiveSite(builder: SiteBuilder(options: options))
            files = [:]
            try update(changing: nil)
        }
    }

    /// The pages a browser has open come first, rendered from the applied content before the
    /// rest of the site, with the bytes the whole update gives them; an open page the edit
    /// does not change comes too (the server finds it unchanged). One it removes comes as
    /// removed, with the page a renamed fruit moved to.
    @Test func rendersTheOpenPagesFirst() throws {
        var live = try Live()
        defer { live.folder.remove() }
        // With the one-file search index, which pages name by its bytes, an edit to a name
        // changes what they link: they then wait for it, as the second edit shows.
        try live.configure("search: {index: sharded}\n")
        let config = live.folder.path + "/fruitsite.yml"
        let apple = live.path("apple.md")
        // A name far from the apple's moves it across the index pages.
        let text = try String(contentsOfFile: apple, encoding: .utf8)
        try text.replacingOccurrences(of: "name: Apple", with: "name: Zapple")
            .write(toFile: apple, atomically: true, encoding: .utf8)
        let open: Set<String> = ["fruits/apple/index.html", "index.html", "fruits/kiwi/index.html"]
        var first: [RenderedPage] = []
        var calls = 0
        let update = try live.site.update(changing: [apple], open: open) { pages, removed in
            first += pages
            calls += 1
            #expect(removed.isEmpty)
        }
        #expect(calls == 1)
        #expect(Set(first.map(\.path)) == open)
        let changed = Dictionary(uniqueKeysWithValues: update.files.map { ($0.path, $0.bytes) })
        for page in first where page.path != "fruits/kiwi/index.html" {
            #expect(changed[page.path] == page.bytes, "\(page.path)")
        }
        #expect(
            first.first { $0.path == "fruits/apple/index.html" }.map {
                String(decoding: $0.bytes, as: UTF8.self).contains("Zapple")
            } == true)
        #expect(
            live.files["fruits/kiwi/index.html"] == first.first { $0.path.contains("kiwi") }?.bytes)
        for file in update.files { live.files[file.path] = file.bytes }
        for path in update.removed { live.files[path] = nil }
        try live.expectFresh("after the name edit")

        let kiwi = live.path("kiwi.md")
        try FileManager.default.moveItem(atPath: kiwi, toPath: live.path("green-kiwi.md"))
        first = []
        var removed: [String] = []
        let renamed = try live.site.update(
            changing: [kiwi, live.path("green-kiwi.md")], open: ["fruits/kiwi/index.html"]
        ) {
            (first, removed) = ($0, $1)
        }
        #expect(removed == ["fruits/kiwi/index.html"])
        #expect(first.map(\.path) == ["fruits/green-kiwi/index.html"])
        #expect(
            renamed.files.first { $0.path == "fruits/green-kiwi/index.html" }?.bytes
                == first.first?.bytes)
        #expect(renamed.removed.contains("fruits/kiwi/index.html"))

        try FileManager.default.removeItem(atPath: apple)
        (first, removed) = ([], [])
        _ = try live.site.update(changing: [apple], open: ["fruits/apple/index.html"]) {
            (first, removed) = ($0, $1)
        }
        #expect(first.isEmpty)
        #expect(removed == ["fruits/apple/index.html"])

        try "search: {index: single}\n".write(toFile: config, atomically: true, encoding: .utf8)
        try live.update(changing: nil)
        let lime = live.path("lime.md")
        try String(contentsOfFile: lime, encoding: .utf8)
            .replacingOccurrences(of: "name: Lime", with: "name: Alime")
            .write(toFile: lime, atomically: true, encoding: .utf8)
        _ = try live.site.update(changing: [lime], open: ["index.html"]) { pages, _ in
            first += pages
        }
        #expect(first.isEmpty)
    }

    /// An open fruit page is found by its slug, which two files can share while one of them
    /// is a draft, and which passes from one file to another: each update renders the page
    /// of the listed fruit that has the slug then, and reports two listed fruits that share
    /// one, as a fresh site does.
    @Test func findsTheOpenPageOfTheFruitThatHasItsSlugNow() throws {
        var live = try Live()
        defer { live.folder.remove() }
        // Pages that name the one-file search index wait for the whole update.
        try live.configure("search: {index: sharded}\n")
        let open: Set<String> = ["fruits/apple/index.html"]
        func openPage(changing paths: [String]) throws -> String? {
            var page: String?
            let update = try live.site.update(changing: Set(paths.map(live.path)), open: open) {
                files, _ in page = files.first.map { String(decoding: $0.bytes, as: UTF8.self) }
            }
            for file in update.files { live.files[file.path] = file.bytes }
            for path in update.removed { live.files[path] = nil }
            return page
        }
        let other = "more/apple.md"
        try live.folder.write("Content/" + other, "---\nname: Other Apple\ncategory: Pome\n---\n")
        #expect(throws: BuildFailure.self) { try openPage(changing: [other]) }
        do {
            _ = try live.site.update(changing: [live.path(other)])
        } catch {
            #expect("\(error)".contains("duplicate slug 'apple'"))
        }

        try live.folder.write(
            "Content/" + other, "---\nname: Other Apple\ncategory: Pome\ndraft: true\n---\n")
        #expect(try openPage(changing: [other])?.contains("<h1><bdi>Apple<") == true)

        try live.folder.write("Content/" + other, "---\nname: Other Apple\ncategory: Pome\n---\n")
        try FileManager.default.removeItem(atPath: live.path("apple.md"))
        #expect(try openPage(changing: [other, "apple.md"])?.contains("Other Apple") == true)

        try FileManager.default.moveItem(
            atPath: live.path(other), toPath: live.path("more/green-apple.md"))
        try live.folder.write("Content/apple.md", "---\nname: New Apple\ncategory: Pome\n---\n")
        let page = try openPage(changing: [other, "more/green-apple.md", "apple.md"])
        #expect(page?.contains("New Apple") == true)
        try live.update(changing: nil)
        try live.expectFresh("after the slug passed between files")
    }

    /// Entries are parsed for the facets: when the config's facets change, the next update
    /// parses every file again, whatever the watcher reported, and drops the old facet's pages.
    /// It takes the path a build takes when the saved model cannot be used, and says why.
    @Test func otherFacetsParseEveryFileAgain() throws {
        var live = try Live()
        defer { live.folder.remove() }
        try live.configure("facets: [vitamins]\n")
        let config = live.folder.path + "/fruitsite.yml"
        #expect(live.files["vitamins/c/index.html"] != nil)
        try "facets: [origin]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let update = try live.update(changing: [config])
        #expect(
            update.rendering.notes.first
                == "building clean: the saved model was built with other facets")
        var fresh = SiteBuilder.LiveSite(builder: SiteBuilder(options: live.options))
        #expect(update.rendering.parsed == (try fresh.update()).rendering.parsed)
        #expect(live.files["vitamins/c/index.html"] == nil)
        #expect(live.files.keys.contains { $0.hasPrefix("origin/") })
        try live.expectFresh("facets changed")
    }

    @Test func updatesFromTheReportedPathsAsFromEveryFile() throws {
        var live = try Live()
        defer { live.folder.remove() }
        let apple = live.path("apple.md")
        try (try String(contentsOfFile: apple, encoding: .utf8) + "\nEdited.\n")
            .write(toFile: apple, atomically: true, encoding: .utf8)
        try live.update(changing: [apple, live.folder.path + "/Templates/index.mustache"])
        #expect(
            String(decoding: live.files["fruits/apple/index.html"]!, as: UTF8.self).contains(
                "Edited."))
        try live.expectFresh("text edit")

        try live.folder.write("Content/zucchini.md", "---\nname: Zucchini\ncategory: Gourds\n---\n")
        try live.update(changing: [live.path("zucchini.md"), live.path(".zucchini.md.swp")])
        try live.expectFresh("new file")

        try FileManager.default.removeItem(atPath: live.path("banana.md"))
        try live.update(changing: [live.path("banana.md")])
        try live.expectFresh("deleted file")

        // Only the reported paths are looked at: a change nobody reported waits for an
        // update that looks at everything.
        let cherry = live.path("cherry.md")
        try (try String(contentsOfFile: cherry, encoding: .utf8) + "\nUnreported.\n")
            .write(toFile: cherry, atomically: true, encoding: .utf8)
        try live.update(changing: [apple])
        let page = { String(decoding: live.files["fruits/cherry/index.html"]!, as: UTF8.self) }
        #expect(!page().contains("Unreported."))
        try live.update(changing: nil)
        #expect(page().contains("Unreported."))
        try live.expectFresh("after looking at everything")
    }

    /// The theme is compiled again when a path under the templates folder is reported: a
    /// template's change then shows like a fresh site's, an asset's too.
    @Test func compilesTheThemeAgainWhenATemplateIsReported() throws {
        var live = try Live()
        defer { live.folder.remove() }
        let template = live.options.templatesDirectory + "/fruit.mustache"
        try (try String(contentsOfFile: template, encoding: .utf8) + "<!-- second version -->\n")
            .write(toFile: template, atomically: true, encoding: .utf8)
        let page = { String(decoding: live.files["fruits/apple/index.html"]!, as: UTF8.self) }
        // Reported with a content file alone, the change waits, as an unreported entry does.
        try live.update(changing: [live.path("cherry.md")])
        #expect(!page().contains("second version"))
        try live.update(changing: [template])
        #expect(page().contains("second version"))
        try live.expectFresh("template edit")

        let stylesheet = live.options.templatesDirectory + "/assets/site.css"
        try "body { color: teal; }\n".write(toFile: stylesheet, atomically: true, encoding: .utf8)
        try live.update(changing: [stylesheet])
        #expect(live.files["assets/site.css"] == Array("body { color: teal; }\n".utf8))
        try live.expectFresh("asset edit")
    }

    @Test func looksAtEveryFileAfterAFailedUpdate() throws {
        var live = try Live()
        defer { live.folder.remove() }
        try live.folder.write("Content/broken.md", "---\nname: [\n---\n")
        #expect(throws: BuildFailure.self) {
            try live.update(changing: [live.path("broken.md")])
        }
        // An edit elsewhere: the broken file, not reported this time, still fails the update.
        let cherry = live.path("cherry.md")
        try (try String(contentsOfFile: cherry, encoding: .utf8) + "\nRipe.\n")
            .write(toFile: cherry, atomically: true, encoding: .utf8)
        #expect(throws: BuildFailure.self) { try live.update(changing: [cherry]) }
        try FileManager.default.removeItem(atPath: live.path("broken.md"))
        try live.update(changing: [live.path("broken.md")])
        try live.expectFresh("after the fix")
    }

    @Test func looksAtEveryFileWhenTheContentHasSymbolicLinks() throws {
        var live = try Live()
        defer { live.folder.remove() }
        try live.folder.write(
            "Content/.store/quince.md", "---\nname: Quince\ncategory: Pome\n---\n")
        try FileManager.default.removeItem(atPath: live.path("quince.md"))
        try FileManager.default.createSymbolicLink(
            atPath: live.path("quince.md"), withDestinationPath: live.path(".store/quince.md"))
        try live.update(changing: nil)
        // The change is reported under the link's target only, which is no entry's path.
        try live.folder.write(
            "Content/.store/quince.md", "---\nname: Quince\ncategory: Pome\n---\nNew.\n")
        try live.update(changing: [live.path(".store/quince.md")])
        #expect(
            String(decoding: live.files["fruits/quince/index.html"]!, as: UTF8.self).contains(
                "New."))
        try live.expectFresh("through a link")
    }

    /// A link made while serving, reported as one more path, makes every later update look
    /// at every file: an edit of its target is an edit of the link's entry too.
    @Test func aLinkMadeWhileServingIsFollowedFromThenOn() throws {
        var live = try Live()
        defer { live.folder.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: live.path("apple-copy.md"), withDestinationPath: "apple.md")
        try live.update(changing: [live.path("apple-copy.md")])
        try live.expectFresh("link made")
        let apple = live.path("apple.md")
        let text = try String(contentsOfFile: apple, encoding: .utf8)
        try text.replacingOccurrences(of: "name: Apple", with: "name: Edited Apple")
            .write(toFile: apple, atomically: true, encoding: .utf8)
        try live.update(changing: [apple])
        for page in ["fruits/apple/index.html", "fruits/apple-copy/index.html"] {
            #expect(
                String(decoding: live.files[page] ?? [], as: UTF8.self).contains("Edited Apple"),
                "\(page)")
        }
        try live.expectFresh("target edited")
    }

    /// A hard link is two names of one file, and an edit is reported under the name written
    /// to: the other name's entry changes too, which the update finds by looking at every
    /// file, whether the fruit moves (its neighbours' pages read the other entry) or not.
    @Test(arguments: [
        ("name: Apple", "name: Edited Apple", "Edited Apple"),
        ("The domestic", "Edited body. The domestic", "Edited body."),
    ])
    func anEditUnderOneNameOfAHardLinkedFileShowsUnderBoth(
        _ old: String, _ new: String, _ shown: String
    ) throws {
        var live = try Live()
        defer { live.folder.remove() }
        let apple = live.path("apple.md")
        try FileManager.default.linkItem(atPath: apple, toPath: live.path("apple-copy.md"))
        try live.update(changing: [live.path("apple-copy.md")])
        // Written in place, as an editor that keeps the file's inode does.
        let text = try String(contentsOfFile: apple, encoding: .utf8)
        let handle = try #require(FileHandle(forWritingAtPath: apple))
        try handle.truncate(atOffset: 0)
        try handle.write(
            contentsOf: Data((text.replacingOccurrences(of: old, with: new)).utf8))
        try handle.close()
        try live.update(changing: [apple])
        for page in ["fruits/apple/index.html", "fruits/apple-copy/index.html"] {
            #expect(
                String(decoding: live.files[page] ?? [], as: UTF8.self).contains(shown),
                "\(page)")
        }
        try live.expectFresh("one name edited")
    }
}
