import Foundation

/// Finds what changed in the content folder since the model's entries were recorded, and
/// reads and parses only that: every `.md` file below the folder (hidden files and folders
/// are skipped) is an entry.
///
/// A file whose status matches its entry's, settled before the entry was recorded (see
/// `FileStatus.isSettled(at:)`), is taken as unchanged without being read. Any other file is
/// read; if its bytes hash as before, only its status is recorded anew.
struct ContentScanner: Sendable {
    /// The content folder as the user named it; diagnostics show paths under it.
    var contentDirectory: String
    var fileSystem: FileSystem
    var parser: FruitParser
    /// When the scan started, in nanoseconds since 1970; taken before any file's status, so
    /// a file changed after it is seen again by the next build.
    var now: Int64
    /// The most bytes an entry's file may hold (`maxEntrySize` in the config).
    var maximumEntrySize = SiteConfig.defaultMaximumEntrySize
    /// How many bytes of parsed bodies a scan keeps in memory, and where it writes the rest
    /// (see `DetailsStore`).
    var detailsBudget = DetailsStore.defaultBudget
    var scratchDirectory = NSTemporaryDirectory()
    /// The files of which language the scan takes, in a site of several.
    var scope = LanguageScope()
    /// The content folder's listing, shared by the scans of a site's languages, which list
    /// one folder: made by the first that needs it.
    var sharedListing: SharedListing?

    /// A listing made once for several scans.
    final class SharedListing: @unchecked Sendable {
        private let lock = NSLock()
        private var made: Listing?

        /// The listing, made by `list` the first time.
        func value(_ list: () -> Listing) -> Listing {
            lock.lock()
            defer { lock.unlock() }
            if let made { return made }
            let listing = list()
            made = listing
            return listing
        }
    }

    /// What changed, ready for `SiteModel.apply(_:)`.
    struct Changes: Sendable {
        /// When the scan started; see `now`.
        var time: Int64
        /// New and changed files, parsed (with the id of the entry each changes), with the
        /// details their pages will show, when they could be kept.
        var parsed: [(id: EntryID?, entry: SiteModel.Entry, details: KeptDetails?)] = []
        /// Where the details went that did not fit the budget; it says whether that failed.
        var detailsStore: DetailsStore?
        /// Entries whose files are gone.
        var removed: [EntryID] = []
        /// Entries whose files were read again and found unchanged, with their new status.
        var verified: [(id: EntryID, status: FileStatus?)] = []
        /// Every problem: unreadable files and folders, and each file's parser diagnostics
        /// but the warnings of entries (which the entries keep).
        var diagnostics: [Diagnostic] = []
        /// The folders, when they were listed anew without a problem.
        var folders: [SiteModel.Folder]?
        /// Whether the folders were listed anew (else the model's files still stand).
        var isListedAnew = false
        /// When listed anew: whether no symbolic link was met, so that a change to a file is
        /// a change under its own path (see `scan(against:only:)`).
        var isLinkFree = false
        /// Where the entry at a path writes a value of a facet (`facetLocation(in:key:value:)`).
        var locateFacetValue:
            @Sendable (_ path: String, _ key: String, _ value: String) ->
                SourceLocation = { path, _, _ in SourceLocation(path: path) }

        /// Whether the content is as the model recorded it: no file read with other bytes or
        /// status, none come or gone, no folder listed anew, no problem.
        var isEmpty: Bool {
            parsed.isEmpty && removed.isEmpty && verified.isEmpty && diagnostics.isEmpty
                && !isListedAnew
        }
    }

    /// One file's outcome.
    enum Outcome: Sendable {
        case verified(EntryID, FileStatus?)
        case parsed(EntryID?, SiteModel.Entry, KeptDetails?)
        case failed([Diagnostic])
    }

    /// How many files a scan parses before it sorts out their outcomes.
    private static let parsedAtOnce = 8_192

    /// Compares the content folder with `model`, which is decoded whole only when every
    /// folder must be listed again or a watcher's paths are looked at (see `StartingModel`).
    /// - Parameter paths: When given, the only paths that can have changed, as a watcher
    ///   reported them (`serve`): only these are looked at, with the entries that name those
    ///   that are pictures (`entryPaths(reported:in:)`), if the model's last listing met
    ///   no symbolic link (through which a file could change under another path) and none
    ///   of them is a link, symbolic or hard. Else every file's status is compared, and the
    ///   folders are listed again if one changed.
    func scan(against model: inout StartingModel, only paths: Set<String>? = nil) -> Changes {
        var changes = Changes(time: now)
        changes.locateFacetValue = { [self] in facetLocation(in: $0, key: $1, value: $2) }
        var files = RecordedFiles()
        // Each file's status, when taken already.
        var takenStatuses: [FileStatus?]?
        let (folders, listedAt) = (model.folders ?? [], model.listedAt)
        let foldersStand = {
            !folders.isEmpty
                && folders.allSatisfy { folder in
                    fileSystem.status(folder.path).map {
                        $0 == folder.status && $0.isSettled(at: listedAt)
                    } ?? false
                }
        }
        // A symbolic link made since is listed with the folders, which then have links; a
        // file with other names changes under them too, whose statuses tell.
        // A language that takes fallbacks takes a file by what other files there are, which
        // only a listing shows.
        if let paths, model.isLinkFree, !folders.isEmpty, !scope.takesFallbacks,
            !paths.contains(where: { isUnderContent($0) && fileSystem.isLinked($0) })
        {
            let model = model.decode()
            let entries = entryPaths(reported: paths, in: model).filter(scope.owns)
            let slugs = model.slugs(for: entries.map(SourceFile.slug(of:)))
            var known: [String: EntryID] = [:]
            for path in entries { known[path] = slugs.id(ofPath: path, in: model) }
            // A file that is gone leaves its entry; one that never was is no news.
            let statuses = fileSystem.statuses(PathList(entries))
            takenStatuses = statuses.filter { $0 != nil }
            for (path, status) in zip(entries, statuses) {
                if status != nil {
                    files.append(path, known[path], in: model)
                } else if let id = known[path] {
                    changes.removed.append(id)
                }
            }
        } else if foldersStand() {
            files = model.recordedFiles()
        } else {
            let model = model.decode()
            let known = model.savingOrder.map { (id: $0, path: model[$0].path) }
            // The folders are listed on a thread of their own while the known files' statuses
            // are taken: listing is one core's work, most of it in the kernel, which the
            // statuses need not wait for.
            let listed = Background { [self] in sharedListing?.value(list) ?? list() }
            let knownStatuses = fileSystem.statuses(PathList(known.lazy.map(\.path)))
            let listing = listed.value
            // The fallbacks the model has stay candidates, whatever their names.
            let fallbacks =
                scope.takesFallbacks
                ? Set(known.lazy.filter { !scope.owns($0.path) }.map(\.path)) : []
            let joined = Self.join(
                scope.files(among: listing.paths, keeping: fallbacks), known, in: model)
            for (id, path) in joined { files.append(path, id, in: model) }
            var knownIndex = [Int](repeating: -1, count: model.entries.count)
            for (index, (id, _)) in known.enumerated() { knownIndex[id.rawValue] = index }
            // Files the model did not know have their statuses taken now.
            let added = joined.indices.filter { joined[$0].id == nil }
            let addedStatuses = fileSystem.statuses(PathList(added.lazy.map { joined[$0].path }))
            var fileStatuses = joined.map {
                $0.id.map { knownStatuses[knownIndex[$0.rawValue]] } ?? nil
            }
            for (index, status) in zip(added, addedStatuses) { fileStatuses[index] = status }
            takenStatuses = fileStatuses
            changes.isListedAnew = true
            changes.isLinkFree = !listing.hasLinks && listing.diagnostics.isEmpty
            changes.diagnostics = listing.diagnostics
            let statuses = listing.folders.compactMap { folder in
                folder.status.map { SiteModel.Folder(path: folder.path, status: $0) }
            }
            if listing.diagnostics.isEmpty && statuses.count == listing.folders.count {
                changes.folders = statuses
            }
            var isListed = [Bool](repeating: false, count: model.entries.count)
            for case (let id?, _) in joined { isListed[id.rawValue] = true }
            changes.removed = known.map(\.id).filter { !isListed[$0.rawValue] }
        }

        // First each file's status and each picture's, then the few files whose statuses say
        // they may have changed: the outcomes of those are large, and ten thousand of them
        // cost more to allocate than the status calls themselves.
        let statuses = takenStatuses ?? fileSystem.statuses(files.paths)
        var changed = files.recorded.indices.filter { index in
            files.recorded[index]?.isVouched(by: statuses[index]) != true
        }
        // An entry whose picture may have changed is parsed again, whatever its file's bytes.
        let changedPictures = Set(
            files.filesWithChangedPictures(statuses: fileSystem.statuses(files.picturePaths)))
        if !changedPictures.isEmpty { changed = changedPictures.union(changed).sorted() }
        let candidates = changed.map {
            (files.paths[$0], files.recorded[$0], statuses[$0], !changedPictures.contains($0))
        }
        let store = DetailsStore(budget: detailsBudget, directory: scratchDirectory)
        changes.detailsStore = store
        // Room for them all at once: doubling would hold half as many again, at the build's
        // peak. Parsed a slice at a time, so that the outcomes are not all held beside their
        // copies here: at 300,000 fruits that was 72 MB of the peak.
        changes.parsed.reserveCapacity(candidates.count)
        for start in stride(from: 0, to: candidates.count, by: Self.parsedAtOnce) {
            let slice = candidates[start..<min(start + Self.parsedAtOnce, candidates.count)]
            for outcome in Array(slice).concurrentMap({ path, recorded, status, isPictureVouched in
                outcome(
                    of: path, recorded: recorded, status: status,
                    isPictureVouched: isPictureVouched, keepingDetailsIn: store)
            }) {
                switch outcome {
                case .verified(let id, let status): changes.verified.append((id, status))
                case .parsed(let id, let entry, let details):
                    changes.parsed.append((id, entry, details))
                case .failed(let diagnostics): changes.diagnostics += diagnostics
                }
            }
        }
        settleFallbacks(&changes, in: &model)
        return changes
    }

    /// Compares the content folder with `model`, kept in memory (see
    /// `scan(against:only:)`).
    func scan(against model: SiteModel, only paths: Set<String>? = nil) -> Changes {
        var start = StartingModel.decoded(model)
        return scan(against: &start, only: paths)
    }

    func isUnderContent(_ path: String) -> Bool {
        path.hasPrefix(contentDirectory + "/")
    }

    /// Whether a path a watcher reported can be an entry: a `.md` file below the content
    /// folder with no hidden folder or file on the way.
    func isEntryPath(_ path: String) -> Bool {
        guard isUnderContent(path), path.hasSuffix(".md") else { return false }
        let below = path.dropFirst(contentDirectory.count + 1)
        return !below.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// The outcome of a file that may have changed, with its entry's record if it has one:
    /// its bytes decide, unless the entry's picture may have changed (`isPictureVouched`
    /// false), which only parsing the entry again reads.
    func outcome(
        of path: String, recorded: RecordedFiles.File?, status: FileStatus?,
        isPictureVouched: Bool, keepingDetailsIn store: DetailsStore
    ) -> Outcome {
        let file: SourceFile
        do throws(BuildFailure) {
            file = try read(path)
        } catch {
            return .failed(error.diagnostics)
        }
        let sourceHash = StableHasher.hash(file.bytes)
        if let recorded, isPictureVouched, recorded.sourceHash == sourceHash {
            return .verified(recorded.id, status)
        }
        let result = parser.parse(file)
        guard var fruit = result.fruit, let details = result.details,
            !result.diagnostics.containsErrors
        else { return .failed(result.diagnostics) }
        var pictureFile: SiteModel.PictureFile?
        if let reference = result.image {
            do {
                (fruit.image, pictureFile) = try picture(reference, of: path)
            } catch {
                return .failed(result.diagnostics + error.diagnostics)
            }
        }
        let entry = SiteModel.Entry(
            path: path, status: status, verifiedAt: now, sourceHash: sourceHash,
            picture: pictureFile, namedKey: result.translationKey?.slug,
            facts: EntryFacts.Value(
                fruit: fruit, categoryLine: result.categoryLocation?.line ?? 0,
                categoryColumn: result.categoryLocation?.column ?? 0,
                warnings: result.diagnostics, siteLinks: result.siteLinks))
        return .parsed(recorded?.id, entry, store.keep(details))
    }

    /// Each of the listed `paths`, in the order of their bytes, with the id of the entry that
    /// has it, if any. `known` is in that order already (`SiteModel.savingOrder`), and most
    /// listed paths are among it: each is found there by its hash (`Entry.pathHash`), and
    /// only the new ones are sorted. Sorting the whole listing had been half of listing
    /// 100,000 files.
    private static func join(
        _ paths: [String], _ known: [(id: EntryID, path: String)], in model: SiteModel
    )
        -> [(id: EntryID?, path: String)]
    {
        // The known paths' hashes and indices, open addressing, at most half the slots taken.
        // A slot holds both: the listing comes in the folders' order, unrelated to `known`'s,
        // so each read of a separate array of hashes was one more cache miss.
        var capacity = 16
        while capacity < known.count * 2 { capacity *= 2 }
        let mask = capacity - 1
        var slots = [(hash: UInt64, index: Int32)](repeating: (0, -1), count: capacity)
        for (index, (id, _)) in known.enumerated() {
            let hash = model[id].pathHash
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot].index >= 0 { slot = (slot + 1) & mask }
            slots[slot] = (hash, Int32(index))
        }
        // Each listed path's index in `known`, or -1, found on every core: looked up on one,
        // they were 43 ms of renaming a file among 100,000.
        let table = slots
        let found = paths.concurrentMap { path -> Int32 in
            var hasher = StableHasher()
            hasher.combine(path)
            let hash = hasher.value
            var slot = Int(truncatingIfNeeded: hash) & mask
            while table[slot].index >= 0 {
                let index = table[slot].index
                if table[slot].hash == hash && UTF8Order.compare(known[Int(index)].path, path) == 0
                {
                    return index
                }
                slot = (slot + 1) & mask
            }
            return -1
        }
        var isListed = [Bool](repeating: false, count: known.count)
        var added: [String] = []
        for (path, index) in zip(paths, found) {
            if index >= 0 { isListed[Int(index)] = true } else { added.append(path) }
        }
        UTF8Order.sort(&added)
        return known.indices.filter { isListed[$0] }.map { (known[$0].id, known[$0].path) }
            .merging(added.map { (nil, $0) }) { UTF8Order.precedes($0.path, $1.path) }
    }

    static let changedMeanwhile = "the file changed during the build"

    /// Where the entry at `path` writes its value `value` of the facet `key`, from the file
    /// read again: only an error about two spellings of a value needs it, so no entry keeps
    /// the places of its values (kept, they were some 35 MiB of a clean build's peak at
    /// 300,000 entries). The file alone when it cannot be read or no longer has the value.
    func facetLocation(in path: String, key: String, value: String) -> SourceLocation {
        let whole = SourceLocation(path: path)
        guard let file = try? read(path) else { return whole }
        let result = parser.parse(file)
        // The places follow the facets' values one after another.
        var index = 0
        for facet in result.fruit?.facets ?? [] {
            if facet.key == key, let offset = facet.values.firstIndex(of: value) {
                index += offset
                guard index < result.facetPlaces.count else { return whole }
                let place = result.facetPlaces[index]
                return SourceLocation(path: path, line: place.line, column: place.column)
            }
            index += facet.values.count
        }
        return whole
    }

    /// Reads and parses an entry's file again, for the details its page shows.
    /// - Throws: `BuildFailure` when the file cannot be read or has changed since it was
    ///   scanned, which would mix two versions of it into one site.
    func details(of entry: SiteModel.Entry) throws(BuildFailure) -> FruitDetails {
        let file = try read(entry.path)
        guard StableHasher.hash(file.bytes) == entry.sourceHash,
            let details = parser.parse(file).details
        else {
            throw BuildFailure([
                .error(
                    at: SourceLocation(path: entry.path), Self.changedMeanwhile,
                    hint: "build again")
            ])
        }
        return details
    }

    // MARK: - Files

    /// The `.md` files found and the problems met on the way.
    struct Listing: Sendable {
        var paths: [String]
        /// Every folder listed, with its status just before: while no folder's status
        /// changes, neither does `paths`.
        var folders: [(path: String, status: FileStatus?)] = []
        var diagnostics: [Diagnostic]
        /// Whether a symbolic link was met: a file can then change under another path.
        var hasLinks = false
    }

    /// Finds every `.md` file, in the order the folders list them; hidden files and folders
    /// are skipped.
    ///
    /// A symbolic link is followed only when it resolves to a place inside the content folder,
    /// so a link can never pull in files from elsewhere on the machine.
    func list() -> Listing {
        let folder = SourceLocation(path: contentDirectory)
        let resolved = fileSystem.resolve(contentDirectory)
        guard let root = resolved, fileSystem.isDirectory(contentDirectory) else {
            return Listing(
                paths: [],
                diagnostics: [
                    .error(
                        at: folder,
                        resolved == nil
                            ? "the content folder does not exist"
                            : "the content path is not a folder",
                        hint: "create it, or pass --content DIR")
                ])
        }
        var diagnostics: [Diagnostic] = []
        var paths: [String] = []
        var pending = [contentDirectory]
        var visited: Set<String> = [root]
        var folders: [(path: String, status: FileStatus?)] = []
        var hasLinks = false
        while let directory = pending.popLast() {
            folders.append((directory, fileSystem.status(directory)))
            let entries: [FileSystem.Entry]
            do {
                entries = try fileSystem.list(directory)
            } catch {
                diagnostics.append(
                    .error(at: SourceLocation(path: directory), "cannot list the folder: \(error)"))
                continue
            }
            let prefix = directory + "/"
            for entry in entries where entry.name.utf8.first != UInt8(ascii: ".") {
                let path = String(joining: prefix, entry.name)
                guard entry.isValidName else {
                    diagnostics.append(
                        .error(
                            at: SourceLocation(path: path),
                            "the name is not valid UTF-8 (shown with � for the bad bytes)",
                            hint: "rename it; entry names become addresses, which must be UTF-8"))
                    continue
                }
                var kind = entry.kind
                if kind == .symbolicLink {
                    hasLinks = true
                    guard
                        let target = fileSystem.followLink(
                            path, inside: root, folderName: "content folder",
                            warnings: &diagnostics)
                    else { continue }
                    kind = fileSystem.isDirectory(path) ? .directory : .file
                    if kind == .directory, !visited.insert(target).inserted { continue }
                }
                switch kind {
                case .directory: pending.append(path)
                case .file where Self.isMarkdown(entry.name):
                    paths.append(path)
                case .other where Self.isMarkdown(entry.name):
                    diagnostics.append(
                        .warning(
                            at: SourceLocation(path: path),
                            "skipped: it is not a regular file (a FIFO, socket or device)"))
                default: break
                }
            }
        }
        return Listing(
            paths: paths, folders: folders, diagnostics: diagnostics, hasLinks: hasLinks)
    }

    private static func isMarkdown(_ name: String) -> Bool {
        var name = name
        return name.withUTF8(SourceFile.isMarkdown)
    }

    /// Reads one file.
    /// - Throws: `BuildFailure` saying why the file could not be read.
    func read(_ path: String) throws(BuildFailure) -> SourceFile {
        do {
            return SourceFile(path: path, bytes: try fileSystem.read(path, maximumEntrySize))
        } catch UnreadableFile.tooLarge(let size, let limit) {
            throw BuildFailure([
                .error(
                    at: SourceLocation(path: path),
                    "the entry is \(UnreadableFile.describe(size, over: limit))",
                    hint:
                        "raise 'maxEntrySize' in fruitsite.yml if the entry is meant to be this big"
                )
            ])
        } catch {
            throw BuildFailure([
                .error(at: SourceLocation(path: path), "cannot read the file: \(error)")
            ])
        }
    }
}
