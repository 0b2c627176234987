import Mustache

/// The `assets` template variable: each asset's URL from the page, by its name below
/// `assets/` split at every `/` and `.` (`{{assets.site.css}}` is
/// `../../assets/site.k3j5h2a9.css` on a fruit's page, `{{assets.icons.a.svg}}` names
/// `assets/icons/a.svg`), and for each kind of page the hash of the URLs its templates can
/// look up. A class, so that every page's read of it copies one reference.
final class AssetURLs: Sendable {
    /// Each asset's name and the path pages link, in the order of their names.
    private let variables: [(name: [String], path: String)]
    /// The variable from each depth of the site's folders, made once rather than per page.
    private let byRoot: [String: MustacheValue]
    /// By `PageKind.index`, the hash of the names and paths that kind's templates can look
    /// up: a page shows the URLs of the assets it links, and only those.
    private let hashes: [UInt64]

    /// The roots of the pages at the depths the site's pages are at, up to a later page of
    /// a category (`categories/berries/page/2/`).
    private static let roots = (0...4).map { String(repeating: "../", count: $0) }

    init(theme: TemplateLoader.Theme) {
        // In the order of their names' parts, so that those below one name follow one
        // another: in path order, `a.b.c` and `a/b.d` can have `a.c.d` between them.
        let variables = theme.assetNames.variables.sorted {
            $0.name.lexicographicallyPrecedes($1.name)
        }
        self.variables = variables
        byRoot = Dictionary(
            uniqueKeysWithValues: Self.roots.map { ($0, Self.value(of: variables[...], $0)) })
        hashes = PageKind.allCases.map { kind in
            guard let template = kind.template, let usage = theme.library.usage(of: template)
            else { return 0 }
            // A lookup reaches the variables whose names continue its own, and the one its
            // name continues (`assets.site.css.map` goes through `assets.site.css`).
            let lookups = usage.lookups.compactMap { lookup in
                lookup.name.first == "assets" ? lookup.name.dropFirst() : nil
            }
            var hasher = StableHasher()
            for (name, path) in variables
            where usage.hasDynamicInclusions
                || lookups.contains(where: { name.starts(with: $0) || $0.starts(with: name) })
            {
                for part in name { hasher.combine(part) }
                hasher.combine(path)
            }
            return hasher.value
        }
    }

    /// The variable on a page whose way to the site root is `root`.
    func value(root: String) -> MustacheValue {
        byRoot[root] ?? Self.value(of: variables[...], root)
    }

    /// The hash of what pages of `kind` can show of the variable.
    func hash(of kind: PageKind) -> UInt64 { hashes[kind.index] }

    /// The object the variables make, each path given from `root`. No name continues
    /// another (`AssetNames` gives none such), so a name that ends here is a URL.
    private static func value(
        of variables: ArraySlice<(name: [String], path: String)>, _ root: String, depth: Int = 0
    ) -> MustacheValue {
        var object = MustacheObject()
        var rest = variables
        while let first = rest.first {
            let key = first.name[depth]
            let group = rest.prefix { $0.name[depth] == key }
            rest = rest.dropFirst(group.count)
            object[key] =
                first.name.count == depth + 1
                ? .string(root + first.path) : value(of: group, root, depth: depth + 1)
        }
        return .object(object)
    }
}
