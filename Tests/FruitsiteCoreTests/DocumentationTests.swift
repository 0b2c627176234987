import Foundation
import Mustache
import TestSupport
import Testing

@testable import FruitsiteCore

/// The reference pages in `docs/reference/` document everything the code reads or provides.
/// Each list is taken from the code (the parser's known keys, the config's keys, the
/// variables each kind of page's declaration makes), so a key or variable added without its
/// row in the reference fails here.
@Suite struct DocumentationTests {
    static let reference = repositoryRoot + "/docs/reference/"

    @Test func everyFrontMatterKeyHasARow() throws {
        let documented = Set(
            try MarkdownTables(path: Self.reference + "content.md").rows.flatMap(\.names))
        let missing = FruitParser.knownKeys.filter { !documented.contains($0) }
        #expect(missing.isEmpty, "docs/reference/content.md has no row for the keys \(missing)")
    }

    @Test func everyConfigKeyHasARow() throws {
        let documented = Set(
            try MarkdownTables(path: Self.reference + "config.md").rows.flatMap(\.names))
        let missing = SiteConfig.keys.filter { !documented.contains($0) }
        #expect(missing.isEmpty, "docs/reference/config.md has no row for the keys \(missing)")
    }

    /// Every variable every part of every templated page provides, on the sample with dates
    /// and pages (so that feeds, dates and pagers are there), has a row in the section of its
    /// page's template or in "Every page", or under a row that links to a section for it.
    @Test func everyTemplateVariableHasARow() throws {
        let folder = try PageInputTests.copyOfTheSample()
        defer { folder.remove() }
        let site = try PageDeclarationTests.parts(folder.path, config: PageDeclarationTests.config)
        var variables: [String: Set<String>] = [:]
        var containers: Set<String> = []
        for page in site.values {
            guard let template = page.kind.template else { continue }
            for part in page.parts.values {
                for (name, value) in part.variables {
                    Self.collect(
                        name, value, into: &variables[template, default: []], &containers)
                }
            }
        }
        let page = try MarkdownTables(path: Self.reference + "template-variables.md")
        var sections: [String: MarkdownTables.Section] = [:]
        for section in page.sections { sections[HeadingIDs.slug(section.heading)] = section }
        #expect(!variables.isEmpty)
        for (template, names) in variables.sorted(by: { $0.key < $1.key }) {
            let own = page.sections.first {
                $0.heading.split(separator: ":").first == "\(template)"
            }
            #expect(
                own != nil, "template-variables.md has no section for the template '\(template)'")
            let scopes = [own, sections["every-page"]].compactMap { $0 }
            let missing = names.sorted().filter { name in
                let path = name.split(separator: ".").map(String.init)
                return !scopes.contains {
                    Self.documents(
                        path, in: $0, sections, orMembers: containers.contains(name), depth: 0)
                }
            }
            #expect(
                missing.isEmpty,
                "template-variables.md documents none of \(missing) for '\(template)'")
        }
    }

    /// Every message of the default theme's English, plain (`strings.<key>`) or filled in by
    /// fruitsite, has a row in the string tables' section.
    @Test func everyThemeMessageHasARow() throws {
        let page = try MarkdownTables(path: Self.reference + "template-variables.md")
        let section = try #require(
            page.sections.first { HeadingIDs.slug($0.heading) == "strings-the-themes-words" })
        let documented = Set(section.rows.flatMap(\.names))
        let keys = ThemeStrings.defaultEnglish.messages.keys.sorted()
        #expect(!keys.isEmpty)
        let missing = keys.filter { !documented.contains($0) }
        #expect(missing.isEmpty, "template-variables.md documents none of the messages \(missing)")
    }

    /// Names whose members are the site's own: the theme's asset files, an entry's extra keys.
    static let opaque: Set<String> = ["assets", "fruit.params"]

    /// `name` and, inside objects and the items of lists, every name below it, dotted;
    /// `containers` gets the names that have names below them.
    static func collect(
        _ name: String, _ value: MustacheValue, into names: inout Set<String>,
        _ containers: inout Set<String>
    ) {
        names.insert(name)
        guard !opaque.contains(name) else { return }
        switch value {
        case .object(let object):
            for (key, member) in object {
                containers.insert(name)
                collect(name + "." + key, member, into: &names, &containers)
            }
        case .array(let items):
            for item in items { collect(name, item, into: &names, &containers) }
        default: break
        }
    }

    /// Whether a row of `section` names `path` (`pager.pages[].number` names
    /// `pager.pages.number`), or a member of it when `orMembers` (`site.title` documents
    /// `site`), or names a start of it and links to a section that documents the rest.
    static func documents(
        _ path: [String], in section: MarkdownTables.Section,
        _ sections: [String: MarkdownTables.Section], orMembers: Bool, depth: Int
    ) -> Bool {
        guard depth < 5 else { return false }
        return section.rows.contains { row in
            row.names.contains { name in
                let written = name.replacingOccurrences(of: "[]", with: "").split(separator: ".")
                    .map(String.init)
                if written == path || (orMembers && written.starts(with: path)) { return true }
                guard written.count < path.count, path.starts(with: written) else { return false }
                return row.anchors.contains { anchor in
                    sections[anchor].map {
                        documents(
                            Array(path.dropFirst(written.count)), in: $0, sections,
                            orMembers: orMembers, depth: depth + 1)
                    } ?? false
                }
            }
        }
    }
}
