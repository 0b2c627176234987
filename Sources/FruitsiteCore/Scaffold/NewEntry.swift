import Foundation

/// The Markdown file `fruitsite new` writes: front matter from a few fields, then a line of
/// body, named after the name's slug.
public struct NewEntry: Sendable {
    public var name: String
    public var category: String
    public var emoji: String?
    public var vitamins: String?
    public var body: String

    public init(
        name: String, category: String, emoji: String? = nil, vitamins: String? = nil,
        body: String? = nil
    ) {
        self.name = name
        self.category = category
        self.emoji = emoji
        self.vitamins = vitamins
        self.body = body ?? "Write about \(name) here.\n"
    }

    /// The file's name without `.md`: `Blood Orange` → `blood-orange`, `Açaí` → `acai`.
    public var slug: String { Slug.make(from: name) }

    /// The file's text. Values are YAML double-quoted strings, so any name is kept as typed.
    public var text: String {
        var lines = ["---", "name: \(Self.quoted(name))"]
        if let emoji, !emoji.isEmpty { lines.append("emoji: \(Self.quoted(emoji))") }
        lines.append("category: \(Self.quoted(category))")
        if let vitamins, !vitamins.isEmpty { lines.append("vitamins: \(Self.quoted(vitamins))") }
        lines += ["---", body]
        return lines.joined(separator: "\n")
    }

    /// Writes `<contentDirectory>/<slug>.md` and returns its path.
    /// - Parameters:
    ///   - facets: The site's facets (`SiteConfig.facets`), read from the entry as a build
    ///     reads them.
    ///   - catalog: The site's entries, drafts included, when they load: a category or facet
    ///     value they spell otherwise with the same URL slug (`tropical` beside `Tropical`)
    ///     would fail the build, so it is refused too.
    /// - Throws: `BuildFailure` for values a build would refuse, or when an entry with the
    ///   same slug exists anywhere in the content folder: nothing is ever overwritten.
    public func write(
        into contentDirectory: String, facets: [String], catalog: Catalog?
    ) throws(BuildFailure) -> String {
        let path = contentDirectory + "/" + slug + ".md"
        let location = SourceLocation(path: path)
        // The parser a build reads it with says whether it would build: a blank or two-line
        // name, a category too long for a folder. Its errors are the values', not a file's.
        let parsed = FruitParser(facets: facets).parse(
            SourceFile(path: path, bytes: Array(text.utf8)))
        let errors = parsed.diagnostics.filter(\.isError)
        if !errors.isEmpty {
            throw BuildFailure(errors.map { .error(at: location, $0.message, hint: $0.hint) })
        }
        if let fruit = parsed.fruit, let catalog {
            let clashes = Self.clashes(of: fruit, with: catalog).map { clash in
                Diagnostic.error(
                    at: location,
                    "\(clash.what) '\(clash.value)' is spelled '\(clash.existing)' by "
                        + "\(clash.fruit): both have the URL slug '\(Slug.make(from: clash.value))'",
                    hint: "spell it '\(clash.existing)', as the other entries do")
            }
            if !clashes.isEmpty { throw BuildFailure(clashes) }
        }
        if let existing = Self.entry(named: slug + ".md", under: contentDirectory) {
            throw BuildFailure([
                .error(
                    at: location, "an entry named '\(slug)' exists already: \(existing)",
                    hint: "choose another name, or edit that file")
            ])
        }
        do throws(PathError) {
            try FileSystem.writeNewFile(path, Array(text.utf8))
        } catch {
            throw BuildFailure([.error(at: location, "cannot write the file: \(error)")])
        }
        return path
    }

    /// The fruit's category and facet values that `catalog` spells otherwise with the same
    /// URL slug, each with that spelling and a fruit that has it.
    private static func clashes(of fruit: Fruit, with catalog: Catalog) -> [(
        what: String, value: String, existing: String, fruit: String
    )] {
        var clashes: [(what: String, value: String, existing: String, fruit: String)] = []
        let slug = Slug.make(from: fruit.category)
        if let other = catalog.categories.first(where: {
            $0.slug == slug && $0.name != fruit.category
        }) {
            let owner = catalog.fruits[other.fruitIndexes[0]].slug
            clashes.append(("category", fruit.category, other.name, owner))
        }
        for facet in fruit.facets {
            for value in facet.values {
                let slug = Slug.make(from: value)
                for other in catalog.fruits {
                    if let existing = other.values(ofFacet: facet.key).first(where: {
                        $0 != value && Slug.make(from: $0) == slug
                    }) {
                        clashes.append((facet.key, value, existing, other.slug))
                        break
                    }
                }
            }
        }
        return clashes
    }

    /// A file of that name anywhere under `folder` where a build reads entries: hidden files
    /// and folders are skipped, as the build skips them.
    private static func entry(named name: String, under folder: String) -> String? {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return nil }
        while let relative = enumerator.nextObject() as? String {
            let last = (relative as NSString).lastPathComponent
            if last.hasPrefix(".") {
                enumerator.skipDescendants()
            } else if last == name {
                return folder + "/" + relative
            }
        }
        return nil
    }

    private static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                quoted += String(format: "\\x%02X", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
