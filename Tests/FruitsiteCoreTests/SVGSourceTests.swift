@testable import FruitsiteCore
import TestSupport
import Testing

/// SVG files read for their size and for what could run script when opened on their own.
@Suite struct SVGSourceTests {
    private static let namespaces =
        #"xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#

    // MARK: - Size

    @Test(arguments: [
        (#"width="120" height="80""#, 120, 80),
        (#"width="120px" height=" 80.5PX ""#, 120, 81),
        (#"width="10.4" height="0.2""#, 10, 1),
        (#"width="1e2" height="+50""#, 100, 50),
        (#"width="10em" height="5em" viewBox="0 0 300 200""#, 300, 200),
        (#"width="100%" height="100%" viewBox="0,0,64,32""#, 64, 32),
        (#"viewBox=" -10 , -10  48.6 24 ""#, 49, 24),
        (#"width="200" viewBox="0 0 100 50""#, 200, 100),
        (#"height="30mm" width="40" viewBox="0 0 100 50""#, 40, 20),
        (#"height="30" viewBox="0 0 100 50""#, 60, 30),
        (#"width='3' height='4'"#, 3, 4),
    ])
    func readsTheSize(_ attributes: String, width: Int, height: Int) throws {
        let svg = try SVGSource(
            Array("<svg \(Self.namespaces) \(attributes)><rect/></svg>".utf8),
            allowsScripts: false)
        #expect([svg.width, svg.height] == [width, height])
    }

    @Test(arguments: [
        "",
        #"width="3mm" height="4mm""#,
        #"width="120""#,
        #"width="-5" height="5""#,
        #"viewBox="0 0 0 10""#,
        #"viewBox="0 0 10""#,
        #"viewBox="0 0 10 10 10""#,
        #"width="inf" height="nan""#,
        #"width="1e12" height="10""#,
    ])
    func needsAWidthAndHeightOrAViewBox(_ attributes: String) {
        expectProblem(
            "<?xml version=\"1.0\"?>\n1️⃣<svg \(Self.namespaces) \(attributes)></svg>",
            saying: "an SVG needs a width and height, or a viewBox", evenWithScripts: true)
    }

    // MARK: - What could run script

    @Test(arguments: [
        ("1️⃣<script>alert(1)</script>", "<script>"),
        ("1️⃣<SCRIPT>alert(1)</SCRIPT>", "<SCRIPT>"),
        (#"1️⃣<svg:script xmlns:svg="http://www.w3.org/2000/svg"/>"#, "<svg:script>"),
        ("<g>\n  1️⃣<foreignObject><p>hi</p></foreignObject>\n</g>", "<foreignObject>"),
        (#"<rect 1️⃣OnLoad="alert(1)"/>"#, "event handler attribute `OnLoad`"),
        (#"<rect x="1" 1️⃣xlink:ONclick="alert(1)"/>"#, "`xlink:ONclick`"),
        (#"<a 1️⃣href="&#106;avascript:alert(1)"><text>x</text></a>"#, "`javascript:` address"),
        (#"<a 1️⃣xlink:href="&#x6A;ava&#x09;script:alert(1)"/>"#, "`javascript:` address"),
        (#"<a 1️⃣href="&#0000106;avascript:alert(1)"/>"#, "`javascript:` address"),
        ("<a 1️⃣href=\" java\tscr\nipt:alert(1)\"/>", "`javascript:` address in `href`"),
        (#"<a 1️⃣href="&#1;JavaScript&#58;alert(1)"/>"#, "`javascript:` address"),
        (#"<a 1️⃣href="VBScript:MsgBox(1)"/>"#, "`vbscript:` address"),
        (#"<a 1️⃣href="DATA:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"/>"#, "data:text/html"),
        (
            #"<set attributeName="href" 1️⃣to="javascript:alert(1)"/>"#,
            "`javascript:` address in `to`"
        ),
        (##"<animate attributeName="href" 1️⃣values="#a; javascript:alert(1)"/>"##, "in `values`"),
        (#"<animate attributeName="xlink:href" 1️⃣from=" &#x6a;avascript:1"/>"#, "in `from`"),
        (#"<set 1️⃣attributeName="onclick" to="alert(1)"/>"#, "an animation of an event handler"),
        (
            "<style>\n  rect { fill: red }\n  1️⃣@import url(x.css);\n</style>",
            "`@import` in a <style>"
        ),
        ("<style><![CDATA[ a { b: 1️⃣Expression(alert(1)) } ]]></style>", "`expression(`"),
        ("<style>a { b: 1️⃣expres<![CDATA[sion(1) }]]></style>", "`expression(`"),
        ("<style>1️⃣&#64;import 'x.css';</style>", "`@import`"),
        (#"<rect 1️⃣style="fill: url(JavaScript:alert(1))"/>"#, "`javascript:` in a style attribute"),
        (#"<rect 1️⃣style="width: expression(alert(1))"/>"#, "`expression(` in a style attribute"),
        (#"<g>1️⃣<?php echo 1 ?></g>"#, "the processing instruction <?php?>"),
    ])
    func refusesWhatRunsScript(_ content: String, saying what: String) {
        expectProblem(
            "<svg \(Self.namespaces) width=\"10\" height=\"10\">\n\(content)\n</svg>",
            saying: what)
    }

    @Test(arguments: [
        "handler", "listener", "foreignObject", "iframe", "frame", "embed", "object", "applet",
        "base", "meta",
    ])
    func refusesElementsThatRunScriptOrLoadADocument(_ name: String) {
        expectProblem(
            "<svg \(Self.namespaces) width=\"10\" height=\"10\">1️⃣<\(name)/></svg>",
            saying: "<\(name)>")
    }

    @Test func checksTheRootElementToo() {
        expectProblem(
            #"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1" 1️⃣onload="alert(1)"/>"#,
            saying: "the event handler attribute `onload`")
    }

    @Test func refusesEntityDeclarations() {
        expectProblem(
            """
            <?xml version="1.0"?>
            <!DOCTYPE svg [
              <!-- the subset's ']' and '>' in quotes do not end it -->
              1️⃣<!ENTITY x "&#60;script>alert(']>')&#60;/script>">
            ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">&x;</svg>
            """, saying: "an entity declaration")
        expectProblem(
            """
            <!DOCTYPE svg 1️⃣[ <!-- nothing declared --> ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>
            """, saying: "a DOCTYPE's internal subset")
    }

    @Test func refusesAStyleSheetProcessingInstruction() {
        expectProblem(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            1️⃣<?xml-stylesheet type="text/xsl" href="page.xsl"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>
            """, saying: "the processing instruction <?xml-stylesheet?>")
    }

    /// One error a picture: the first in the file, though the root's attributes come later
    /// than its `<`.
    @Test func reportsTheFirstProblemOnly() {
        expectProblem(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
              1️⃣<script>alert(1)</script>
              <rect onclick="alert(2)"/>
            </svg>
            """, saying: "<script>")
        expectProblem(
            #"1️⃣<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#,
            saying: "an SVG needs a width and height", evenWithScripts: true)
    }

    /// Columns count Unicode scalars: `é` written as `e` and a combining accent is two.
    @Test func placesAProblemOnItsLineAndColumn() throws {
        let marked = MarkedText(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
              <text>Caf\u{65}\u{301} 🍎</text>
              <text>Caf\u{65}\u{301} 🍎</text> <a 1️⃣href="javascript:alert(1)"/>
            </svg>
            """, columns: .unicodeScalars)
        #expect(marked.line == 3)
        for text in [marked.text, "\u{FEFF}" + marked.text.replacing("\n", with: "\r\n")] {
            let found = try #require(problem(in: text))
            #expect(found.line == 3)
            #expect(found.column == marked.column)
            #expect(found.description.hasPrefix("3:\(marked.column): a `javascript:` address"))
        }
        // Editors show no byte order mark, so it takes no column.
        #expect(problem(in: "\u{FEFF}<html/>").map { [$0.line, $0.column] } == [1, 1])
    }

    // MARK: - What stays allowed

    @Test func readsAnOrdinaryDrawing() throws {
        let svg = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <!-- Created with a drawing program: <script> in a comment is no script -->
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"
              "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
                 xmlns:dc="http://purl.org/dc/elements/1.1/"
                 width="210mm" height="297mm" viewBox="0 0 210 297" version='1.1'>
              <title>Apple &amp; pear © 2024</title>
              <desc>Notes on javascript: and &lt;script&gt;, as text.<![CDATA[ <script> ]]></desc>
              <metadata><dc:title>Fruit</dc:title></metadata>
              <defs>
                <style type="text/css"><![CDATA[
                  .skin { fill: url(#gradient); stroke: #336600 }
                  @media (prefers-color-scheme: dark) { .skin { stroke: white } }
                ]]></style>
                <linearGradient id="gradient"><stop offset="0" stop-color="#c00"/></linearGradient>
                <path id="leaf" d="M 10,10 C 20,20 40,20 50,10 Z"/>
              </defs>
              <g style="opacity: 0.9; font-family: 'Helvetica'">
                <use xlink:href="#leaf" x="5"/>
                <a href="https://example.org/fruit?a=1;b=2"><circle class="skin" r="40"/></a>
                <animate attributeName="opacity" values="0;1;0.5" dur="2s"/>
                <set attributeName="href" to="#leaf"/>
                <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
              </g>
            </svg>

            """
        let source = try SVGSource(Array(svg.utf8), allowsScripts: false)
        #expect([source.width, source.height] == [210, 297])
    }

    /// With `rawHTML: true` every document that `refusesWhatRunsScript` refuses is read.
    @Test func allowsScriptsWhenTheSiteAllowsRawHTML() throws {
        let svg = """
            <?xml version="1.0"?>
            <?xml-stylesheet type="text/xsl" href="page.xsl"?>
            <!DOCTYPE svg [ <!ENTITY x "fruit"> ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="32" height="16" onload="init()">
              <script><![CDATA[ if (1 < 2) alert("<svg>") ]]></script>
              <a href="javascript:alert(1)"><text>&x;</text></a>
              <foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="x"/></foreignObject>
              <style>@import url(x.css);</style>
            </svg>
            """
        let source = try SVGSource(Array(svg.utf8), allowsScripts: true)
        #expect([source.width, source.height] == [32, 16])
        #expect(problem(in: svg)?.line == 2)
    }

    @Test(arguments: [
        "<script>alert(1)</script>",
        #"<rect OnLoad="alert(1)"/>"#,
        #"<a href="&#106;avascript:alert(1)"/>"#,
        #"<set attributeName="href" to="javascript:alert(1)"/>"#,
        "<style>@import url(x.css);</style>",
    ])
    func allowsEachScriptWhenTheSiteAllowsRawHTML(_ content: String) throws {
        let svg = "<svg \(Self.namespaces) width=\"10\" height=\"10\">\(content)</svg>"
        #expect(try SVGSource(Array(svg.utf8), allowsScripts: true).width == 10)
    }

    // MARK: - What is no SVG document

    @Test(arguments: [
        ("1️⃣<html><body/></html>", "not an SVG document: its root element is <html>"),
        ("", "not an SVG document: it has no root element"),
        ("1️⃣<!-- only a comment", "a comment is not closed"),
        (#"<svg width="1" height="1">1️⃣<![CDATA[ x </svg>"#, "a CDATA section is not closed"),
        (#"<svg width="1" height="1">1️⃣<rect x="1""#, "the tag <rect> is not closed"),
        (#"<svg width="1" height="1"><rect x=1️⃣"1/></svg>"#, "the value of `x` is not closed"),
        (#"1️⃣<svg width="1" height="1"><g></g>"#, "the element <svg> is not closed"),
        (#"<svg width="1" height="1"><g>1️⃣</svg>"#, "</svg> stands where </g> belongs"),
        (#"<svg width="1" height="1"><rect 1️⃣x/></svg>"#, "the tag <rect> is malformed"),
        ("1️⃣<!DOCTYPE svg PUBLIC \"x>", "a DOCTYPE is not closed"),
        ("1️⃣text <svg/>", "not an SVG document: text stands before its root element"),
        (#"<svg width="1" height="1">1️⃣<?xml version="1.0"?></svg>"#, "must start the file"),
        (#"<svg width="1" height="1">1️⃣<!ENTITY x "y"></svg>"#, "`<!` starts no comment"),
        (
            "1️⃣<?xml version=\"1.0\"\n  encoding=\"ISO-2022-JP\"?><svg/>",
            "it declares the encoding ISO-2022-JP, and only UTF-8 is read"
        ),
        ("<svg width=\"1\" height=\"1\">1️⃣\u{1B}(B</svg>", "a control character XML does not allow"),
    ])
    func refusesWhatIsNoSVGDocument(_ marked: String, saying message: String) {
        expectProblem(marked, saying: message, evenWithScripts: true)
    }

    @Test func refusesTextThatIsNotUTF8() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("<svg/>".utf8).flatMap { [$0, 0] }
        #expect(
            throws: SVGSource.Problem(
                line: 1, column: 1, message: "not an SVG document: it is not UTF-8 text")
        ) { try SVGSource(utf16, allowsScripts: true) }
    }

    // MARK: - Helpers

    private func problem(in svg: String, allowsScripts: Bool = false) -> SVGSource.Problem? {
        do {
            _ = try SVGSource(Array(svg.utf8), allowsScripts: allowsScripts)
            return nil
        } catch {
            return error
        }
    }

    /// Expects the problem `marked` gives to be at its `1️⃣` (or at 1:1 if it has none), with
    /// a message holding `fragment`. A script's problem tells how to allow it, and goes with
    /// `allowsScripts`; other problems stay.
    private func expectProblem(
        _ marked: String, saying fragment: String, evenWithScripts: Bool = false,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let marked = MarkedText(marked, columns: .unicodeScalars)
        let problem = problem(in: marked.text)
        #expect(problem?.message.contains(fragment) == true, sourceLocation: sourceLocation)
        #expect(
            problem.map { ($0.line, $0.column) } ?? (0, 0) == (
                max(marked.line, 1), max(marked.column, 1)
            ),
            "\(String(describing: problem))", sourceLocation: sourceLocation)
        #expect(
            problem?.message.contains("`rawHTML: true` in the config allows it")
                == !evenWithScripts,
            sourceLocation: sourceLocation)
        let withScripts = self.problem(in: marked.text, allowsScripts: true)
        #expect((withScripts == problem) == evenWithScripts, sourceLocation: sourceLocation)
        if !evenWithScripts {
            #expect(withScripts == nil, sourceLocation: sourceLocation)
        }
    }
}
