import Foundation

/// Turns content files into entries, taking each file whose status matches the entry cache
/// from it and reading and parsing every other one.
struct EntryLoader: Sendable {
    var loader: SiteLoader
    var parser: FruitParser
    /// The last build's entries; nil parses every file.
    var cache: EntryCache?

    /// The entries in path order, and the cache to keep for the next build.
    struct Loaded: Sendable {
        /// The entries without errors, drafts included.
        var fruits: [Fruit]
        /// Every problem found: files that could not be read and parsers' diagnostics.
        var diagnostics: [Diagnostic]
        /// The entries of this build's files, for the next build.
        var cache: EntryCache
        /// How many files were parsed rather than taken from the cache.
        var parsed: Int
    }

    /// One file's outcome: its entry (from the cache or just parsed) and what to cache.
    private enum Outcome: Sendable {
        case cached(EntryCache.Entry)
        case parsed(FruitParser.Result, EntryCache.Entry?)
        case unreadable([Diagnostic])
    }

    /// Loads the entries of `paths`.
    /// - Parameter paths: The content files, sorted as `SiteLoader.list()` sorts them.
    func load(_ paths: [String]) -> Loaded {
        // Taken before any file's status: a file changed after this moment is caught by the
        // next build, however coarse the file system's clock (see `EntryCache.racyWindow`).
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        let fileSystem = loader.fileSystem
        let cache = cache ?? EntryCache()
        let positions = cache.positions(of: paths)
        // Borrowed through unsafe buffers: the arrays themselves would have their reference
        // counts raised by both threads at every access, which costs more than the work.
        let outcomes = paths.withUnsafeBufferPointer { paths in
            cache.entries.withUnsafeBufferPointer { entries in
                nonisolated(unsafe) let (paths, entries) = (paths, entries)
                return Array(paths.indices).concurrentMap { index in
                    outcome(
                        path: paths[index], cached: positions[index].map { entries[$0] },
                        now: now, fileSystem: fileSystem)
                }
            }
        }

        var loaded = Loaded(
            fruits: [], diagnostics: [], cache: EntryCache(storage: cache.storage), parsed: 0)
        loaded.fruits.reserveCapacity(paths.count)
        loaded.cache.paths.reserveCapacity(paths.count)
        loaded.cache.entries.reserveCapacity(paths.count)
        var reused = 0
        for (path, outcome) in zip(paths, outcomes) {
            var kept: EntryCache.Entry?
            switch outcome {
            case .cached(let entry):
                loaded.fruits.append(entry.fruit)
                kept = entry
                if entry.record != nil { reused += 1 }
            case .parsed(let result, let entry):
                if let fruit = result.fruit { loaded.fruits.append(fruit) }
                loaded.diagnostics += result.diagnostics
                kept = entry
                loaded.parsed += 1
            case .unreadable(let diagnostics):
                loaded.diagnostics += diagnostics
            }
            if let kept {
                loaded.cache.paths.append(path)
                loaded.cache.entries.append(kept)
            }
        }
        // Unchanged only when every entry came from the cache as it was and none went away.
        loaded.cache.isChanged = reused != paths.count || reused != cache.entries.count
        return loaded
    }

    /// One file's outcome, from its cached entry when that still holds.
    private func outcome(
        path: String, cached: EntryCache.Entry?, now: Int64, fileSystem: FileSystem
    )
        -> Outcome
    {
        let status = fileSystem.status(path)
        if let cached, EntryCache.isCurrent(cached, status: status) {
            return .cached(cached)
        }
        let file: SourceFile
        do throws(BuildFailure) {
            file = try loader.read(path)
        } catch {
            return .unreadable(error.diagnostics)
        }
        // Touched but not changed, or changed too recently to trust its status: the
        // bytes decide.
        if let status, let cached, cached.fruit.sourceHash == StableHasher.hash(file.bytes) {
            return .cached(.init(status: status, verifiedAt: now, fruit: cached.fruit))
        }
        let result = parser.parse(file)
        // Only entries without diagnostics are kept, so a rebuild repeats every warning.
        guard let status, let fruit = result.fruit, result.diagnostics.isEmpty else {
            return .parsed(result, nil)
        }
        return .parsed(result, .init(status: status, verifiedAt: now, fruit: fruit.summary))
    }

    /// Reads and parses the files of entries taken from the cache, for their details.
    /// - Parameter fruits: Entries by catalog position.
    /// - Throws: `BuildFailure` when a file cannot be read or has changed since it was
    ///   listed, which would mix two versions of it into one site.
    func details(of fruits: [Int: Fruit]) throws(BuildFailure) -> [Int: Fruit.Details] {
        let pairs = Array(fruits)
        let results = pairs.concurrentMap { index, fruit -> (Int, Fruit.Details?, [Diagnostic]) in
            let path = fruit.location.path
            do throws(BuildFailure) {
                let file = try loader.read(path)
                if StableHasher.hash(file.bytes) == fruit.sourceHash,
                    let details = parser.parse(file).fruit?.details
                {
                    return (index, details, [])
                }
                return (
                    index, nil,
                    [
                        .error(
                            at: SourceLocation(path: path), "the file changed during the build",
                            hint: "build again")
                    ]
                )
            } catch {
                return (index, nil, error.diagnostics)
            }
        }
        var details: [Int: Fruit.Details] = [:]
        var diagnostics: [Diagnostic] = []
        for (index, value, problems) in results {
            details[index] = value
            diagnostics += problems
        }
        if !diagnostics.isEmpty { throw BuildFailure(diagnostics.sortedByLocation()) }
        return details
    }
}
