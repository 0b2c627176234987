/// Finds what changed in the content folder since the model's entries were recorded, and
/// reads and parses only that.
///
/// A file whose status matches its entry's, settled before the entry was recorded (see
/// `FileStatus.isSettled(at:)`), is taken as unchanged without being read. Any other file is
/// read; if its bytes hash as before, only its status is recorded anew.
struct ContentScanner: Sendable {
    var loader: SiteLoader
    var parser: FruitParser
    /// When the scan started, in nanoseconds since 1970; taken before any file's status, so
    /// a file changed after it is seen again by the next build.
    var now: Int64

    /// What changed, ready for `SiteModel.apply(_:)`.
    struct Changes: Sendable {
        /// When the scan started; see `now`.
        var time: Int64
        /// New and changed files, parsed (with the id of the entry each changes), with the
        /// details their pages will show.
        var parsed: [(id: Int?, entry: SiteModel.Entry, details: FruitDetails)] = []
        /// Entries whose files are gone.
        var removed: [Int] = []
        /// Entries whose files were read again and found unchanged, with their new status.
        var verified: [(id: Int, status: FileStatus?)] = []
        /// Every problem: unreadable files and folders, and each file's parser diagnostics
        /// but the warnings of entries (which the entries keep).
        var diagnostics: [Diagnostic] = []
        /// The folders, when they were listed anew without a problem.
        var folders: [SiteModel.Folder]?
        /// Whether the folders were listed anew (else the model's files still stand).
        var isListedAnew = false
    }

    /// One file's outcome.
    private enum Outcome: Sendable {
        case verified(Int, FileStatus?)
        case parsed(Int?, SiteModel.Entry, FruitDetails)
        case failed([Diagnostic])
    }

    /// Compares the content folder with `model`.
    func scan(against model: SiteModel) -> Changes {
        let fileSystem = loader.fileSystem
        var changes = Changes(time: now)
        let files: [(id: Int?, path: String)]
        let folders = model.folders ?? []
        let foldersStand =
            !folders.isEmpty
            && folders.allSatisfy { folder in
                fileSystem.status(folder.path).map {
                    $0 == folder.status && $0.isSettled(at: model.listedAt)
                } ?? false
            }
        if foldersStand {
            files = model.ids.map { ($0, model[$0].path) }
        } else {
            let known = model.savingOrder
            let listing = loader.list()
            files = Self.join(listing.paths, known.map { ($0, model[$0].path) })
            changes.isListedAnew = true
            changes.diagnostics = listing.diagnostics
            let statuses = listing.folders.compactMap { folder in
                folder.status.map { SiteModel.Folder(path: folder.path, status: $0) }
            }
            if listing.diagnostics.isEmpty && statuses.count == listing.folders.count {
                changes.folders = statuses
            }
            var isListed = [Bool](repeating: false, count: model.entries.count)
            for case (let id?, _) in files { isListed[id] = true }
            changes.removed = known.filter { !isListed[$0] }
        }

        // First each file's status, then the few files whose status says they may have
        // changed: the outcomes of those are large, and ten thousand of them cost more to
        // allocate than the status calls themselves.
        let statuses = files.concurrentMap { file -> (status: FileStatus?, isUnchanged: Bool) in
            let status = fileSystem.status(file.path)
            guard let id = file.id, let status, model[id].status == status else {
                return (status, false)
            }
            return (status, status.isSettled(at: model[id].verifiedAt))
        }
        let candidates = files.indices.filter { !statuses[$0].isUnchanged }.map {
            (files[$0].path, files[$0].id, statuses[$0].status)
        }
        let outcomes = candidates.concurrentMap { path, id, status in
            outcome(of: path, id: id, status: status, in: model)
        }
        for outcome in outcomes {
            switch outcome {
            case .verified(let id, let status): changes.verified.append((id, status))
            case .parsed(let id, let entry, let details):
                changes.parsed.append((id, entry, details))
            case .failed(let diagnostics): changes.diagnostics += diagnostics
            }
        }
        return changes
    }

    /// The outcome of a file that may have changed: its bytes decide.
    private func outcome(of path: String, id: Int?, status: FileStatus?, in model: SiteModel)
        -> Outcome
    {
        let file: SourceFile
        do throws(BuildFailure) {
            file = try loader.read(path)
        } catch {
            return .failed(error.diagnostics)
        }
        let sourceHash = StableHasher.hash(file.bytes)
        if let id, model[id].sourceHash == sourceHash { return .verified(id, status) }
        let result = parser.parse(file)
        guard let fruit = result.fruit, let details = result.details,
            !result.diagnostics.containsErrors
        else { return .failed(result.diagnostics) }
        let entry = SiteModel.Entry(
            path: path, status: status, verifiedAt: now, sourceHash: sourceHash,
            facts: EntryFacts.Value(
                fruit: fruit, categoryLine: result.categoryLocation?.line ?? 0,
                categoryColumn: result.categoryLocation?.column ?? 0,
                warnings: result.diagnostics))
        return .parsed(id, entry, details)
    }

    /// Each of the listed `paths` with the id of the entry that has it, if any: both lists
    /// are sorted by path, so one pass pairs them.
    private static func join(_ paths: [String], _ known: [(id: Int, path: String)]) -> [(
        id: Int?, path: String
    )] {
        var position = 0
        return paths.map { path in
            while position < known.count, UTF8Order.precedes(known[position].path, path) {
                position += 1
            }
            let isKnown = position < known.count && UTF8Order.equal(known[position].path, path)
            return (isKnown ? known[position].id : nil, path)
        }
    }
}
