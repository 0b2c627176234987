import Foundation
import Mustache
import TestSupport
import Testing

@testable import FruitsiteCore

/// Whole builds of the theme's assets: pages link their stamped names, an edit stamps anew
/// what it reaches, and `check` warns where a template links an unstamped name.
@Suite struct AssetBuildTests {
    /// The stamped files below `output/assets/`, by the path they stamp
    /// (`assets/site.css` → `assets/site.k3j5h2a9.css`).
    static func stampedFiles(in output: String) -> [String: String] {
        var stamped: [String: String] = [:]
        for file in filesBelow(output + "/assets") {
            let path = "assets/" + file
            guard ContentName.isStamped(path) else { continue }
            stamped[path.replacing(/\.[a-z2-7]{8}(\.[^.\/]+)$/, with: { $0.1 })] = path
        }
        return stamped
    }

    /// Editing a module stamps it anew, and the modules that import it, and the page that
    /// loads them; the old names are removed, and the result is a clean build's.
    @Test func anEditedModuleRestampsWhatImportsIt() throws {
        let project = try IncrementalBuildTests.Project()
        defer { project.folder.remove() }
        let output = project.folder.path + "/Output"
        try project.buildAndCompare("first build")
        let before = Self.stampedFiles(in: output)
        try project.edit("Templates/assets/fruit-filter.js") { $0 + "\n// Edited.\n" }
        let edit = try project.buildAndCompare("a module edited")
        let after = Self.stampedFiles(in: output)
        #expect(before.keys.sorted() == after.keys.sorted())
        #expect(
            Set(before.keys.filter { before[$0] != after[$0] })
                == ["assets/fruit-filter.js", "assets/search-index.js", "assets/search.js"])
        // The index's one page, fruit-filter.js under its own name and the three new names.
        #expect(edit.rendered == 5 && edit.written?.written == 5 && edit.written?.removed == 3)
        let index = try project.folder.read("Output/index.html")
        #expect(index.contains(#"<script type="module" src="\#(after["assets/search.js"]!)">"#))
        for path in ["assets/fruit-filter.js", "assets/search-index.js", "assets/search.js"] {
            #expect(!FileManager.default.fileExists(atPath: output + "/" + before[path]!))
        }
    }

    /// Whatever an edit changes, a stamped name that two builds both have holds the same
    /// bytes in both, the bytes its stamp is the hash of.
    @Test func aStampedNameMeansTheSameBytesInEveryBuild() throws {
        let project = try IncrementalBuildTests.Project()
        defer { project.folder.remove() }
        let (output, first) = (project.folder.path + "/Output", project.folder.path + "/First")
        try project.build()
        try FileManager.default.copyItem(atPath: output, toPath: first)
        try project.edit("Templates/assets/fruit-filter.js") { $0 + "\n// Edited.\n" }
        try project.build()
        let (old, new) = (Self.stampedFiles(in: first), Self.stampedFiles(in: output))
        let kept = Set(old.values).intersection(new.values)
        #expect(kept.count == old.count - 3 && !kept.isEmpty)
        for (folder, files) in [(first, old), (output, new)] {
            for path in files.values {
                let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + path))
                let stamped = path.replacing(/\.[a-z2-7]{8}(\.[^.\/]+)$/, with: { $0.1 })
                #expect(ContentName.path(stamped, hash: StableHasher.hash(Array(bytes))) == path)
                if kept.contains(path) {
                    #expect(bytes == FileManager.default.contents(atPath: first + "/" + path))
                }
            }
        }
    }

    // MARK: - The variable

    /// `{{assets.site.css}}` from each depth of the site's folders; on the 404 page, from the
    /// base URL's path, or from the site root without one.
    @Test(arguments: ["", "baseURL: https://example.org/shop/\n"])
    func theVariableIsRelativeToThePage(baseURL: String) throws {
        let (folder, options) = try temporarySite(
            config: baseURL + "pageSize: 1\n",
            entries: [
                ("apple", "name: Apple\ncategory: Pome"), ("pear", "name: Pear\ncategory: Pome"),
            ])
        defer { folder.remove() }
        _ = try SiteBuilder(options: options).build()
        let css = try #require(Self.stampedFiles(in: folder.path + "/Output")["assets/site.css"])
        for (page, root) in [
            ("index.html", ""), ("page/2/index.html", "../../"),
            ("fruits/apple/index.html", "../../"),
            ("categories/pome/page/2/index.html", "../../../../"),
            ("404.html", baseURL.isEmpty ? "" : "/shop/"),
        ] {
            let html = try folder.read("Output/" + page)
            #expect(html.contains(#"<link rel="stylesheet" href="\#(root)\#(css)">"#), "\(page)")
        }
    }

    /// Made once per depth, and for any other way to the root when asked.
    @Test(arguments: ["", "../", "../../", "../../../../", "/shop/"])
    func theVariableFromEachRoot(root: String) throws {
        let theme = try TemplateLoader(templatesDirectory: repositoryRoot + "/Templates").load()
        let value = AssetURLs(theme: theme).value(root: root)
        func lookUp(_ name: String) -> MustacheValue? {
            name.split(separator: ".").reduce(value) { value, part in
                guard case .object(let object)? = value else { return nil }
                return object[String(part)]
            }
        }
        for path in ["assets/site.css", "assets/search.js", "assets/favicon.svg"] {
            let name = path.dropFirst("assets/".count)
            #expect(lookUp(String(name)) == .string(root + theme.assetNames.linked[path]!))
        }
        #expect(
            lookUp("search-index.js")
                == .string(root + theme.assetNames.linked["assets/search-index.js"]!))
    }

    // MARK: - check

    /// Where a template writes an asset's own name as an address, at its line and column.
    @Test func checkWarnsWhereATemplateLinksAnUnstampedName() throws {
        let project = try IncrementalBuildTests.Project()
        defer { project.folder.remove() }
        let marked = MarkedText(
            """
            {{! assets/site.css in a comment }}
            <!-- <link href="{{root}}assets/site.css"> -->
            <link rel="stylesheet" href="{{root}}1️⃣assets/site.css">
            <script type="module" src="../2️⃣assets/search.js?v=1"></script>
            <p>Our assets/site.css, in prose.</p>
            <img src="{{assets.favicon.svg}}" alt=""><a href="{{root}}assets/site.css.bak">x</a>
            """, columns: .unicodeScalars)
        try project.folder.write("Templates/partials/extra.mustache", marked.text)
        let rendering = try SiteBuilder(options: project.options).check()
        let path = project.options.templatesDirectory + "/partials/extra.mustache"
        let warnings = rendering.warnings.filter { $0.location.path == path }
        #expect(
            warnings.map(\.location)
                == ["1️⃣", "2️⃣"].map {
                    SourceLocation(path: path, line: marked[$0].line, column: marked[$0].column)
                })
        #expect(
            warnings.first?.description == """
                \(path):3:38: warning: 'assets/site.css' is the asset's unstamped name, \
                published as well: a host cannot cache it for long, and a page open across a \
                deploy may load it from another build
                  hint: write {{assets.site.css}} in its place: the URL of its stamped name \
                from the page, the way to the root included
                """)
        #expect(warnings.last?.hint?.hasPrefix("write {{assets.search.js}} in its place") == true)
    }

    /// The default theme links every asset by the variable.
    @Test func theDefaultThemeLinksStampedNamesOnly() throws {
        let project = try IncrementalBuildTests.Project()
        defer { project.folder.remove() }
        let rendering = try SiteBuilder(options: project.options).check()
        #expect(!rendering.warnings.contains { $0.message.contains("unstamped") })
    }
}
