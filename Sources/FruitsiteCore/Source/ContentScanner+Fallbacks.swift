extension ContentScanner {
    /// Settles which of the default language's entries a language that takes fallbacks shows
    /// in place of a missing translation, once its own entries are parsed. The listing chose
    /// them by file name (`LanguageScope.files(among:keeping:)`), but only the front matter
    /// says what else decides: a translation named otherwise names its entry in
    /// `translationKey:` (`pomme.fr.md` of `apple.md`), and a draft translation (unless drafts
    /// are built) translates nothing yet. The entries that published translations claim are
    /// dropped; those whose claim is gone, whose translation is a draft, or that a
    /// translation is only named like, come in.
    func settleFallbacks(_ changes: inout Changes, in start: inout StartingModel) {
        guard scope.takesFallbacks, !changes.isEmpty else { return }
        let model = start.decode()
        let gone = Set(changes.removed)
        let reparsed = Set(changes.parsed.lazy.compactMap(\.id))
        let listed = Set(model.order)
        // The keys the language's published translations claim after the changes, and
        // those that may now want a fallback: claimed before by a translation that changed
        // or went, or of a translation that is a draft.
        var claimed: Set<Substring> = []
        var wanted: Set<Substring> = []
        for id in model.ids where scope.owns(model[id].path) {
            guard listed.contains(id) else { continue }
            if gone.contains(id) || reparsed.contains(id) {
                wanted.insert(model[id].translationKey)
            } else {
                claimed.insert(model[id].translationKey)
            }
        }
        // A translation parsed again as it was settled before (a draft still, or still
        // naming the same entry) wants nothing new: only a listing could tell, and `serve`
        // would list the folders at each edit.
        for (id, entry, _) in changes.parsed where scope.owns(entry.path) {
            let before = id.map { model[$0] }
            if model.isListed(entry.fruit) {
                claimed.insert(entry.translationKey)
            } else if before == nil {
                wanted.insert(entry.translationKey)
            }
            // Named like a default entry it does not translate (`prune.fr.md` of `plum.md`),
            // it leaves that one to the fallbacks.
            if entry.namedKey != nil, before?.namedKey != entry.namedKey {
                wanted.insert(entry.slug)
            }
        }
        let isClaimed = { (path: String) in
            !scope.owns(path) && claimed.contains(SourceFile.translationKey(of: path))
        }
        changes.parsed.removeAll { isClaimed($0.entry.path) }
        let dropped = model.ids.filter { !gone.contains($0) && isClaimed(model[$0].path) }
        if !dropped.isEmpty {
            let droppedSet = Set(dropped)
            changes.verified.removeAll { droppedSet.contains($0.id) }
            changes.removed += dropped
        }

        wanted.subtract(claimed)
        guard !wanted.isEmpty, let store = changes.detailsStore else { return }
        // Those the model or the scan has already stay; only a listing shows where the
        // others' files are.
        var present = Set(changes.parsed.lazy.map(\.entry.path))
        let removed = Set(changes.removed)
        for id in model.ids where !removed.contains(id) { present.insert(model[id].path) }
        let listing = sharedListing?.value(list) ?? list()
        for path in listing.paths
        where scope.isDefaultFile(path) && !present.contains(path)
            && wanted.contains(SourceFile.translationKey(of: path))
        {
            switch outcome(
                of: path, recorded: nil, status: fileSystem.status(path), isPictureVouched: true,
                keepingDetailsIn: store)
            {
            case .verified: break
            case .parsed(_, let entry, let details): changes.parsed.append((nil, entry, details))
            case .failed(let diagnostics): changes.diagnostics += diagnostics
            }
        }
    }
}
