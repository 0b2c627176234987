import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// Bidirectional text: a name's explicit formatting characters act inside it and nowhere
/// else, in plain text by `BidiIsolation` and in markup by the theme's `<bdi>` elements.
@Suite struct BidiIsolationTests {
    // MARK: - The rule

    @Test(arguments: ["Apple", "مشمش", "Blood orange — “sweet”", "Ünïcode", "🍎", "", "a\u{200F}"])
    func aNameWithoutFormattingCharactersIsLeftAsItIs(_ name: String) {
        #expect(BidiIsolation.isolated(name) == name)
    }

    @Test(arguments: [
        ("Cat\u{202E}", "\u{2068}Cat\u{202E}\u{2069}"),
        ("\u{202B}x\u{202C}", "\u{2068}\u{202B}x\u{202C}\u{2069}"),
        ("\u{2067}x\u{2069}", "\u{2068}\u{2067}x\u{2069}\u{2069}"),
        // An isolate left open gets its own PDI before the closing one.
        ("a\u{2066}b\u{2067}", "\u{2068}a\u{2066}b\u{2067}\u{2069}\u{2069}\u{2069}"),
        // A PDI that matches nothing inside gets an FSI to match.
        ("a\u{2069}\u{202E}b", "\u{2068}\u{2068}a\u{2069}\u{202E}b\u{2069}"),
    ])
    func aNameWithFormattingCharactersIsIsolated(_ name: String, _ shown: String) {
        #expect(BidiIsolation.isolated(name) == shown)
    }

    /// The claim itself, checked by UAX #9's explicit rules (X1 to X8) on hostile values of
    /// every kind: after the isolated value, the text that follows it is at the embedding
    /// level, override and isolate it was at before, whatever it was (a paragraph's start,
    /// inside an embedding or an isolate, or near the depth limit of 125). Without the
    /// isolation, it is not.
    @Test func whatFollowsAnIsolatedValueIsWhereItWasBefore() {
        var random = SplitMix(seed: 7)
        let alphabet: [Unicode.Scalar] =
            ["a", "\u{05D0}", " "] + (0x202A...0x202E).map { Unicode.Scalar($0)! }
            + (0x2066...0x2069).map { Unicode.Scalar($0)! }
        var values = (0..<3000).map { _ in
            String(
                String.UnicodeScalarView(
                    (0..<random.next(below: 24)).map { _ in
                        alphabet[random.next(below: alphabet.count)]
                    }))
        }
        values += [
            String(repeating: "\u{202B}", count: 130), String(repeating: "\u{2066}", count: 130),
            String(repeating: "\u{2069}", count: 3) + String(repeating: "\u{202E}", count: 130),
        ]
        let contexts = [
            "", "\u{202B}", "\u{2067}x", "\u{202D}\u{2068}\u{05D0}",
            String(repeating: "\u{202A}", count: 123),
        ]
        var (failures, leaks): ([String], Int) = ([], 0)
        for context in contexts {
            let before = ExplicitLevels(context)
            for value in values {
                if ExplicitLevels(context + BidiIsolation.isolated(value)) != before {
                    failures.append("\(value.unicodeScalars.map(\.value)) after \(context.count)")
                }
                if ExplicitLevels(context + value) != before { leaks += 1 }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) values leak: \(failures.prefix(5))")
        #expect(leaks > 1000, "the values do leak when not isolated")
    }

    // MARK: - Built pages

    static let hostile = [
        (
            slug: "apple",
            front:
                "name: \"Apple\\u202E\"\nemoji: \"🍎\\u202E\"\ncategory: \"Pome\\u202E\"\nvitamins: [\"C\\u202E\", B6]\ndate: 2024-05-01"
        ),
        (
            slug: "pear",
            front: "name: Pear\ncategory: \"Pome\\u202E\"\nvitamins: [B6]\ndate: 2024-05-02"
        ),
    ]

    /// A U+202E in a name or category ends at the end of the name in every title, and the rest
    /// of the title keeps its order: the exact bytes.
    @Test func titlesCloseWhatANameLeavesOpen() throws {
        let (site, options) = try temporarySite(
            config: "title: Fruits\npageSize: 1\nbaseURL: https://example.org/\n",
            entries: Self.hostile)
        defer { site.remove() }
        _ = try SiteBuilder(options: options).build()
        let (fsi, pdi, rlo) = ("\u{2068}", "\u{2069}", "\u{202E}")
        let apple = fsi + "Apple" + rlo + pdi
        let pome = fsi + "Pome" + rlo + pdi
        let fruit = try site.read("Output/fruits/apple/index.html")
        #expect(fruit.contains("<title>\(apple) · Fruits</title>"))
        #expect(fruit.contains(#"<meta property="og:title" content="\#(apple)">"#))
        #expect(
            fruit.contains(
                #"<meta name="description" content="\#(apple), a fruit in the \#(pome) category.">"#
            ))
        #expect(fruit.contains(#"{"@type":"ListItem","position":2,"name":"\#(pome)","#))
        let category = try site.read("Output/categories/pome/index.html")
        #expect(
            category.contains(
                #"<link rel="alternate" type="application/atom+xml" title="\#(pome) · Fruits""#))
        #expect(category.contains("<title>\(pome) · Fruits</title>"))
        #expect(category.contains(#"content="2 fruits in the \#(pome) category.""#))
        let second = try site.read("Output/categories/pome/page/2/index.html")
        #expect(second.contains("<title>\(pome), page 2 · Fruits</title>"))
        let facet = try site.read("Output/vitamins/c/index.html")
        #expect(facet.contains("<title>Vitamins: \(fsi)C\(rlo)\(pdi) · Fruits</title>"))
        // The Atom feed is ASCII: every other character a reference.
        let feed = try site.read("Output/feed.xml")
        #expect(feed.contains("<title>\(MarkupText.asciiEscaped(apple))</title>"))
        #expect(
            feed.contains(#"<category term="Pome\#(MarkupText.asciiEscaped(rlo))"/>"#),
            "a term is the name as written")
        let categoryFeed = try site.read("Output/categories/pome/feed.json")
        #expect(
            categoryFeed.contains(
                #"{"version":"https://jsonfeed.org/version/1.1","title":"\#(pome) · Fruits""#))
    }

    /// In listings and menus the name is isolated twice over: by its `<bdi>` and, as its text
    /// may be copied into plain text, by `BidiIsolation`; a menu's value, which the search
    /// compares, and the search index are the name as written.
    @Test func listingsIsolateANameAndMenusKeepItsValue() throws {
        var (site, options) = try temporarySite(
            config: "title: Fruits\n",
            entries: Self.hostile + [
                (slug: "quince", front: "name: Quince\ncategory: \"Pome\\u202E\"")
            ])
        defer { site.remove() }
        options.cacheDirectory = site.path + "/.cache"
        _ = try SiteBuilder(options: options).build()
        let (fsi, pdi, rlo) = ("\u{2068}", "\u{2069}", "\u{202E}")
        let (apple, pome, c) = (
            fsi + "Apple" + rlo + pdi, fsi + "Pome" + rlo + pdi, fsi + "C" + rlo + pdi
        )
        let index = try site.read("Output/index.html")
        #expect(
            index.contains(
                #"<bdi class="card-name">\#(apple)</bdi></a> <bdi class="card-meta">\#(pome)</bdi>"#
            ))
        #expect(index.contains(#"<option value="Pome\#(rlo)">\#(pome) (3)</option>"#))
        #expect(index.contains(#"<option value="C\#(rlo)">\#(c) (1)</option>"#))
        #expect(
            index.contains(
                #"<bdi class="category-name">\#(pome)</bdi> <span class="count">3 fruits</span>"#))
        #expect(index.contains(#"<li><a href="categories/pome/"><bdi>\#(pome)</bdi></a></li>"#))
        let category = try site.read("Output/categories/pome/index.html")
        #expect(category.contains(#"<bdi class="card-name">\#(apple)</bdi>"#))
        #expect(category.contains("Vitamins <bdi>\(c), B6</bdi>"))
        let fruit = try site.read("Output/fruits/apple/index.html")
        #expect(fruit.contains("<h1><bdi>\(apple)</bdi></h1>"))
        #expect(
            fruit.contains(
                #"<a href="../../vitamins/c/"><bdi>\#(c)</bdi></a>, <a href="../../vitamins/b6/"><bdi>B6</bdi></a>"#
            ))
        let pear = try site.read("Output/fruits/pear/index.html")
        let emoji = fsi + "🍎" + rlo + pdi
        #expect(
            pear.contains(
                #"<span class="pager-name"><span class="emoji" aria-hidden="true">\#(emoji)</span> <bdi>\#(apple)</bdi></span>"#
            ))
        #expect(
            index.contains(#"<bdi class="card-emoji emoji" aria-hidden="true">\#(emoji)</bdi>"#))
        let stamped = try FileManager.default.contentsOfDirectory(atPath: site.path + "/Output")
            .first { ContentName.unstamped($0) == "search-index.json" }
        let searchIndex = try site.read("Output/" + #require(stamped))
        #expect(searchIndex.contains(#""name":"Apple\#(rlo)""#))
        #expect(!searchIndex.contains(fsi) && !searchIndex.contains(pdi))

        // Listed again by a later build, from the saved site model rather than the entry: with
        // the clock an hour ahead, the build trusts the unchanged file's status, and the
        // apple's own page, which reads the whole entry, is not rendered again.
        try site.write(
            "Content/quince.md", "---\nname: Quinces\ncategory: \"Pome\\u202E\"\n---\nText.\n")
        var later = SiteBuilder(options: options)
        later.now = { Date().addingTimeInterval(3_600) }
        _ = try later.build()
        let again = try site.read("Output/categories/pome/index.html")
        #expect(again.contains("Quinces"))
        #expect(again.contains("Vitamins <bdi>\(c), B6</bdi>"))
    }

    /// An ordinary catalog's pages hold no character it did not write.
    @Test func plainNamesAddNoInvisibleCharacters() throws {
        let (site, options) = try temporarySite(
            config: "baseURL: https://example.org/\nlanguage: ar\n",
            entries: [
                (
                    slug: "apricot",
                    front: "name: مشمش\ncategory: Stone\nvitamins: [C]\ndate: 2024-05-01"
                ),
                (slug: "apple", front: "name: Apple — “crisp”\ncategory: فاكهة\nvitamins: [A]"),
            ])
        defer { site.remove() }
        _ = try SiteBuilder(options: options).build()
        for file in filesBelow(site.path + "/Output") where !file.hasPrefix("assets/") {
            let text = try site.read("Output/" + file)
            #expect(
                !text.unicodeScalars.contains(where: BidiIsolation.isFormatting), "\(file)")
        }
    }
}

// MARK: - UAX #9's explicit levels

/// The directional status at the end of `text`, one paragraph, by rules X1 to X8 of UAX #9
/// (Unicode 15.1): the stack of embedding levels, overrides and isolates, and the overflow
/// and valid isolate counts. `a` is the only L character and U+05D0 the only R one the tests
/// use; FSI looks at them (P2, P3).
private struct ExplicitLevels: Equatable {
    struct Entry: Equatable {
        var level: Int
        var override: Character?
        var isIsolate: Bool
    }

    var stack = [Entry(level: 0, override: nil, isIsolate: false)]
    var overflowIsolates = 0
    var overflowEmbeddings = 0
    var validIsolates = 0

    init(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0x202A: push(odd: false, override: nil, isolate: false)
            case 0x202B: push(odd: true, override: nil, isolate: false)
            case 0x202D: push(odd: false, override: "L", isolate: false)
            case 0x202E: push(odd: true, override: "R", isolate: false)
            case 0x2066: push(odd: false, override: nil, isolate: true)
            case 0x2067: push(odd: true, override: nil, isolate: true)
            case 0x2068:
                push(
                    odd: Self.firstStrongIsR(scalars[(index + 1)...]), override: nil, isolate: true)
            case 0x2069:  // X6a
                if overflowIsolates > 0 {
                    overflowIsolates -= 1
                } else if validIsolates > 0 {
                    overflowEmbeddings = 0
                    while !stack.last!.isIsolate { stack.removeLast() }
                    stack.removeLast()
                    validIsolates -= 1
                }
            case 0x202C:  // X7
                if overflowIsolates > 0 {
                } else if overflowEmbeddings > 0 {
                    overflowEmbeddings -= 1
                } else if !stack.last!.isIsolate && stack.count >= 2 {
                    stack.removeLast()
                }
            default: break
            }
        }
    }

    /// X2 to X5c: the next odd or even level, within the depth of 125.
    private mutating func push(odd: Bool, override: Character?, isolate: Bool) {
        let current = stack.last!.level
        let level = odd ? (current + 1) | 1 : (current + 2) & ~1
        if level <= 125 && overflowIsolates == 0 && overflowEmbeddings == 0 {
            if isolate { validIsolates += 1 }
            stack.append(Entry(level: level, override: override, isIsolate: isolate))
        } else if isolate {
            overflowIsolates += 1
        } else if overflowIsolates == 0 {
            overflowEmbeddings += 1
        }
    }

    /// P2 and P3 for an FSI: whether the first strong character up to its matching PDI,
    /// skipping nested isolates, is R.
    private static func firstStrongIsR(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        var depth = 0
        for scalar in text {
            switch scalar.value {
            case 0x2066...0x2068: depth += 1
            case 0x2069:
                if depth == 0 { return false }
                depth -= 1
            case 0x61 where depth == 0: return false
            case 0x05D0 where depth == 0: return true
            default: break
            }
        }
        return false
    }
}

/// A small deterministic generator, so that every run checks the same values.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
