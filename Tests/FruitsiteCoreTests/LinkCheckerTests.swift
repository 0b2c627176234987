import Testing

@testable import FruitsiteCore

/// Which links of a rendered site lead nowhere.
@Suite struct LinkCheckerTests {
    private func page(_ path: String, _ html: String) -> RenderedPage {
        RenderedPage(path: path, text: html)
    }

    @Test func followsRelativeAndRootRelativeLinksAndAnchors() {
        let files = [
            page(
                "index.html",
                """
                <!doctype html><a href="fruits/apple/">a</a> <a href='fruits/apple'>b</a>
                <a href="fruits/apple/#facts">c</a> <a href="#main">d</a> <main id="main"></main>
                <a href="fruits/pear/">e</a> <a href="fruits/apple/#nope">f</a>
                <a href="https://example.org/x">g</a> <a href="//cdn.example/x">h</a>
                <a href="mailto:a@b.c">i</a> <a href="/sub/fruits/apple/">j</a>
                <a href="/elsewhere/">k</a> <img src="assets/missing.png" alt="">
                <a href="?q=a&amp;category=Citrus">l</a> <a href="../up/">m</a>
                <!-- <a href="commented-out/">n</a> -->
                <script>const html = '<a href="in-a-script/">';</script>
                <a href="fruits/a%C3%A7ai/">o</a>
                """),
            page(
                "fruits/apple/index.html", "<h2 id=\"facts\">Facts</h2><a href=\"../../\">home</a>"),
            page("fruits/açai/index.html", ""),
        ]
        let broken = LinkChecker(files: files, basePath: "/sub/").brokenLinks()
        #expect(
            broken.map { "\($0.link): \($0.reason)" } == [
                "fruits/pear/: no such page in the site",
                "fruits/apple/#nope: no element has the id 'nope' there",
                "/elsewhere/: it leads outside the site",
                "assets/missing.png: no such page in the site",
                "../up/: it leads outside the site",
            ])
        #expect(broken.allSatisfy { $0.page == "index.html" })
    }

    @Test func readsAnEscapedBasePathAsItsLinksAre() {
        let files = [
            page(
                "index.html",
                #"<a href="/my%20fruits/fruits/">a</a> <a href="/my%20fruits/x/">b</a>"#),
            page("fruits/index.html", ""),
        ]
        let broken = LinkChecker(files: files, basePath: "/my%20fruits/").brokenLinks()
        #expect(broken.map(\.link) == ["/my%20fruits/x/"])
    }

    /// `check` adds pages a batch at a time as they render and keeps none: a link is judged
    /// as its page comes, against every path of the site, and one to another page's
    /// `#fragment` waits for that page's ids, whichever batch brings it.
    @Test func judgesPagesAddedInBatchesAsPagesAddedAtOnce() {
        let files = [
            page(
                "index.html",
                ##"<a href="fruits/apple/#facts">a</a> <a href="fruits/apple/#nope">b</a>"##
                    + ##" <a href="#top">c</a> <a href="#gone">d</a> <a href="fruits/pear/">e</a>"##
                    + ##" <h1 id="top">t</h1> <a href="fruits/apple/">f</a>"##),
            page(
                "fruits/apple/index.html",
                ##"<h2 id="facts">F</h2> <a href="../../#top">g</a> <a href="../../#none">h</a>"##
                    + ##" <a href="../../fruits/apple/#facts">i</a>"##),
            page("fruits/index.html", ##"<a href="../#gone">j</a> <a href="../x.png">k</a>"##),
        ]
        var batched = LinkChecker(paths: Set(files.map(\.path)), basePath: "/")
        for file in files.reversed() { batched.add([file]) }
        let whole = LinkChecker(files: files, basePath: "/").brokenLinks()
        #expect(batched.brokenLinks() == whole)
        #expect(
            whole.map { "\($0.page) \($0.link): \($0.reason)" } == [
                "fruits/apple/index.html ../../#none: no element has the id 'none' there",
                "fruits/index.html ../#gone: no element has the id 'gone' there",
                "fruits/index.html ../x.png: no such page in the site",
                "index.html fruits/apple/#nope: no element has the id 'nope' there",
                "index.html #gone: no element has the id 'gone' there",
                "index.html fruits/pear/: no such page in the site",
            ])
    }

    /// Only where an address is written: a Markdown link or definition, an HTML attribute,
    /// after a template tag; not in prose, a template comment or front-matter text.
    @Test func findsALinkWhereAnAddressIsWritten() {
        let text = """
            Literal (nope/) and nope/ here.
            [a](nope/) <img src=nope/> <a href="nope/">
            [ref]:  nope/
            {{! see nope/ }}<script src="{{root}}nope/">
            """
        #expect(
            LinkLocator.places(of: "nope/", in: text[...]).map { "\($0.line):\($0.column)" } == [
                "2:5", "2:21", "2:37", "3:9", "4:38",
            ])
    }

    /// In Markdown, a link shown in an inline code span is no link.
    @Test func skipsInlineCodeInMarkdown() {
        let text = "Write `[x](nope/)` for a link.\nA real [md](nope/) one.\n"
        #expect(
            LinkLocator.places(of: "nope/", in: text[...], isMarkdown: true).map {
                "\($0.line):\($0.column)"
            } == ["2:13"])
        #expect(LinkLocator.places(of: "nope/", in: text[...]).count == 2)
    }

    /// Nor is one in a fenced code block, of backticks or tildes, in a list item or not, up
    /// to a closing fence at least as long.
    @Test func skipsFencedCodeInMarkdown() {
        let text = """
            ```markdown
            [x](nope/)
            ``
            [y](nope/)
            ```
            - item

              ~~~~
              [z](nope/)
              ~~~
              ~~~~~
            A real [md](nope/) one.
            """
        #expect(
            LinkLocator.places(of: "nope/", in: text[...], isMarkdown: true).map {
                "\($0.line):\($0.column)"
            } == ["12:13"])
        #expect(LinkLocator.places(of: "nope/", in: text[...]).count == 4)
    }

    @Test func findsALinkWrittenWholeNotInsideALongerOne() {
        let text = "See [apple](../apple/) and [a](../a).\n[again](../a)\n"
        let places = LinkLocator.places(of: "../a", in: text[...])
        #expect(places.map { "\($0.line):\($0.column)" } == ["1:32", "2:9"])
        #expect(LinkLocator.places(of: "../apple/", in: text[...]).map(\.column) == [13])
        #expect(LinkLocator.places(of: "../b", in: text[...]).isEmpty)
    }

    /// Blanks around an attribute's `=` are HTML too: its link is checked and placed, its id
    /// is one a fragment can name.
    @Test func readsAnAttributeWithBlanksAroundItsEquals() {
        let html = #"<a href = "nope/">x</a><h2 id ='here'>H</h2><img src= x.png>"#
        let scan = HTMLAttributes.scan(Array(html.utf8))
        #expect(scan.links == ["nope/", "x.png"])
        #expect(scan.ids == ["here"])
        #expect(LinkLocator.places(of: "nope/", in: html[...]).map(\.column) == [12])
    }

    @Test func decodesAttributeEntities() {
        let scan = HTMLAttributes.scan(Array("<a href=\"a?x=1&amp;y=&#x32;&#51;\" id=q&lt;>".utf8))
        #expect(scan.links == ["a?x=1&y=23"])
        #expect(scan.ids == ["q<"])
    }
}
