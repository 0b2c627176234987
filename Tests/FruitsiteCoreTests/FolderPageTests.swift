import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// The pages of the folders in other pages' addresses: `categories/`, a facet's folder
/// (`vitamins/`), and `fruits/` and a listing's `page/`, which lead on.
@Suite struct FolderPageTests {
    /// The folder pages of the sample with 5 fruits a page: the index, Berries and vitamins C
    /// and A have later pages.
    static let folderPages = [
        "categories/index.html", "vitamins/index.html", "fruits/index.html", "page/index.html",
        "categories/berries/page/index.html", "vitamins/c/page/index.html",
    ]

    /// A copy of the sample with 5 fruits a page.
    static func pagedProject() throws -> IncrementalBuildTests.Project {
        var project = try IncrementalBuildTests.Project()
        try project.folder.write("fruitsite.yml", "pageSize: 5\n")
        project.options.configPath = project.folder.path + "/fruitsite.yml"
        return project
    }

    enum Edit: String, CaseIterable, Sendable {
        case body, name, newCategory, fruitInACategory, newValue
    }

    /// Makes `edit` in the project's content.
    static func make(_ edit: Edit, in project: IncrementalBuildTests.Project) throws {
        switch edit {
        case .body: try project.edit("Content/kiwi.md") { $0 + "\nOne more paragraph.\n" }
        case .name:
            try project.edit("Content/kiwi.md") {
                $0.replacingOccurrences(of: "name: Kiwi", with: "name: Kiwifruit")
            }
        case .newCategory:
            try project.folder.write(
                "Content/zucchini.md", "---\nname: Zucchini\ncategory: Squashes\n---\nGreen.\n")
        case .fruitInACategory:
            try project.folder.write(
                "Content/zucchini.md", "---\nname: Zucchini\ncategory: Melons\n---\nGreen.\n")
        case .newValue:
            try project.edit("Content/kiwi.md") {
                $0.replacingOccurrences(of: "vitamins: [C, K, E]", with: "vitamins: [C, K, E, D]")
            }
        }
    }

    /// Each edit renders again exactly the folder pages whose bytes change (a page is rendered
    /// again when its input hash changes), and the incremental build writes what a clean
    /// build writes.
    @Test(arguments: Edit.allCases)
    func anEditRendersAgainOnlyTheFolderPagesItChanges(_ edit: Edit) throws {
        let project = try Self.pagedProject()
        defer { project.folder.remove() }
        var config = SiteConfig()
        config.pageSize = 5
        try project.buildAndCompare("first build")
        let before = try PageInputTests.site(project.folder.path, config: config)
        for page in Self.folderPages { #expect(before[page] != nil, "\(page) is not written") }

        try Self.make(edit, in: project)
        let rendering = try project.buildAndCompare("\(edit)")
        let after = try PageInputTests.site(project.folder.path, config: config)
        var rendered: Set<String> = []
        for page in Self.folderPages {
            let (old, new) = try (#require(before[page]), #require(after[page]))
            if old.1 != new.1 { rendered.insert(page) }
            #expect(old.0 == new.0 || old.1 != new.1, "\(edit): \(page) changed unrendered")
        }
        // Every folder page lists the categories in its footer; the categories' and the
        // vitamins' pages show their sizes.
        let footers = Set(Self.folderPages)
        switch edit {
        case .body, .name: #expect(rendered.isEmpty)
        case .newCategory: #expect(rendered == footers)
        case .fruitInACategory: #expect(rendered == ["categories/index.html"])
        case .newValue: #expect(rendered == ["vitamins/index.html"])
        }
        if edit == .body { #expect(rendering.rendered == 1, "the fruit's page alone") }
        let output = project.folder.path + "/Output/"
        let categories = try String(
            contentsOfFile: output + "categories/index.html", encoding: .utf8)
        let vitamins = try String(contentsOfFile: output + "vitamins/index.html", encoding: .utf8)
        if edit == .newCategory { #expect(categories.contains("Squashes")) }
        if edit == .newValue { #expect(vitamins.contains(#"href="../vitamins/d/""#)) }
    }

    /// A listing that shrinks to one page loses its `page/`, and one that grows gains it.
    @Test func aListingsPagesFolderComesAndGoesWithItsLaterPages() throws {
        let project = try Self.pagedProject()
        defer { project.folder.remove() }
        let folder = project.folder.path + "/Output/categories/berries/page/index.html"
        try project.buildAndCompare("first build")
        #expect(FileManager.default.fileExists(atPath: folder))
        for file in ["acai", "physalis"] {
            try project.edit("Content/\(file).md") {
                $0.replacingOccurrences(of: "category: Berries", with: "category: Exotic Fruits")
            }
        }
        try project.buildAndCompare("Berries down to 5 fruits")
        #expect(!FileManager.default.fileExists(atPath: folder))
        try project.edit("Content/acai.md") {
            $0.replacingOccurrences(of: "category: Exotic Fruits", with: "category: Berries")
        }
        try project.buildAndCompare("Berries up to 6 fruits")
        #expect(FileManager.default.fileExists(atPath: folder))
    }

    /// A theme made before the folder pages has none of their templates: it builds, without
    /// them and without them in the sitemap. Adding the templates writes them, removing them
    /// takes them away, each time as a clean build would.
    @Test func aThemeWithoutTheirTemplatesWritesNoFolderPages() throws {
        let project = try IncrementalBuildTests.Project()
        defer { project.folder.remove() }
        let templates = ["categories", "facet-values", "redirect"]
        let manager = FileManager.default
        let spare = project.folder.path + "/Spare"
        try manager.createDirectory(atPath: spare, withIntermediateDirectories: true)
        for name in templates {
            try manager.moveItem(
                atPath: "\(project.folder.path)/Templates/\(name).mustache",
                toPath: "\(spare)/\(name).mustache")
        }
        let output = project.folder.path + "/Output/"
        let pages = ["categories/index.html", "vitamins/index.html", "fruits/index.html"]
        try project.buildAndCompare("without the templates")
        for page in pages { #expect(!manager.fileExists(atPath: output + page), "\(page)") }
        var sitemap = try String(contentsOfFile: output + "sitemap.xml", encoding: .utf8)
        #expect(!sitemap.contains("<loc>https://example.org/categories/</loc>"))
        #expect(!sitemap.contains("<loc>https://example.org/vitamins/</loc>"))

        for name in templates {
            try manager.moveItem(
                atPath: "\(spare)/\(name).mustache",
                toPath: "\(project.folder.path)/Templates/\(name).mustache")
        }
        try project.buildAndCompare("with the templates")
        for page in pages { #expect(manager.fileExists(atPath: output + page), "\(page)") }
        sitemap = try String(contentsOfFile: output + "sitemap.xml", encoding: .utf8)
        #expect(sitemap.contains("<loc>https://example.org/categories/</loc>"))
        #expect(sitemap.contains("<loc>https://example.org/vitamins/</loc>"))

        try manager.removeItem(atPath: project.folder.path + "/Templates/categories.mustache")
        try project.buildAndCompare("the categories' template removed")
        #expect(!manager.fileExists(atPath: output + "categories/index.html"))
        #expect(manager.fileExists(atPath: output + "vitamins/index.html"))
    }

    /// The folder pages lead where they should, with links relative to themselves.
    @Test func folderPagesLeadOneFolderUp() throws {
        let (folder, options) = try temporarySite(
            config: "pageSize: 1\n",
            entries: [
                ("apple", "name: Apple\ncategory: Pome\nvitamins: C"),
                ("pear", "name: Pear\ncategory: Pome\nvitamins: C"),
            ])
        defer { folder.remove() }
        _ = try SiteBuilder(options: options).build()
        for (page, title) in [
            ("fruits/", "All fruits"), ("page/", "All fruits"),
            ("categories/pome/page/", "Pome"), ("vitamins/c/page/", "Vitamins: C"),
        ] {
            let html = try folder.read("Output/\(page)index.html")
            #expect(html.contains(#"<meta http-equiv="refresh" content="0; url=../">"#), "\(page)")
            #expect(html.contains(#"<link rel="canonical" href="../">"#), "\(page)")
            #expect(html.contains("<h1>\(title)</h1>"), "\(page)")
            // The layout's links start from the page's own folder.
            let root = String(repeating: "../", count: page.count { $0 == "/" })
            #expect(html.contains(#"<a href="\#(root)categories/">"#), "\(page)")
        }
    }
}
