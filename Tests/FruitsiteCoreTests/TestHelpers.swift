import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// Counts the entries (`.md` files) a build reads through `fileSystem`, the local one.
final class EntryReads: @unchecked Sendable {
    private let lock = NSLock()
    private var readCount = 0

    /// The local file system, counting here every entry read through it.
    var fileSystem: FileSystem {
        var counting = FileSystem.local
        counting.read = { [self] path, limit in
            if path.hasSuffix(".md") { lock.withLock { readCount += 1 } }
            return try FileSystem.local.read(path, limit)
        }
        return counting
    }

    /// The entries read since the last `reset`.
    var count: Int { lock.withLock { readCount } }

    func reset() { lock.withLock { readCount = 0 } }
}

/// Parses `text` as `Content/<slug>.md`.
func parse(_ text: String, slug: String = "apple", parser: FruitParser = FruitParser())
    -> FruitParser.Result
{
    parser.parse(SourceFile(path: "Content/\(slug).md", bytes: Array(text.utf8)))
}

/// A site in a temporary folder: each of `entries`, `(slug, front matter)`, as
/// `Content/<slug>.md` with `body`, and `config` as its `fruitsite.yml`; with the options that
/// build it with the repository's theme into `Output/`.
func temporarySite(
    config: String, entries: [(slug: String, front: String)], body: String = "Text.\n"
) throws -> (TemporaryDirectory, BuildOptions) {
    let folder = try TemporaryDirectory()
    for (slug, front) in entries {
        try folder.write("Content/\(slug).md", "---\n\(front)\n---\n\(body)")
    }
    try folder.write("fruitsite.yml", config)
    var options = BuildOptions()
    options.contentDirectory = folder.path + "/Content"
    options.templatesDirectory = repositoryRoot + "/Templates"
    options.outputDirectory = folder.path + "/Output"
    options.configPath = folder.path + "/fruitsite.yml"
    return (folder, options)
}

extension SiteConfig {
    /// Reads a config file's text as a build does, its errors thrown rather than collected.
    /// - Throws: `BuildFailure` listing every problem, when any is an error.
    init(yaml text: String, path: String) throws(BuildFailure) {
        var problems: [Diagnostic] = []
        self.init(yaml: text, path: path, problems: &problems)
        if problems.containsErrors { throw BuildFailure(problems) }
    }
}
