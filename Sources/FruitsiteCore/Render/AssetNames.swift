import Mustache

/// The theme's assets as they are published: each under its own name, as it is, and under
/// its stamped name (`ContentName`), a copy whose references to other assets
/// (`AssetReference`) name their stamped copies. A stamped copy's bytes, and so its name,
/// then cover the files it loads: a page that loads `search.<stamp>.js` gets the modules of
/// the same build, and a stamped name always means the same bytes.
///
/// Stamped leaves first: an asset's references must be rewritten before its bytes are
/// hashed. Assets that refer to one another in a cycle cannot be stamped (each stamp would
/// depend on the other's): they are published under their own names only, with a warning,
/// and what refers to them names them so.
struct AssetNames: Sendable {
    /// Every file to publish, in path order: each asset under its own name and its stamped
    /// one.
    let published: [RenderedPage]
    /// The path pages link for each asset, by its own path: its stamped one, or its own
    /// when it cannot be stamped.
    let linked: [String: String]
    /// The `assets` template variable's names, in path order: each asset's path below
    /// `assets/`, split at every `/` and `.`, with the path pages link. An asset whose name
    /// another's takes (`site.css.map`, where `assets.site.css` is `site.css`'s) has none.
    let variables: [(name: [String], path: String)]
    /// Cycles, stamped names that are other assets' own, and variables taken, as
    /// `Templates/assets/…` warnings.
    let warnings: [Diagnostic]

    /// The folder below the output folder that a theme's assets are published to.
    static let folder = "assets/"

    /// Names `assets`, in path order, as the theme at `templatesDirectory` has them.
    /// - Parameter lookups: The names templates look up: a variable another file's name
    ///   takes is a warning only when one of them looks it up.
    init(
        _ assets: [RenderedPage], templatesDirectory: String,
        lookups: () -> Set<[String]> = { [] }
    ) {
        let stamped = Self.stamp(assets, templatesDirectory: templatesDirectory)
        published = stamped.published
        linked = stamped.linked
        let named = Self.variables(
            of: assets, linked: linked, templatesDirectory: templatesDirectory, lookups: lookups)
        variables = named.variables
        warnings = stamped.warnings + named.warnings
    }

    // MARK: - Stamps

    /// Every asset under its own name and its stamped copy, and the path pages link for
    /// each, leaves first; warnings for cycles, and for stamped names taken.
    private static func stamp(_ assets: [RenderedPage], templatesDirectory: String) -> (
        published: [RenderedPage], linked: [String: String], warnings: [Diagnostic]
    ) {
        let paths = Set(assets.map(\.path))
        let references = assets.map { AssetReference.find(in: $0, among: paths) }
        let position = Dictionary(
            uniqueKeysWithValues: assets.indices.map { (assets[$0].path, $0) })
        let edges = references.map { $0.map { position[$0.target]! } }
        func location(_ index: Int, _ reference: AssetReference? = nil) -> SourceLocation {
            SourceLocation(
                path: templatesDirectory + "/" + assets[index].path, line: reference?.line,
                column: reference?.column)
        }
        var published = assets
        var stamped: [String?] = Array(repeating: nil, count: assets.count)
        var warnings: [Diagnostic] = []
        for component in components(of: edges) {
            let members = component.sorted()
            guard members.count == 1, !edges[members[0]].contains(members[0]) else {
                let first = members[0]
                let reference = references[first].first { component.contains(position[$0.target]!) }
                warnings.append(
                    .warning(
                        at: location(first, reference), cycle(members.map { assets[$0].path }),
                        hint: "a stamped name covers the stamped names of the files it loads; "
                            + "move what they share into a file of its own for them to be stamped"))
                continue
            }
            let index = members[0]
            let bytes = rewrite(assets[index].bytes, references[index]) { target in
                stamped[position[target]!]
            }
            let path = ContentName.path(assets[index].path, hash: StableHasher.hash(bytes))
            if let other = position[path] {
                // The theme holds a stamped copy already, such as one taken from an output
                // folder: the same file, or a name that would mean two files.
                guard assets[other].bytes == bytes else {
                    warnings.append(
                        .warning(
                            at: location(index),
                            "the stamped name of \(assets[index].path) is \(path), which the "
                                + "theme has with other bytes: it is published under its own "
                                + "name only",
                            hint: "remove \(path) from the theme"))
                    continue
                }
            } else {
                published.append(RenderedPage(path: path, bytes: bytes))
            }
            stamped[index] = path
        }
        published.sort { $0.path < $1.path }
        var linked: [String: String] = [:]
        for (asset, path) in zip(assets, stamped) { linked[asset.path] = path ?? asset.path }
        return (published, linked, warnings)
    }

    // MARK: - The variable

    /// Each asset's variable name with the path pages link, but for the names another
    /// file's takes: one that continues a file's name (`site.css.map` after `site.css`), or
    /// that is one taken already, by a file (`site/css`) or as a folder of names. The first
    /// file in path order keeps a name.
    private static func variables(
        of assets: [RenderedPage], linked: [String: String], templatesDirectory: String,
        lookups: () -> Set<[String]>
    ) -> (variables: [(name: [String], path: String)], warnings: [Diagnostic]) {
        var variables: [(name: [String], path: String)] = []
        var warnings: [Diagnostic] = []
        // Each name taken, by a file or as a folder of names, with the first file that took it.
        var taken: [[String]: (path: String, isFile: Bool)] = [:]
        var lookedUp: Set<[String]>?
        for asset in assets {
            let name = variableName(of: asset.path)
            var holder: (path: String, name: [String])?
            for end in 1...name.count {
                let prefix = Array(name[..<end])
                if let taker = taken[prefix], taker.isFile || end == name.count {
                    holder = (taker.path, taker.isFile ? prefix : variableName(of: taker.path))
                    break
                }
            }
            guard let holder else {
                for end in 1..<name.count where taken[Array(name[..<end])] == nil {
                    taken[Array(name[..<end])] = (asset.path, false)
                }
                taken[name] = (asset.path, true)
                variables.append((name, linked[asset.path]!))
                continue
            }
            if lookedUp == nil { lookedUp = lookups() }
            guard lookedUp!.contains(["assets"] + name) else { continue }
            let variable = { (name: [String]) in "{{assets.\(name.joined(separator: "."))}}" }
            warnings.append(
                .warning(
                    at: SourceLocation(path: templatesDirectory + "/" + asset.path),
                    "\(variable(name)) cannot be this file's URL: \(variable(holder.name)) is "
                        + "\(holder.path)'s, and a variable's name splits at every '/' and '.'",
                    hint: "rename one of the two files"))
        }
        return (variables, warnings)
    }

    /// `assets/icons/a.svg` → `["icons", "a", "svg"]`.
    static func variableName(of path: String) -> [String] {
        path.dropFirst(folder.count).split(separator: "/", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: ".", omittingEmptySubsequences: false) }
            .map(String.init)
    }

    // MARK: - Pieces

    /// What a warning says of the assets `paths`, which refer to one another in a cycle.
    private static func cycle(_ paths: [String]) -> String {
        switch paths.count {
        case 1:
            "\(paths[0]) refers to itself, so it cannot be named by its bytes: it is published "
                + "under its own name only"
        case 2:
            "\(paths[0]) and \(paths[1]) refer to each other, so neither can be named by its "
                + "bytes: they are published under their own names only"
        default:
            "\(paths.dropLast().joined(separator: ", ")) and \(paths.last!) refer to one "
                + "another in a cycle, so none can be named by its bytes: they are published "
                + "under their own names only"
        }
    }

    /// `bytes` with each reference whose target `stampedPath` gives written with that path's
    /// file name, its folders as they were written.
    private static func rewrite(
        _ bytes: [UInt8], _ references: [AssetReference], stampedPath: (String) -> String?
    ) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + references.count * (ContentName.stampLength + 1))
        var copied = 0
        for reference in references {
            guard let path = stampedPath(reference.target) else { continue }
            let address = bytes[reference.range]
            let name = address.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? address.startIndex
            result += bytes[copied..<name]
            result += path.utf8.split(separator: UInt8(ascii: "/")).last!
            copied = reference.range.upperBound
        }
        result += bytes[copied...]
        return result
    }

    /// The strongly connected components of the graph whose node `n` has edges to
    /// `edges[n]`, each after every component it reaches (leaves first): Tarjan's algorithm,
    /// with a stack of its own rather than recursion, which a long chain of imports would
    /// take deep.
    static func components(of edges: [[Int]]) -> [[Int]] {
        let unvisited = -1
        var order = [Int](repeating: unvisited, count: edges.count)
        var low = order
        var isOnStack = [Bool](repeating: false, count: edges.count)
        var stack: [Int] = []
        var components: [[Int]] = []
        var next = 0
        func visit(_ node: Int) {
            (order[node], low[node]) = (next, next)
            next += 1
            stack.append(node)
            isOnStack[node] = true
        }
        for root in edges.indices where order[root] == unvisited {
            visit(root)
            var work = [(node: root, edge: 0)]
            while let (node, edge) = work.last {
                if edge < edges[node].count {
                    work[work.count - 1].edge += 1
                    let target = edges[node][edge]
                    if order[target] == unvisited {
                        visit(target)
                        work.append((target, 0))
                    } else if isOnStack[target] {
                        low[node] = min(low[node], order[target])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
                guard low[node] == order[node] else { continue }
                var component: [Int] = []
                repeat {
                    let member = stack.removeLast()
                    isOnStack[member] = false
                    component.append(member)
                } while component.last != node
                components.append(component)
            }
        }
        return components
    }
}
