import Mustache
import Testing

@Suite struct MustacheUsageTests {
    // MARK: - Names and sections

    @Test func variablesOfEveryKind() throws {
        let usage = try usage(of: "page", in: ["page": "{{title}} {{{body}}} {{&raw}} {{! note }}"])
        #expect(usage.lookups == [lookup("title"), lookup("body"), lookup("raw")])
        #expect(usage.templates == ["page"])
        #expect(!usage.hasDynamicInclusions)
    }

    @Test func dottedNamesAndImplicitIterator() throws {
        let usage = try usage(
            of: "page", in: ["page": "{{fruit.name}}{{#fruit.tags}}{{.}}{{/fruit.tags}}"])
        #expect(
            usage.lookups == [
                lookup("fruit.name"), lookup("fruit.tags"), lookup(".", in: "fruit.tags"),
            ])
        // The helper writes `.` as the empty name, which is what the analysis reports.
        #expect(
            usage.lookups.contains(
                MustacheUsage.Lookup(name: [], sections: [["fruit", "tags"]])))
    }

    @Test func nestedSections() throws {
        let usage = try usage(
            of: "page",
            in: ["page": "{{#fruits}}{{name}}{{#tags}}{{label}}{{name}}{{/tags}}{{/fruits}}"])
        #expect(
            usage.lookups == [
                lookup("fruits"), lookup("name", in: "fruits"), lookup("tags", in: "fruits"),
                lookup("label", in: "fruits", "tags"), lookup("name", in: "fruits", "tags"),
            ])
    }

    /// An inverted section renders with the stack as it is, so it adds no section.
    @Test func invertedSectionsPushNothing() throws {
        let usage = try usage(
            of: "page",
            in: ["page": "{{#fruits}}{{^tags}}{{none}}{{/tags}}{{/fruits}}{{^a}}{{b}}{{/a}}"])
        #expect(
            usage.lookups == [
                lookup("fruits"), lookup("tags", in: "fruits"), lookup("none", in: "fruits"),
                lookup("a"), lookup("b"),
            ])
    }

    /// Without data both branches are possible, so content that renders only for a falsy
    /// value and content that renders only for a truthy one are both visited.
    @Test func bothBranchesOfASection() throws {
        let usage = try usage(
            of: "page", in: ["page": "{{#ripe}}{{sweet}}{{/ripe}}{{^ripe}}{{sour}}{{/ripe}}"])
        #expect(
            usage.lookups == [lookup("ripe"), lookup("sweet", in: "ripe"), lookup("sour")])
    }

    // MARK: - Partials

    @Test func partialsTakeTheSectionsAroundTheirTag() throws {
        let usage = try usage(
            of: "page",
            in: [
                "page": "{{#fruits}}{{> card}}{{/fruits}}{{> footer}}",
                "card": "<p>{{name}}{{#price}}{{> price}}{{/price}}</p>",
                "price": "{{.}} €",
                "footer": "{{year}}",
                "unused": "{{secret}}",
            ])
        #expect(
            usage.lookups == [
                lookup("fruits"), lookup("name", in: "fruits"), lookup("price", in: "fruits"),
                lookup(".", in: "fruits", "price"), lookup("year"),
            ])
        #expect(usage.templates == ["page", "card", "price", "footer"])
    }

    /// Without `requiresKnownPartials` a missing partial or parent renders nothing, and so
    /// looks up nothing, not even the blocks a missing parent would be given.
    @Test func unknownTemplatesAreLeftOut() throws {
        let usage = try usage(
            of: "page", in: ["page": "{{> missing}}{{<gone}}{{$b}}{{x}}{{/b}}{{/gone}}{{y}}"])
        #expect(usage.templates == ["page"])
        #expect(usage.lookups == [lookup("y")])
    }

    @Test func unknownTemplateHasNoUsage() throws {
        let library = try MustacheLibrary(templates: ["page": "{{title}}"])
        #expect(library.usage(of: "pgae") == nil)
    }

    // MARK: - Parents and blocks

    @Test func blocksOutsideAParentUseTheirDefault() throws {
        let usage = try usage(of: "layout", in: ["layout": "{{$title}}{{site}}{{/title}}"])
        #expect(usage.lookups == [lookup("site")])
    }

    /// The override renders where the block stands in the parent, inside the parent's
    /// sections as well as those around the parent tag.
    @Test func overridesTakeTheSectionsAroundTheBlock() throws {
        let usage = try usage(
            of: "fruit",
            in: [
                "layout": """
                <title>{{$title}}{{site.name}}{{/title}}</title>
                {{#site}}<main>{{$content}}{{placeholder}}{{/content}}</main>{{/site}}
                """,
                "fruit": """
                {{#fruit}}{{<layout}}
                  {{$title}}{{name}}{{/title}}
                  {{$content}}{{name}}: {{count}}{{/content}}
                {{/layout}}{{/fruit}}
                """,
            ])
        #expect(
            usage.lookups == [
                lookup("fruit"), lookup("name", in: "fruit"), lookup("site", in: "fruit"),
                lookup("name", in: "fruit", "site"), lookup("count", in: "fruit", "site"),
            ])
        #expect(usage.templates == ["fruit", "layout"])
    }

    /// The layout overrides a block of its own parent with content holding another block,
    /// which the page fills; the page's override wins over the layout's.
    @Test func nestedParentsPassBlocksThrough() throws {
        let templates = [
            "base":
                "{{#site}}{{$body}}{{baseBody}}{{/body}}{{/site}}{{$title}}{{baseTitle}}{{/title}}",
            "layout": """
            {{<base}}
              {{$body}}{{#menu}}{{$content}}{{layoutContent}}{{/content}}{{/menu}}{{/body}}
              {{$title}}{{layoutTitle}}{{/title}}
            {{/base}}
            """,
            "page": """
            {{<layout}}
              {{$content}}{{pageContent}}{{/content}}
              {{$title}}{{pageTitle}}{{/title}}
            {{/layout}}
            """,
        ]
        let page = try usage(of: "page", in: templates)
        #expect(
            page.lookups == [
                lookup("site"), lookup("menu", in: "site"),
                lookup("pageContent", in: "site", "menu"), lookup("pageTitle"),
            ])
        #expect(page.templates == ["page", "layout", "base"])
        let layout = try usage(of: "layout", in: templates)
        #expect(
            layout.lookups == [
                lookup("site"), lookup("menu", in: "site"),
                lookup("layoutContent", in: "site", "menu"), lookup("layoutTitle"),
            ])
    }

    /// A partial included by a parent gets the overrides in force, as it does when rendered.
    @Test func partialsOfAParentSeeTheOverrides() throws {
        let usage = try usage(
            of: "page",
            in: [
                "base": "{{#items}}{{> row}}{{/items}}",
                "row": "{{$cell}}{{> fallback}}{{/cell}}",
                "fallback": "{{unused}}",
                "page": "{{<base}}{{$cell}}{{> cell}}{{/cell}}{{/base}}",
                "cell": "{{value}}",
            ])
        #expect(usage.lookups == [lookup("items"), lookup("value", in: "items")])
        #expect(usage.templates == ["page", "base", "row", "cell"])
    }

    /// What `usage` claims is what rendering does: the overridden content renders, with the
    /// value of the section around the block in the parent.
    @Test func overrideLookupsMatchRendering() throws {
        let library = try MustacheLibrary(templates: [
            "layout": "{{#fruit}}[{{$content}}{{/content}}]{{/fruit}}",
            "page": "{{<layout}}{{$content}}{{name}}{{/content}}{{/layout}}",
        ])
        let usage = try #require(library.usage(of: "page"))
        #expect(usage.lookups.contains(lookup("name", in: "fruit")))
        let data: MustacheValue = ["name": "outer", "fruit": ["name": "Fig"]]
        #expect(try library.render("page", with: data) == "[Fig]")
    }

    // MARK: - Dynamic inclusions

    @Test func dynamicPartialsAreFlaggedAndTheirNameLookedUp() throws {
        let usage = try usage(
            of: "page",
            in: ["page": "{{#fruit}}{{>*kind}}{{/fruit}}", "apple": "{{crunch}}"])
        #expect(usage.hasDynamicInclusions)
        #expect(usage.lookups == [lookup("fruit"), lookup("kind", in: "fruit")])
        #expect(usage.templates == ["page"])
    }

    /// The blocks given to a dynamic parent render only if its target has them, which is
    /// known only at render time.
    @Test func dynamicParentsAreFlagged() throws {
        let usage = try usage(
            of: "page", in: ["page": "{{<*layout}}{{$body}}{{text}}{{/body}}{{/*layout}}"])
        #expect(usage.hasDynamicInclusions)
        #expect(usage.lookups == [lookup("layout")])
    }

    @Test func dynamicInclusionsAreFlaggedThroughPartials() throws {
        let usage = try usage(
            of: "page", in: ["page": "{{> card}}", "card": "{{>*part.name}}"])
        #expect(usage.hasDynamicInclusions)
        #expect(usage.lookups == [lookup("part.name")])
    }

    /// A dynamic partial in a block whose default is overridden never renders.
    @Test func unreachableDynamicPartialsAreNotFlagged() throws {
        let usage = try usage(
            of: "page",
            in: [
                "layout": "{{$body}}{{>*name}}{{/body}}",
                "page": "{{<layout}}{{$body}}fixed{{/body}}{{/layout}}",
            ])
        #expect(!usage.hasDynamicInclusions)
        #expect(usage.lookups.isEmpty)
    }

    // MARK: - Recursion

    /// A tree rendered by a partial that includes itself: one round of recursion is shown.
    @Test func selfRecursivePartialTerminates() throws {
        let usage = try usage(
            of: "tree",
            in: [
                "tree": "<ul>{{> node}}</ul>",
                "node": "<li>{{name}}{{#children}}{{> node}}{{/children}}</li>",
            ])
        #expect(
            usage.lookups == [
                lookup("name"), lookup("children"), lookup("name", in: "children"),
                lookup("children", in: "children"),
            ])
        #expect(usage.templates == ["tree", "node"])
    }

    @Test func mutuallyRecursiveTemplatesTerminate() throws {
        let usage = try usage(
            of: "a",
            in: [
                "a": "{{x}}{{#next}}{{> b}}{{/next}}",
                "b": "{{y}}{{> a}}{{<a}}{{/a}}",
            ])
        #expect(usage.templates == ["a", "b"])
        #expect(
            usage.lookups == [
                lookup("x"), lookup("next"), lookup("y", in: "next"), lookup("x", in: "next"),
                lookup("next", in: "next"), lookup("y", in: "next", "next"),
            ])
    }

    @Test func parentIncludingItselfTerminates() throws {
        let usage = try usage(of: "loop", in: ["loop": "{{a}}{{<loop}}{{/loop}}"])
        #expect(usage.lookups == [lookup("a")])
        #expect(usage.templates == ["loop"])
    }

    /// An override holding its own block renders itself again (rendering stops at the depth
    /// bound); the analysis expands it twice.
    @Test func overrideHoldingItsOwnBlockTerminates() throws {
        let usage = try usage(
            of: "page",
            in: [
                "base": "{{#s}}{{$b}}{{/b}}{{/s}}",
                "page": "{{<base}}{{$b}}{{#y}}{{x}}{{$b}}{{/b}}{{/y}}{{/b}}{{/base}}",
            ])
        #expect(
            usage.lookups == [
                lookup("s"), lookup("y", in: "s"), lookup("x", in: "s", "y"),
                lookup("y", in: "s", "y"), lookup("x", in: "s", "y", "y"),
            ])
    }

    /// A template included again further down a chain is expanded again when a parent on
    /// the way added overrides, since its blocks may then render other content.
    @Test func newOverridesAllowAnotherExpansion() throws {
        let usage = try usage(
            of: "page",
            in: [
                "page": "{{$b}}{{plain}}{{/b}}{{#one}}{{> page}}{{/one}}"
                    + "{{<page}}{{$b}}{{over}}{{/b}}{{/page}}"
            ])
        // `over` inside `one` needs a third expansion of `page`: the root, the partial and,
        // with the new override, the parent.
        #expect(usage.lookups.contains(lookup("over")))
        #expect(usage.lookups.contains(lookup("over", in: "one")))
        #expect(usage.lookups.contains(lookup("over", in: "one", "one")))
        // With no new override, the partial is expanded once inside the root and no further.
        #expect(usage.lookups.contains(lookup("plain", in: "one")))
        #expect(!usage.lookups.contains(lookup("plain", in: "one", "one")))
    }

    // MARK: - Spec templates

    /// Every template of the spec's partial, inheritance and dynamic-name cases is analysed
    /// to the end, names only templates of the library, and looks up every top-level key
    /// whose removal from the data changes the output.
    @Test(
        .enabled(if: SpecSuite.directory != nil, SpecSuite.missingComment),
        arguments: ["partials.json", "~inheritance.json", "~dynamic-names.json"].flatMap {
            SpecSuite.cases(in: $0)
        })
    func specTemplates(_ specCase: SpecCase) throws {
        let templates = specCase.partials.merging([Self.mainName: specCase.template]) { $1 }
        let library = try MustacheLibrary(templates: templates)
        for name in library.names {
            let usage = try #require(library.usage(of: name))
            #expect(usage.templates.isSubset(of: Set(library.names)))
            #expect(usage.templates.contains(name))
        }
        let usage = try #require(library.usage(of: Self.mainName))
        let usesWholeContext = usage.lookups.contains(lookup("."))
        guard case .object(let fields) = specCase.data, !usage.hasDynamicInclusions,
            !usesWholeContext
        else { return }
        let expected = try library.render(Self.mainName, with: specCase.data)
        let lookedUp = Set(usage.lookups.compactMap(\.name.first))
        for key in fields.keys where !lookedUp.contains(key) {
            var data = fields
            data[key] = nil
            #expect(
                try library.render(Self.mainName, with: .object(data)) == expected,
                "'\(key)' is not looked up, yet the output depends on it")
        }
    }

    /// A name no spec partial uses, for the case's own template in a library.
    private static let mainName = "spec test template"
}

// MARK: - Helpers

/// What `name` can look up in a library of `templates`.
private func usage(of name: String, in templates: [String: String]) throws -> MustacheUsage {
    try #require(MustacheLibrary(templates: templates).usage(of: name))
}

/// A lookup written the way templates write names: `lookup("name", in: "fruits", "tags")`.
private func lookup(_ name: String, in sections: String...) -> MustacheUsage.Lookup {
    MustacheUsage.Lookup(name: parts(of: name), sections: sections.map(parts(of:)))
}

private func parts(of name: String) -> [String] {
    name == "." ? [] : name.split(separator: ".").map(String.init)
}
