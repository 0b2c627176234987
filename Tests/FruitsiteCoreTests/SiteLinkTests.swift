import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// `[Lemon](fruit:lemon)` and `[Citrus](category:Citrus)` in bodies.
@Suite struct SiteLinkTests {
    @Test func becomeLinksToThePagesAndKeepTheirPositions() {
        let result = parse(
            """
            ---
            name: Apple
            category: Core
            ---
            Try [a lemon](fruit:lemon) and [stone fruit](<category:Stone Fruits>).

            Then [the orange one](fruit:Blood%20Orange), not [this](https://example.org).
            """)
        let html = result.details?.bodyHTML ?? ""
        #expect(html.contains(#"<a href="../../fruits/lemon/">a lemon</a>"#))
        #expect(html.contains(#"<a href="../../categories/stone-fruits/">stone fruit</a>"#))
        #expect(html.contains(#"<a href="../../fruits/blood-orange/">the orange one</a>"#))
        #expect(html.contains(#"<a href="https://example.org">this</a>"#))
        #expect(
            result.siteLinks.map { "\($0.kind):\($0.target)@\($0.line):\($0.column)" } == [
                "fruit:lemon@5:15", "category:Stone Fruits@5:47", "fruit:Blood Orange@7:23",
            ])
    }

    /// A fragment or a query stays on the address; the page's anchors are `check`'s to follow.
    @Test func keepAFragmentOrAQuery() {
        let html =
            parse(
                """
                ---
                name: Apple
                category: Core
                ---
                [a](fruit:lemon#zest) [b](<category:Stone Fruits#list>) [c](<fruit:Blood Orange?x=1>)
                """
            ).details?.bodyHTML ?? ""
        #expect(html.contains(#"<a href="../../fruits/lemon/#zest">a</a>"#), "\(html)")
        #expect(html.contains(#"<a href="../../categories/stone-fruits/#list">b</a>"#))
        #expect(html.contains(#"<a href="../../fruits/blood-orange/?x=1">c</a>"#))
    }

    /// An image's source is resolved and checked as a link's is: it cannot break unnoticed.
    @Test func inAnImageAreResolvedToo() {
        let result = parse("---\nname: Apple\ncategory: Core\n---\n![a lemon](fruit:lemon)\n")
        #expect(
            result.details?.bodyHTML.contains(#"<img src="../../fruits/lemon/" alt="a lemon" />"#)
                == true, "\(result.details?.bodyHTML ?? "")")
        #expect(
            result.siteLinks.map { "\($0.kind):\($0.target)@\($0.line):\($0.column)" } == [
                "fruit:lemon@5:12"
            ])
    }

    /// The error quotes what was written when the slug is made from it, and an empty link
    /// is named as such rather than by the hash an empty name's slug has.
    @Test func thatNameNothingSayWhatWasWritten() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write(
            "Content/apple.md",
            "---\nname: Apple\ncategory: Pome\n---\n[a](fruit:🍎) [b](<fruit:>) [c](fruit:Appel)\n")
        let options = SiteBuildTests.options(site: folder.path, output: folder.path + "/Output")
        do {
            _ = try SiteBuilder(options: options).build()
            Issue.record("links that name nothing built")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "\(folder.path)/Content/apple.md:5:5: error: no fruit has the slug "
                        + "'\(Slug.make(from: "🍎"))' (made from '🍎')",
                    "\(folder.path)/Content/apple.md:5:19: error: the link names no fruit\n"
                        + "  hint: write 'fruit:<slug>'",
                    "\(folder.path)/Content/apple.md:5:32: error: no fruit has the slug 'appel' "
                        + "(made from 'Appel')\n  hint: did you mean 'fruit:apple'?",
                ])
        }
    }

    @Test func thatNameNothingFailTheBuildWhereTheyAreWrittenEvenWhenTheTargetGoesLater()
        throws
    {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/lemon.md", "---\nname: Lemon\ncategory: Citrus\n---\n")
        try folder.write(
            "Content/apple.md",
            "---\nname: Apple\ncategory: Pome\n---\nSee [it](fruit:lemon) and [them](category:Citrus).\n"
        )
        var options = SiteBuildTests.options(site: folder.path, output: folder.path + "/Output")
        options.cacheDirectory = folder.path + "/.cache"
        _ = try SiteBuilder(options: options).build()

        // Removing the target breaks the link in a file this build does not parse again.
        try FileManager.default.removeItem(atPath: folder.path + "/Content/lemon.md")
        try folder.write("Content/lime.md", "---\nname: Lime\ncategory: citrus\n---\n")
        #expect(throws: BuildFailure.self) { try SiteBuilder(options: options).build() }
        do {
            _ = try SiteBuilder(options: options).build()
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "\(folder.path)/Content/apple.md:5:10: error: no fruit has the slug 'lemon'\n"
                        + "  hint: did you mean 'fruit:lime'?",
                    "\(folder.path)/Content/apple.md:5:34: error: no category is named 'Citrus'\n"
                        + "  hint: did you mean 'category:citrus'?",
                ])
        }
        try FileManager.default.removeItem(atPath: folder.path + "/Content/lime.md")
        try folder.write("Content/lemon.md", "---\nname: Lemon\ncategory: Citrus\n---\n")
        _ = try SiteBuilder(options: options).build()

        // A draft has no page: the link says why it names nothing.
        try folder.write(
            "Content/lemon.md", "---\nname: Lemon\ncategory: Citrus\ndraft: true\n---\n")
        try folder.write("Content/lime.md", "---\nname: Lime\ncategory: Citrus\n---\n")
        do {
            _ = try SiteBuilder(options: options).build()
            Issue.record("a link to a draft built")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "\(folder.path)/Content/apple.md:5:10: error: the fruit 'lemon' is a draft, "
                        + "which has no page\n"
                        + "  hint: build with --drafts to include drafts, or publish it first"
                ])
        }
        options.includeDrafts = true
        _ = try SiteBuilder(options: options).build()
    }

    /// Each link is placed at its address, also after inlines that span lines (a wrapped link
    /// text or code span, a backslash break), where libcmark's own count of lines goes wrong.
    @Test func arePlacedAtTheirAddressAfterInlinesThatSpanLines() {
        let text = """
            ---
            name: Apple
            category: Core
            ---
            Slice one, then squeeze a [wedge of
            lemon](fruit:lemon) over it.

            Store them with `ethylene
            absorbers` away from [bananas](fruit:banana).

            First line\\
            second line with [a lime](
              fruit:lime) and <fruit:kiwi>, then [again](fruit:lemon).

            > Quoted, with [a *wrapped
            > text*](category:Citrus).
            """
        let result = parse(text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        /// Where `address` is written the `occurrence`th time, counted independently.
        func place(of address: String, _ occurrence: Int = 1) -> String {
            var seen = 0
            for (index, line) in lines.enumerated() {
                var rest = line[...]
                while let range = rest.range(of: address) {
                    seen += 1
                    if seen == occurrence {
                        let column =
                            line.unicodeScalars.distance(
                                from: line.startIndex, to: range.lowerBound) + 1
                        return "\(index + 1):\(column)"
                    }
                    rest = rest[range.upperBound...]
                }
            }
            return "missing"
        }
        #expect(
            result.siteLinks.map { "\($0.kind):\($0.target)@\($0.line):\($0.column)" } == [
                "fruit:lemon@\(place(of: "fruit:lemon"))",
                "fruit:banana@\(place(of: "fruit:banana"))",
                "fruit:lime@\(place(of: "fruit:lime"))",
                "fruit:kiwi@\(place(of: "fruit:kiwi"))",
                "fruit:lemon@\(place(of: "fruit:lemon", 2))",
                "category:Citrus@\(place(of: "category:Citrus"))",
            ])
        #expect(place(of: "fruit:lemon") == "6:8")
    }

    /// A reference link is placed at its address in its definition, wherever that is, and an
    /// address in angle brackets at the address, blanks inside the brackets or not: not at
    /// the link's `[`.
    @Test func arePlacedAtTheAddressOfTheirDefinitionOrInsideAngleBrackets() {
        let marked = MarkedText(
            """
            ---
            name: Apple
            category: Core
            ---
            Try [a lemon][l], [a lime](< 2️⃣fruit:lime >), [citrus][] and [lemon again][l].

            [l]: 1️⃣fruit:lemon
            [citrus]:
              <3️⃣category:Citrus>
            """, columns: .unicodeScalars)
        let result = parse(marked.text)
        let html = result.details?.bodyHTML ?? ""
        #expect(html.contains(#"<a href="../../fruits/lime/">a lime</a>"#), "\(html)")
        #expect(html.contains(#"<a href="../../categories/citrus/">citrus</a>"#), "\(html)")
        func at(_ marker: String) -> String {
            "\(marked[marker].line):\(marked[marker].column)"
        }
        #expect(
            result.siteLinks.map { "\($0.kind):\($0.target)@\($0.line):\($0.column)" } == [
                "fruit:lemon@\(at("1️⃣"))", "fruit:lime@\(at("2️⃣"))",
                "category:Citrus@\(at("3️⃣"))", "fruit:lemon@\(at("1️⃣"))",
            ])
    }

    /// URL schemes are case-insensitive: `Fruit:lemon` is a site link, resolved and checked.
    @Test func haveTheirSchemeInAnyCase() {
        let result = parse(
            "---\nname: Apple\ncategory: Core\n---\n[a](Fruit:lemon) [b](FRUIT:lime) [c](Category:Citrus)\n"
        )
        let html = result.details?.bodyHTML ?? ""
        #expect(html.contains(#"<a href="../../fruits/lemon/">a</a>"#), "\(html)")
        #expect(html.contains(#"<a href="../../fruits/lime/">b</a>"#))
        #expect(html.contains(#"<a href="../../categories/citrus/">c</a>"#))
        #expect(
            result.siteLinks.map { "\($0.kind):\($0.target)@\($0.line):\($0.column)" } == [
                "fruit:lemon@5:5", "fruit:lime@5:22", "category:Citrus@5:38",
            ])
    }

    /// A link to an entry whose file is in error is not reported as broken: the file's own
    /// error is. A category only such an entry has gets a hint that says so.
    @Test func toAnEntryInErrorAreNotReportedAsBroken() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write(
            "Content/kiwi.md", "---\nname: Kiwi\ncategory: Tropical\ndate: 2024-02-30\n---\n")
        try folder.write(
            "Content/apple.md",
            "---\nname: Apple\ncategory: Pome\n---\n[k](fruit:kiwi) [t](category:Tropical)\n")
        let options = SiteBuildTests.options(site: folder.path, output: folder.path + "/Output")
        let failure = #expect(throws: BuildFailure.self) {
            try SiteBuilder(options: options).build()
        }
        let descriptions = failure?.diagnostics.map(\.description) ?? []
        #expect(descriptions.count == 2, "\(descriptions)")
        #expect(
            descriptions.first?.hasPrefix(
                "\(folder.path)/Content/apple.md:5:21: error: "
                    + "no category is named 'Tropical'\n  hint: it may be the category of an entry in error"
            ) == true,
            "\(descriptions)")
        #expect(
            descriptions.last?.hasPrefix("\(folder.path)/Content/kiwi.md:4:") == true,
            "\(descriptions)")
    }
}
