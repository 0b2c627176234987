import Foundation
import Mustache
import TestSupport
import Testing

@testable import FruitsiteCore

/// Each kind of page is declared once (`PageData.walk`), and each part of it is made from its
/// reads alone: so whenever a change to the site changes a variable a part provides, the hash
/// of the part's reads moves with it. Each change below is made to a copy of the sample, and
/// every variable of every part of every page is compared before and after; a variable that
/// no change moves fails the test too, so that a variable added to a declaration is tested as
/// soon as it exists.
@Suite struct PageDeclarationTests {
    enum Change: Sendable, CustomStringConvertible {
        case sample(PageInputTests.Change)
        case description, pageSize, categorySpelling, facetSpelling

        /// Every change to the content and the config; the templates' changes show in the
        /// rendered bytes, not the data (`PageInputTests`).
        static let all: [Change] =
            PageInputTests.Change.allCases.filter {
                ![.fruitTemplate, .layout, .partial].contains($0)
            }.map(Change.sample) + [.description, .pageSize, .categorySpelling, .facetSpelling]

        var description: String {
            switch self {
            case .sample(let change): change.rawValue
            case .description: "description"
            case .pageSize: "pageSize"
            case .categorySpelling: "categorySpelling"
            case .facetSpelling: "facetSpelling"
            }
        }
    }

    /// Variables no change here moves: where the page is (the 404 page's `page` has no
    /// canonical URL), the totals' singulars, which a site of one fruit would move, the
    /// theme's words, which its kind's version covers as it does the templates (a theme is
    /// loaded again for another language), and the page in other languages, which a site in
    /// one has none of (`LanguageBuildTests` moves them).
    static let fixed: Set<String> = [
        "site.root", "site.home", "site.redirect", "notFound site.page",
        "totals.isSingleFruit", "totals.isSingleCategory", "site.strings", "site.searchStrings",
        "languages.languages", "languages.hasLanguages", "languages.alternates",
    ]

    @Test func everyVariableOfEveryPartIsCoveredByItsReads() throws {
        var moved: Set<String> = []
        var seen: Set<String> = []
        for change in Change.all {
            let folder = try PageInputTests.copyOfTheSample()
            defer { folder.remove() }
            var config = Self.config
            let before = try Self.parts(folder.path, config: config)
            try Self.make(change, in: folder, &config)
            let after = try Self.parts(folder.path, config: config)
            for (path, page) in before {
                for (part, old) in page.parts {
                    for variable in old.variables.keys {
                        seen.insert("\(page.kind) \(part).\(variable)")
                    }
                    guard let new = after[path]?.parts[part] else { continue }
                    for (variable, value) in new.variables where old.variables[variable] != value {
                        moved.insert("\(page.kind) \(part).\(variable)")
                        #expect(
                            new.hash != old.hash,
                            "\(change): \(variable) of \(part) on \(path) changed, its reads did not"
                        )
                    }
                }
            }
        }
        let unmoved = seen.subtracting(moved).filter { name in
            !Self.fixed.contains(where: { name == $0 || name.hasSuffix(" " + $0) })
        }
        #expect(unmoved.isEmpty, "no change moves these; add one: \(unmoved.sorted())")
    }

    static var config: SiteConfig {
        var config = SiteConfig()
        config.pageSize = 5
        config.baseURL = "https://example.org/"
        return config
    }

    static func make(_ change: Change, in folder: TemporaryDirectory, _ config: inout SiteConfig)
        throws
    {
        func edit(_ path: String, _ from: String, _ to: String) throws {
            try PageInputTests.edit(path, from, to, in: folder, for: "\(change)")
        }
        switch change {
        case .sample(let change): try PageInputTests.make(change, in: folder, &config)
        case .description: config.description = "Other"
        case .pageSize: config.pageSize = 4
        case .categorySpelling:
            // The category keeps its slug and its members, and changes its name.
            for file in ["grape", "kiwi", "passion-fruit"] {
                try edit("Content/\(file).md", "Grapes & Vines", "Grapes & vines")
            }
        case .facetSpelling:
            // The same for a value of a facet.
            try edit("Content/date.md", "B6, B3", "B6, b3")
            try edit("Content/physalis.md", "C, B3", "C, b3")
        }
    }

    /// A page's kind, and each part's hash and variables.
    struct Parts {
        var kind: PageKind
        var parts: [String: (hash: UInt64, variables: [String: MustacheValue])] = [:]
    }

    /// Every page of the site in `folder`, every part shown, by path: with a dynamic partial
    /// in the layout, which could look up anything, every asset's URL is shown too.
    static func parts(_ folder: String, config: SiteConfig) throws -> [String: Parts] {
        let layout = try String(
            contentsOfFile: folder + "/Templates/layout.mustache", encoding: .utf8)
        if !layout.contains("{{>*noSuchName}}") {
            try layout.replacingOccurrences(of: "</body>", with: "{{>*noSuchName}}</body>")
                .write(
                    toFile: folder + "/Templates/layout.mustache", atomically: true, encoding: .utf8
                )
        }
        let applied = try PageInputTests.applied(folder, config: config)
        let (model, theme) = (applied.model, applied.data.theme)
        let plan = applied.plan
        var data = applied.data
        let pages =
            model.pages(in: data.pagination, hasSitemap: config.hasSitemap, writes: theme.writes)
            + data.feeds.pages + [.searchIndex, .searchRecords(model.catalogPositions)]
        _ = data.prepare(for: pages, within: .none)
        var site: [String: Parts] = [:]
        for page in pages {
            var recorder = PartRecorder(root: data.root(of: page))
            data.walk(page, details: { plan.details(of: $0)!.load()! }, into: &recorder)
            site[page.path(in: model)] = Parts(kind: page.kind, parts: recorder.parts)
        }
        return site
    }
}

/// Records each part of a page, every part shown: its variables (a file's bytes as `bytes`),
/// and the hash of its reads and of the page's root, which the page's own hash adds.
private struct PartRecorder: PageWalk {
    let root: String
    var parts: [String: (hash: UInt64, variables: [String: MustacheValue])] = [:]

    func shows(_ input: PageInput) -> Bool { true }

    mutating func add<each Read: PageRead>(
        _ input: PageInput, _ reads: repeat each Read,
        value: (repeat each Read) throws(BuildFailure) -> MustacheObject
    ) {
        var variables: [String: MustacheValue] = [:]
        if let object = try? value(repeat each reads) {
            for (key, value) in object { variables[key] = value }
        }
        parts["\(input)"] = (hash(repeat each reads), variables)
    }

    mutating func add<each Read: PageRead>(
        file reads: repeat each Read, bytes: (repeat each Read) throws(BuildFailure) -> [UInt8]
    ) {
        let text = (try? bytes(repeat each reads)).map { String(decoding: $0, as: UTF8.self) }
        parts["file"] = (
            hash(repeat each reads), ["bytes": text.map(MustacheValue.string) ?? .null]
        )
    }

    private func hash<each Read: PageRead>(_ reads: repeat each Read) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(root)
        for read in repeat each reads { read.combine(into: &hasher) }
        return hasher.value
    }
}
