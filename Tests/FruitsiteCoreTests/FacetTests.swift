import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// Facets: front-matter keys whose values filter the search and get pages of their own.
@Suite struct FacetTests {
    static let parser = FruitParser(facets: ["vitamins", "colour"])

    @Test func valuesAreReadFromAStringOrAList() throws {
        let result = parse(
            "---\nname: Apple\ncategory: Pome\nvitamins: C, B6, C\ncolour: [red, ' green ']\n---\n",
            parser: Self.parser)
        let fruit = try #require(result.fruit)
        #expect(
            fruit.facets == [
                FacetValues(key: "vitamins", values: ["C", "B6"]),
                FacetValues(key: "colour", values: ["red", "green"]),
            ])
        // A facet key is still a template param.
        #expect(result.details?.params["colour"] == .array(["red", " green "]))
        #expect(fruit.vitamins == ["C", "B6"], "each vitamin is shown once, as first written")
        let plain = try #require(
            parse("---\nname: Fig\ncategory: Figs\n---\n", parser: Self.parser).fruit)
        #expect(plain.facets.isEmpty)
    }

    /// A facet's key is known: no "did you mean 'date'?" for a facet named `data`.
    @Test func aFacetKeyIsNoTypo() throws {
        let result = parse(
            "---\nname: Apple\ncategory: Pome\ndata: big\n---\n",
            parser: FruitParser(facets: ["data"]))
        #expect(result.fruit?.values(ofFacet: "data") == ["big"])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    @Test func valuesAreNFC() throws {
        let result = parse(
            "---\nname: Nèfle\ncategory: Pome\ncolour: bru\u{0302}le\u{0301}\n---\n",
            parser: Self.parser)
        let values = try #require(result.fruit?.values(ofFacet: "colour"))
        #expect(
            values.map { Array($0.unicodeScalars) } == [Array("br\u{FB}l\u{E9}".unicodeScalars)])
    }

    @Test(arguments: ["colour: {a: b}", "colour: [red, [green]]", "colour: [red, {a: b}]"])
    func aValueThatIsNotAStringIsAnErrorAtIt(line: String) throws {
        let result = parse("---\nname: Apple\ncategory: Pome\n\(line)\n---\n", parser: Self.parser)
        #expect(result.fruit == nil)
        let error = try #require(result.diagnostics.first)
        #expect(error.isError && error.location.line == 4)
        #expect(error.message.contains("'colour' is a facet"))
    }

    /// A value is a menu's option and a line of `search`: one line, as a category is.
    @Test(arguments: [
        (#"colour: "red\rblue""#, "colour", 4, 9), (#"colour: [red, "a\nb"]"#, "colour", 4, 15),
        (#"vitamins: "C\tD, E""#, "vitamins", 4, 11),
        (#"vitamins: ["C", "a\u2028b"]"#, "vitamins", 4, 17),
    ])
    func aValueOfMoreThanOneLineIsAnErrorAtIt(line: String, key: String, at: Int, column: Int)
        throws
    {
        let result = parse("---\nname: Apple\ncategory: Pome\n\(line)\n---\n", parser: Self.parser)
        #expect(result.fruit == nil)
        let error = try #require(result.diagnostics.first)
        #expect(error.isError && error.location.line == at && error.location.column == column)
        #expect(
            error.message
                == "each value of '\(key)' must be one line, without line breaks, tabs or control characters"
        )
    }

    @Test(arguments: [
        ("facets: vitamins", "'facets' must be a list"),
        ("facets: [constructor]", "'constructor' cannot be a facet"),
        ("facets: [name]", "'name' cannot be a facet"),
        ("facets: [q]", "'q' cannot be a facet"),
        ("facets: [Colour]", "is not a lowercase key"),
        ("facets: [colour, colour]", "listed twice"),
        ("facets: [{colour: x}]", "each facet must be a front-matter key"),
    ])
    func badFacetConfigIsAnErrorAtItsLine(config: String, message: String) throws {
        do {
            _ = try SiteConfig(yaml: "title: Fruits\n\(config)\n", path: "fruitsite.yml")
            Issue.record("\(config) was accepted")
        } catch {
            #expect(error.diagnostics.contains { $0.message.contains(message) })
            #expect(error.diagnostics.allSatisfy { $0.location.line == 2 })
        }
    }

    /// A small site with `fruits` as `(slug, front matter)`, built with `config`.
    static func build(config: String, fruits: [(String, String)]) throws -> (
        TemporaryDirectory, Result<SiteBuilder.Rendering, BuildFailure>
    ) {
        let (folder, options) = try temporarySite(
            config: config, entries: fruits.map { (slug: $0.0, front: $0.1) })
        return (
            folder, Result { () throws(BuildFailure) in try SiteBuilder(options: options).build() }
        )
    }

    static let fruits = [
        ("apple", "name: Apple\ncategory: Pome\nvitamins: C\ncolour: red, green"),
        ("banana", "name: Banana\ncategory: Tropical\nvitamins: B6, C\ncolour: yellow"),
        ("cherry", "name: Cherry\ncategory: Stone\ncolour: [red]"),
    ]

    @Test func eachValueHasAPageThatFruitPagesAndTheSearchFormLink() throws {
        let (site, result) = try Self.build(
            config: "facets: [vitamins, colour]\nbaseURL: https://example.org/\n",
            fruits: Self.fruits)
        defer { site.remove() }
        _ = try result.get()
        let red = try site.read("Output/colour/red/index.html")
        #expect(red.contains("<h1>Colour: red</h1>"))
        #expect(
            red.contains(#"href="../../fruits/apple/""#)
                && red.contains(#"href="../../fruits/cherry/""#))
        #expect(!red.contains("fruits/banana/"))
        let apple = try site.read("Output/fruits/apple/index.html")
        #expect(
            apple.contains(
                #"<dt>Colour</dt><dd><a href="../../colour/red/"><bdi>red</bdi></a>, <a href="../../colour/green/"><bdi>green</bdi></a></dd>"#
            ))
        let index = try site.read("Output/index.html")
        #expect(index.contains(#"<select id="search-facet-colour" name="colour""#))
        #expect(index.contains(#"<option value="red">red (2)</option>"#))
        let sitemap = try site.read("Output/sitemap.xml")
        #expect(
            sitemap.contains("<loc>https://example.org/colour/yellow/</loc>")
                && sitemap.contains("<loc>https://example.org/vitamins/b6/</loc>"))
        let stamped = try FileManager.default.contentsOfDirectory(atPath: site.path + "/Output")
            .first { ContentName.unstamped($0) == "search-index.json" }
        let searchIndex = try site.read("Output/" + #require(stamped))
        #expect(searchIndex.contains(#""facets":{"vitamins":["B6","C"],"colour":["yellow"]}"#))
    }

    @Test func aHyphenatedKeyIsLabelledInWordsAndAccentedValuesGetPlainSlugs() throws {
        let (site, result) = try Self.build(
            config: "facets: [country-of-origin]\n",
            fruits: [("mango", "name: Mango\ncategory: Tropical\ncountry-of-origin: Côte d’Ivoire")]
        )
        defer { site.remove() }
        _ = try result.get()
        let mango = try site.read("Output/fruits/mango/index.html")
        #expect(
            mango.contains(
                #"<dt>Country of origin</dt><dd><a href="../../country-of-origin/cote-d-ivoire/"><bdi>Côte d’Ivoire</bdi></a></dd>"#
            ))
    }

    @Test func aListedFacetNoFruitHasIsAnErrorAtItsLine() throws {
        let (site, result) = try Self.build(
            config: "title: Fruits\nfacets:\n  - vitamins\n  - season\n", fruits: Self.fruits)
        defer { site.remove() }
        #expect(throws: BuildFailure.self) { try result.get() }
        guard case .failure(let failure) = result else { return }
        let error = try #require(failure.diagnostics.first)
        #expect(error.location.path.hasSuffix("fruitsite.yml") && error.location.line == 4)
        #expect(error.message == "no fruit has a value of the facet 'season'")
    }

    /// A setting in error hides no other: the unused facet is reported beside it.
    @Test func anUnusedFacetIsReportedWithTheConfigsOtherErrors() throws {
        let (site, result) = try Self.build(
            config: "pageSize: -1\ntitel: x\nfacets: [season]\n", fruits: Self.fruits)
        defer { site.remove() }
        guard case .failure(let failure) = result else {
            Issue.record("the build succeeded")
            return
        }
        #expect(
            failure.diagnostics.map { "\($0.location.line ?? 0): \($0.message)" } == [
                "1: 'pageSize' must be a whole number from 0 to 1000000",
                "2: unknown key 'titel'",
                "3: no fruit has a value of the facet 'season'",
            ])
    }

    @Test func valuesWhoseSlugsCollideAreAnError() throws {
        let fruits = Self.fruits + [("date", "name: Date\ncategory: Tropical\ncolour: Red")]
        let (site, result) = try Self.build(config: "facets: [colour]\n", fruits: fruits)
        defer { site.remove() }
        guard case .failure(let failure) = result else {
            Issue.record("the build succeeded")
            return
        }
        let error = try #require(
            failure.diagnostics.first { $0.message.contains("both have the URL slug 'red'") })
        // At the first fruit of the later spelling, where its colour is written, naming the
        // place of the other spelling.
        #expect(error.location.path.hasSuffix("/apple.md"), "\(error)")
        #expect(error.location.line == 5 && error.location.column == 9, "\(error)")
        #expect(error.message.hasPrefix("colour 'red' and 'Red' ("), "\(error)")
        #expect(error.message.contains("/date.md:4:9)"), "\(error)")
    }

    /// The other spelling is found where its file writes it when that file was parsed by an
    /// earlier build, which the model keeps without the places of its values.
    @Test func aValueAddedLaterThatCollidesNamesThePlaceOfTheKeptOne() throws {
        let (site, options) = try temporarySite(
            config: "facets: [colour]\n", entries: Self.fruits.map { (slug: $0.0, front: $0.1) })
        defer { site.remove() }
        _ = try SiteBuilder(options: options).build()
        try site.write("Content/date.md", "---\nname: Date\ncategory: Tropical\ncolour: Red\n---\n")
        #expect(throws: BuildFailure.self) { try SiteBuilder(options: options).build() }
        do {
            _ = try SiteBuilder(options: options).build()
        } catch {
            let collision = try #require(
                error.diagnostics.first { $0.message.contains("both have the URL slug 'red'") })
            #expect(collision.location.path.hasSuffix("/apple.md"), "\(collision)")
            #expect(collision.location.line == 5 && collision.location.column == 9)
            #expect(collision.message.contains("/date.md:4:9)"), "\(collision)")
        }
    }

    /// Two spellings in one file: the error is at the later spelling, in a list written
    /// either way, and names the place of the other.
    @Test(arguments: [
        ("vitamins: [C, c]", (4, 15), "4:12"),
        ("vitamins:\n  - C\n  - c", (6, 5), "5:5"),
        // A string's pieces, each at its own column, not all at the string's.
        ("vitamins: C, c", (4, 14), "4:11"),
        ("vitamins: \"B6,  C ,c\"", (4, 20), "4:17"),
        ("vitamins: Ä, C,c", (4, 16), "4:14"),
    ])
    func valuesWhoseSlugsCollideInOneFileAreAnErrorAtTheValue(
        list: String, at place: (line: Int, column: Int), other: String
    ) throws {
        let fruits = [("apple", "name: Apple\ncategory: Pome\n" + list)]
        let (site, result) = try Self.build(config: "", fruits: fruits)
        defer { site.remove() }
        guard case .failure(let failure) = result else {
            Issue.record("the build succeeded")
            return
        }
        let error = try #require(failure.diagnostics.first)
        #expect(error.location.path.hasSuffix("/apple.md"), "\(error)")
        #expect(
            error.location.line == place.line && error.location.column == place.column,
            "\(error)")
        #expect(error.message.hasPrefix("vitamins 'c' and 'C' ("), "\(error)")
        #expect(error.message.contains("/apple.md:\(other))"), "\(error)")
    }

    /// A site of one fruit whose theme is the default one without `facet.mustache`.
    private func siteWithoutAFacetTemplate() throws -> (TemporaryDirectory, BuildOptions) {
        let folder = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Templates", toPath: folder.path + "/Templates")
        try FileManager.default.removeItem(atPath: folder.path + "/Templates/facet.mustache")
        try folder.write("Content/apple.md", "---\nname: Apple\ncategory: Pome\n---\n")
        var options = BuildOptions()
        options.contentDirectory = folder.path + "/Content"
        options.templatesDirectory = folder.path + "/Templates"
        options.outputDirectory = folder.path + "/Output"
        return (folder, options)
    }

    @Test func aThemeWithoutAFacetTemplateIsToldWhatToDo() throws {
        var (folder, options) = try siteWithoutAFacetTemplate()
        defer { folder.remove() }
        #expect {
            _ = try SiteBuilder(options: options).build()
        } throws: { error in
            (error as? BuildFailure)?.diagnostics.first?.message.contains("no facet template")
                == true
        }
        // Reported with the theme's other errors, not after them.
        try FileManager.default.removeItem(atPath: folder.path + "/Templates/404.mustache")
        #expect {
            _ = try SiteBuilder(options: options).build()
        } throws: { error in
            let messages = (error as? BuildFailure)?.diagnostics.map(\.message) ?? []
            return messages.count == 2 && messages.contains { $0.contains("no '404' template") }
                && messages.contains { $0.contains("no facet template") }
        }
        try folder.write("Templates/404.mustache", "{{site.title}}")
        try folder.write("fruitsite.yml", "facets: []\n")
        options.configPath = folder.path + "/fruitsite.yml"
        _ = try SiteBuilder(options: options).build()
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Output/vitamins"))
    }

    /// `serve` keeps its theme between updates: facets added to the config check it again.
    @Test func facetsAddedWhileServingNeedTheFacetTemplate() throws {
        var (folder, options) = try siteWithoutAFacetTemplate()
        defer { folder.remove() }
        try folder.write("fruitsite.yml", "facets: []\n")
        options.configPath = folder.path + "/fruitsite.yml"
        var site = SiteBuilder.LiveSite(builder: SiteBuilder(options: options))
        _ = try site.update()
        try folder.write("fruitsite.yml", "facets: [vitamins]\n")
        #expect {
            _ = try site.update()
        } throws: { error in
            (error as? BuildFailure)?.diagnostics.first?.message.contains("no facet template")
                == true
        }
    }

    @Test func otherFacetsMakeACleanBuild() throws {
        var (site, options) = try temporarySite(
            config: "facets: [vitamins, colour]\n",
            entries: Self.fruits.map { (slug: $0.0, front: $0.1) })
        defer { site.remove() }
        options.cacheDirectory = site.path + "/.cache"
        _ = try SiteBuilder(options: options).build()
        let again = try SiteBuilder(options: options).build()
        #expect(again.notes.isEmpty && again.parsed == 0)
        try site.write("fruitsite.yml", "facets: [colour]\n")
        let other = try SiteBuilder(options: options).build()
        #expect(other.notes == ["building clean: the saved model was built with other facets"])
        #expect(try site.read("Output/colour/red/index.html").contains("Colour: red"))
        #expect(!FileManager.default.fileExists(atPath: site.path + "/Output/vitamins"))
    }
}
