import Foundation

/// Turns content files into entries, taking each file whose status matches the entry cache
/// from it and reading and parsing every other one.
struct EntryLoader: Sendable {
    var loader: SiteLoader
    var parser: FruitParser
    /// The last build's entries; nil parses every file.
    var cache: EntryCache?

    /// The entries in path order, and what to cache of them for the next build.
    struct Loaded: Sendable {
        /// The entries without errors, drafts included.
        var fruits: [Fruit]
        /// Every problem found: files that could not be read and parsers' diagnostics.
        var diagnostics: [Diagnostic]
        /// The entries to cache, in path order: those without any diagnostic.
        var records: [EntryCache.Record]
        /// How many files were parsed rather than taken from the cache.
        var parsed: Int
    }

    /// One file's outcome: its entry (from the cache or just parsed) and what to cache.
    private enum Outcome: Sendable {
        /// From the cache; `position` is set when its record can be copied as it is.
        case cached(EntryCache.Entry, position: Int?)
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
        let decoded = cache?.decodeAll() ?? ([], [])
        let positions = Self.positions(of: paths, in: decoded.paths)
        // Borrowed through unsafe buffers: the arrays themselves would have their reference
        // counts raised by both threads at every access, which costs more than the work.
        let outcomes = paths.withUnsafeBufferPointer { paths in
            decoded.entries.withUnsafeBufferPointer { entries in
                nonisolated(unsafe) let (paths, entries) = (paths, entries)
                return Array(paths.indices).concurrentMap { index in
                    outcome(
                        path: paths[index], cached: positions[index].map { ($0, entries[$0]) },
                        now: now, fileSystem: fileSystem)
                }
            }
        }

        var loaded = Loaded(fruits: [], diagnostics: [], records: [], parsed: 0)
        loaded.fruits.reserveCapacity(paths.count)
        loaded.records.reserveCapacity(paths.count)
        for outcome in outcomes {
            switch outcome {
            case .cached(let entry, let position):
                loaded.fruits.append(entry.fruit)
                loaded.records.append(
                    position.map { .copied(cache!.record($0)) } ?? .entry(entry))
            case .parsed(let result, let entry):
                if let fruit = result.fruit { loaded.fruits.append(fruit) }
                loaded.diagnostics += result.diagnostics
                if let entry { loaded.records.append(.entry(entry)) }
                loaded.parsed += 1
            case .unreadable(let diagnostics):
                loaded.diagnostics += diagnostics
            }
        }
        return loaded
    }

    /// For each of `sorted` paths, its position among `cached` paths (sorted too), if there.
    static func positions(of sorted: [String], in cached: [String]) -> [Int?] {
        var result = [Int?](repeating: nil, count: sorted.count)
        var position = 0
        for (index, path) in sorted.enumerated() {
            while position < cached.count, UTF8Order.precedes(cached[position], path) {
                position += 1
            }
            if position < cached.count, UTF8Order.equal(cached[position], path) {
                result[index] = position
            }
        }
        return result
    }

    /// One file's outcome, from its cached entry when that still holds.
    private func outcome(
        path: String, cached: (position: Int, entry: EntryCache.Entry)?, now: Int64,
        fileSystem: FileSystem
    ) -> Outcome {
        let status = fileSystem.status(path)
        if let cached,
            EntryCache.isCurrent(
                recorded: cached.entry.status, verifiedAt: cached.entry.verifiedAt, status: status)
        {
            return .cached(cached.entry, position: cached.position)
        }
        let file: SourceFile
        do throws(BuildFailure) {
            file = try loader.read(path)
        } catch {
            return .unreadable(error.diagnostics)
        }
        // Touched but not changed, or changed too recently to trust its status: the
        // bytes decide.
        let fruit = cached?.entry.fruit
        if let status, let fruit, fruit.sourceHash == StableHasher.hash(file.bytes) {
            return .cached(.init(status: status, verifiedAt: now, fruit: fruit), position: nil)
        }
        let result = parser.parse(file)
        // Only entries without diagnostics are kept, so a rebuild repeats every warning.
        guard let status, let parsed = result.fruit, result.diagnostics.isEmpty else {
            return .parsed(result, nil)
        }
        return .parsed(result, .init(status: status, verifiedAt: now, fruit: parsed.summary))
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
