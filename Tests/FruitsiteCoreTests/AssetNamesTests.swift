import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// Every asset is published under its own name and under its stamped one, whose copy names
/// the stamped copies of the assets it loads.
@Suite struct AssetNamesTests {
    static func names(_ files: [String: String], lookups: Set<[String]> = []) -> AssetNames {
        let assets = files.keys.sorted().map { RenderedPage(path: $0, text: files[$0]!) }
        return AssetNames(assets, templatesDirectory: "Templates") { lookups }
    }

    /// The stamped name of a file that loads nothing: its bytes' hash.
    static func stamped(_ path: String, _ text: String) -> String {
        ContentName.path(path, hash: StableHasher.hash(Array(text.utf8)))
    }

    @Test func everyAssetIsPublishedUnderBothNames() throws {
        let files = [
            "assets/site.css": "body { color: teal; }\n", "assets/icons/a.svg": "<svg/>",
            "assets/LICENSE": "MIT",
        ]
        let names = Self.names(files)
        var published: [String: String] = [:]
        for file in names.published {
            published[file.path] = String(decoding: file.bytes, as: UTF8.self)
        }
        #expect(published.count == 6)
        for (path, text) in files {
            let stamped = Self.stamped(path, text)
            #expect(names.linked[path] == stamped)
            #expect(published[path] == text && published[stamped] == text)
        }
        #expect(
            names.linked["assets/site.css"]?.wholeMatch(of: /assets\/site\.[a-z2-7]{8}\.css/) != nil
        )
        #expect(names.published.map(\.path) == names.published.map(\.path).sorted())
        #expect(names.warnings.isEmpty)
    }

    // MARK: - References

    /// `assets/main.js` written as each argument says, beside `assets/a.js`: whether its
    /// stamped copy names `a.js`'s stamped copy in place of each `a.js`.
    @Test(arguments: [
        ("import x from './a.js';", true),
        ("import {x, y as z} from \"./a.js\";", true),
        ("import * as all from './a.js'", true),
        ("import x, {y} from './a.js'", true),
        ("import {\"a-b\" as ab} from './a.js'", true),
        ("import x\nfrom\n  './a.js'", true),
        ("import './a.js';", true),
        ("export {x} from './a.js';", true),
        ("export * from './a.js';", true),
        ("export * as ns from './a.js';", true),
        ("const m = await import('./a.js');", true),
        ("import ( /* why */ './a.js' , {with: {}})", true),
        ("import x from '../assets/a.js'", true),
        ("import x from './a.js?v=1#top'", true),
        ("const t = `${await import('./a.js')}`;", true),
        ("const r = /'[/]/g; import './a.js';", true),
        ("const q = x / 2; import './a.js'; // it's", true),
        ("import x from './a.js'; import y from './a.js';", true),
        // Left as they are:
        ("import x from 'a.js';", false),
        ("import x from '/assets/a.js';", false),
        ("import x from 'https://example.org/assets/a.js';", false),
        ("// import x from './a.js'", false),
        ("/* import './a.js' */", false),
        ("const s = \"import x from './a.js'\";", false),
        ("const t = `import './a.js'`;", false),
        ("const r = /import '.\\/a.js'/;", false),
        ("const u = new URL('./a.js', import.meta.url);", false),
        ("import('./' + 'a.js');", false),
        ("import('./a.js' + suffix);", false),
        ("loader.import('./a.js');", false),
        ("fetch('./a.js');", false),
        ("import x from './a.js\\u0020';", false),
        ("export const a = './a.js';", false),
        ("import x from './a.js/.';", false),
    ])
    func rewritesTheImportsOfAModule(_ source: String, isRewritten: Bool) throws {
        let module = "export const x = 1;\n"
        let names = Self.names(["assets/a.js": module, "assets/main.js": source])
        let stampedModule = Self.stamped("assets/a.js", module)
        let name = String(stampedModule.split(separator: "/").last!)
        let expected = isRewritten ? source.replacingOccurrences(of: "a.js", with: name) : source
        let copy = try #require(names.published.first { $0.path == names.linked["assets/main.js"] })
        #expect(String(decoding: copy.bytes, as: UTF8.self) == expected)
        #expect(copy.path == Self.stamped("assets/main.js", expected))
        let original = try #require(names.published.first { $0.path == "assets/main.js" })
        #expect(
            String(decoding: original.bytes, as: UTF8.self) == source,
            "the own name keeps its bytes")
    }

    /// `assets/css/main.css` written as each argument says, beside `assets/css/a.png`.
    @Test(arguments: [
        ("b { background: url(a.png) }", true),
        ("b { background: url('a.png') }", true),
        ("b { background: url(\"a.png\") }", true),
        ("b { background: url(  a.png\n) }", true),
        ("b { background: URL(a.png) }", true),
        ("b { background: url(./a.png) }", true),
        ("b { background: url(../css/a.png) }", true),
        ("@font-face { src: url(a.png?#iefix) format('x') }", true),
        ("@import 'a.png';", true),
        ("@IMPORT /* x */ \"a.png\" screen;", true),
        ("@import url(a.png);", true),
        // Left as they are:
        ("/* url(a.png) */", false),
        ("b::after { content: \"url(a.png)\" }", false),
        ("b { background: url(/assets/css/a.png) }", false),
        ("b { background: url(https://example.org/a.png) }", false),
        ("b { background: url(#a.png) }", false),
        ("b { background: image-set(\"a.png\" 1x) }", false),
        ("b { background: myurl(a.png) }", false),
        ("b { background: url(a.png x) }", false),
        ("b { background: url(sub\\/a.png) }", false),
    ])
    func rewritesTheAddressesOfAStylesheet(_ source: String, isRewritten: Bool) throws {
        let image = "PNG"
        let names = Self.names(["assets/css/a.png": image, "assets/css/main.css": source])
        let name = String(Self.stamped("assets/css/a.png", image).split(separator: "/").last!)
        let expected = isRewritten ? source.replacingOccurrences(of: "a.png", with: name) : source
        let copy = try #require(
            names.published.first { $0.path == names.linked["assets/css/main.css"] })
        #expect(String(decoding: copy.bytes, as: UTF8.self) == expected)
    }

    /// The default theme's search: the stamped `search.js` imports the stamped modules, and
    /// `search-index.js`'s stamped copy the stamped `fruit-filter.js`, leaves first.
    @Test func theSearchLoadsTheStampedModules() throws {
        let theme = try TemplateLoader(templatesDirectory: repositoryRoot + "/Templates").load()
        let names = theme.assetNames
        let file = { (path: String) in
            String(
                decoding: names.published.first { $0.path == names.linked[path] }!.bytes,
                as: UTF8.self)
        }
        let name = { (path: String) in String(names.linked[path]!.split(separator: "/").last!) }
        let search = file("assets/search.js")
        #expect(search.contains("from './\(name("assets/fruit-filter.js"))'"))
        #expect(search.contains("from './\(name("assets/search-index.js"))'"))
        #expect(!search.contains("'./fruit-filter.js'") && !search.contains("'./search-index.js'"))
        #expect(
            file("assets/search-index.js").contains("from './\(name("assets/fruit-filter.js"))'"))
        for path in names.linked.values {
            #expect(
                path
                    == ContentName.path(
                        String(path.replacing(/\.[a-z2-7]{8}\./, with: ".")),
                        hash: StableHasher.hash(names.published.first { $0.path == path }!.bytes)))
        }
        #expect(names.warnings.isEmpty)
    }

    // MARK: - Cycles

    /// Modules that import one another cannot be stamped: they are published under their own
    /// names only, with a warning at the first one's reference; what imports them is stamped
    /// and names them so.
    @Test func aCycleIsPublishedUnderItsOwnNames() throws {
        let files = [
            "assets/a.js": "import './b.js';\n", "assets/b.js": "// b\nimport {a} from './a.js';\n",
            "assets/c.js": "import './a.js';\n", "assets/d.js": "export * from './d.js';\n",
            "assets/x.css": "@import 'y.css';", "assets/y.css": "@import 'z.css';",
            "assets/z.css": "a { background: url(x.css) }",
        ]
        let names = Self.names(files)
        let cyclic = [
            "assets/a.js", "assets/b.js", "assets/d.js", "assets/x.css", "assets/y.css",
            "assets/z.css",
        ]
        for path in cyclic { #expect(names.linked[path] == path) }
        // c.js alone has a stamped copy.
        #expect(names.published.count == files.count + 1)
        #expect(names.linked["assets/c.js"] == Self.stamped("assets/c.js", files["assets/c.js"]!))
        #expect(
            names.warnings.map(\.description) == [
                "Templates/assets/a.js:1:9: warning: assets/a.js and assets/b.js refer to each other, so neither can be named by its bytes: they are published under their own names only\n  hint: a stamped name covers the stamped names of the files it loads; move what they share into a file of its own for them to be stamped",
                "Templates/assets/d.js:1:16: warning: assets/d.js refers to itself, so it cannot be named by its bytes: it is published under its own name only\n  hint: a stamped name covers the stamped names of the files it loads; move what they share into a file of its own for them to be stamped",
                "Templates/assets/x.css:1:10: warning: assets/x.css, assets/y.css and assets/z.css refer to one another in a cycle, so none can be named by its bytes: they are published under their own names only\n  hint: a stamped name covers the stamped names of the files it loads; move what they share into a file of its own for them to be stamped",
            ])
        #expect(names.variables.first { $0.name == ["a", "js"] }?.path == "assets/a.js")
    }

    /// A long chain of imports is named without recursion.
    @Test func aLongChainIsStampedLeavesFirst() {
        var files: [String: String] = [:]
        for index in 0..<5_000 { files["assets/m\(index).js"] = "import './m\(index + 1).js';\n" }
        files["assets/m5000.js"] = "export const end = 1;\n"
        let names = Self.names(files)
        #expect(names.warnings.isEmpty)
        let first = names.published.first { $0.path == names.linked["assets/m0.js"] }!
        let second = String(names.linked["assets/m1.js"]!.split(separator: "/").last!)
        #expect(String(decoding: first.bytes, as: UTF8.self) == "import './\(second)';\n")
    }

    // MARK: - The variable

    @Test func theVariableSplitsNamesAtSlashesAndDots() {
        let names = Self.names([
            "assets/site.css": "a", "assets/icons/a.svg": "b", "assets/search-index.js": "c",
        ])
        #expect(
            names.variables.map(\.name) == [
                ["icons", "a", "svg"], ["search-index", "js"], ["site", "css"],
            ])
        #expect(
            names.variables.map(\.path)
                == ["assets/icons/a.svg", "assets/search-index.js", "assets/site.css"].map {
                    names.linked[$0]!
                })
    }

    /// A name that continues another file's, or is another's, has no variable; a template
    /// that looks it up is warned.
    @Test(arguments: [true, false])
    func aNameAnotherFileTakesHasNoVariable(isLookedUp: Bool) {
        let lookups: Set<[String]> =
            isLookedUp ? [["assets", "site", "css", "map"], ["assets", "site", "css"]] : []
        let names = Self.names(
            ["assets/site.css": "a", "assets/site.css.map": "{}", "assets/site/css": "c"],
            lookups: lookups)
        #expect(names.variables.map(\.name) == [["site", "css"]])
        #expect(names.variables[0].path == names.linked["assets/site.css"])
        // All are published all the same.
        #expect(names.published.count == 6)
        guard isLookedUp else {
            #expect(names.warnings.isEmpty)
            return
        }
        #expect(
            names.warnings.map(\.description) == [
                "Templates/assets/site.css.map: warning: {{assets.site.css.map}} cannot be this file's URL: {{assets.site.css}} is assets/site.css's, and a variable's name splits at every '/' and '.'\n  hint: rename one of the two files",
                "Templates/assets/site/css: warning: {{assets.site.css}} cannot be this file's URL: {{assets.site.css}} is assets/site.css's, and a variable's name splits at every '/' and '.'\n  hint: rename one of the two files",
            ])
    }

    /// A file whose name is a folder of others' names has none either.
    @Test func aNameThatOthersContinueHasNoVariable() {
        let names = Self.names(
            ["assets/a.b.c": "x", "assets/a/b": "y"], lookups: [["assets", "a", "b"]])
        #expect(names.variables.map(\.name) == [["a", "b", "c"]])
        #expect(
            names.warnings.map(\.message) == [
                "{{assets.a.b}} cannot be this file's URL: {{assets.a.b.c}} is assets/a.b.c's, "
                    + "and a variable's name splits at every '/' and '.'"
            ])
    }

    /// A theme that holds a copy of a stamped file, as an output folder has it, publishes it
    /// once; one with other bytes under that name leaves the asset unstamped.
    @Test func aStampedNameTheThemeHasIsKept() {
        let css = "b {}"
        let stamped = Self.stamped("assets/site.css", css)
        let same = Self.names(["assets/site.css": css, stamped: css])
        // The copy is an asset too, with a stamped copy of its own.
        #expect(
            same.published.map(\.path)
                == ["assets/site.css", stamped, Self.stamped(stamped, css)].sorted())
        #expect(same.linked["assets/site.css"] == stamped && same.warnings.isEmpty)
        let other = Self.names(["assets/site.css": css, stamped: "i {}"])
        #expect(other.linked["assets/site.css"] == "assets/site.css")
        #expect(other.warnings.count == 1)
        #expect(other.published.count == 3)
        #expect(other.published.first { $0.path == stamped }?.bytes == Array("i {}".utf8))
    }
}
