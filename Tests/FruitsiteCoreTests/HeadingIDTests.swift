import Foundation
@testable import FruitsiteCore
import TestSupport
import Testing

/// Headings in bodies have ids made from their text, as GitHub's, with a permalink.
@Suite struct HeadingIDTests {
    /// The ids of `markdown`'s headings, in order.
    private func ids(_ markdown: String, allowsRawHTML: Bool = false) -> [String] {
        let html = CommonMark(allowsRawHTML: allowsRawHTML).renderHTML(markdown)
        // By scalars: an id may start with a mark, which would join the quote before it.
        let pattern = try! Regex(#"<h[1-6] id="([^"]*)">"#).matchingSemantics(.unicodeScalar)
        return html.matches(of: pattern).map { String($0.output[1].substring ?? "") }
    }

    /// Smart punctuation (`--` as an en dash, `'` as a curly quote) is punctuation, dropped.
    @Test func areMadeFromTheTextAsGitHubMakesThem() {
        let markdown = """
            # Zest
            ## Zest
            ### Zest-1
            ## Zest
            ## What's *in* a `fruit:lemon`? (A lot!)
            ## 🍋 Lemons & limes
            ## Äpfel und Birnen
            ## 橙子 와 Апельсин
            ## snake_case -- dashes
            ## 🍋
            ## Main
            Setext *heading*
            spanning lines
            --------------
            """
        #expect(
            ids(markdown) == [
                "zest", "zest-1", "zest-1-1", "zest-2", "whats-in-a-fruitlemon-a-lot",
                "-lemons--limes", "äpfel-und-birnen", "橙子-와-апельсин", "snake_case--dashes",
                "section", "main-1", "setext-heading-spanning-lines",
            ])
    }

    /// Raw HTML and an image's text are not the heading's text; what it wraps is.
    /// ASCII text goes a quicker way, which gives what the general one gives: every printable
    /// ASCII character, and tabs and runs of spaces, in many orders.
    @Test func asciiTextIsSluggedAndCollapsedAsAnyText() {
        var random = SystemRandomNumberGenerator()
        let alphabet = (0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) } + ["\t", " "]
        for _ in 0..<2_000 {
            let text = String(
                (0..<Int.random(in: 0...12, using: &random)).map { _ in
                    alphabet.randomElement(using: &random)!
                })
            // The general way, as a heading with one non-ASCII character goes.
            let general = HeadingIDs.slug(text + "\u{00E9}")
            #expect(HeadingIDs.slug(text) + "\u{00E9}" == general, "\(text.debugDescription)")
            let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(HeadingIDs.collapsingWhitespace(text) == words, "\(text.debugDescription)")
        }
    }

    @Test func takeOnlyTheTextAReaderSees() {
        let markdown = "## <span class=\"x\">Hi</span> there ![alt text](a.png)\n"
        #expect(ids(markdown, allowsRawHTML: true) == ["hi-there-"])
        #expect(ids(markdown) == ["hi-there-"])
    }

    @Test func haveAPermalinkNamedForTheHeading() {
        let html = CommonMark().renderHTML("Text\n\n## Good *to* know\n\n> ## `x` & y\n")
        #expect(
            html == """
                <p>Text</p>
                <h2 id="good-to-know">Good <em>to</em> know<a class="anchor" href="#good-to-know" \
                aria-label="Permalink: Good to know">#</a></h2>
                <blockquote>
                <h2 id="x--y"><code>x</code> &amp; y<a class="anchor" href="#x--y" \
                aria-label="Permalink: x &amp; y">#</a></h2>
                </blockquote>

                """)
    }

    /// Odd and huge headings: no crash, every id unique and none empty.
    @Test func areUniqueAndNeverEmptyWhateverTheHeadings() {
        let texts = [
            String(repeating: "long ", count: 20_000), String(repeating: "🍋", count: 5_000),
            "\u{301}\u{FE0F}", "a\u{0}b", "<", "a", "a", "a-1", "a-1", "\\", "&amp;", "######",
        ]
        var markdown = texts.map { "## \($0)\n" }.joined()
        markdown += String(repeating: "# same\n", count: 2_000)
        let found = ids(markdown)
        #expect(found.count == texts.count + 2_000)
        #expect(Set(found).count == found.count)
        #expect(!found.contains(""))
        #expect(found.last == "same-1999")
    }

    /// `check` finds a link to a heading of another page by the heading's id, whether that
    /// page renders in the same batch or a later one (`check` keeps no page).
    @Test(arguments: [1, 1_024]) func areWhatCheckFollowsALinkTo(pagesInABatch: Int) throws {
        let (site, options) = try temporarySite(
            config: "",
            entries: [
                (slug: "lemon", front: "name: Lemon\ncategory: Citrus"),
                (slug: "apple", front: "name: Apple\ncategory: Pome"),
            ],
            body: "## The Zest\n\n[zest](fruit:lemon#the-zest) [none](fruit:lemon#nothing)\n")
        defer { site.remove() }
        var builder = SiteBuilder(options: options)
        builder.batchLimit.pages = pagesInABatch
        let rendering = try builder.check()
        let broken = rendering.warnings.map(\.message).filter { $0.contains("leads nowhere") }
        #expect(!broken.contains { $0.contains("the-zest") }, "\(broken)")
        #expect(broken.contains { $0.contains("no element has the id 'nothing'") }, "\(broken)")
    }
}
