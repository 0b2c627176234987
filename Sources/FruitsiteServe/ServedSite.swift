import FruitsiteCore

/// The site as served: every file of the last good build in memory, replaced as a whole
/// after each update, so a request sees one complete site and never a half-built one.
struct ServedSite: Sendable {
    struct File: Sendable {
        var bytes: [UInt8]
        /// The version in which the file last changed: with the server's instance, its ETag.
        var revision: Int
    }

    private(set) var files: [String: File] = [:]
    /// Counts updates, good or bad; pages reload when it moves past the one they were
    /// served with.
    private(set) var version = 0
    /// The errors of the last update, as the terminal printed them; empty when it built.
    private(set) var errors: [String] = []
    /// What the last update means for an open page: see `ReloadEvent`.
    private(set) var event = ReloadEvent()
    /// Whether any update built: until one does, there is no good site to show.
    private(set) var hasBuilt = false
    /// The fruit pages' folders renamed since the server started, each old folder with the
    /// current one: a page that missed the update of a rename finds its fruit through them.
    private(set) var moves: [String: String] = [:]

    /// Applies a successful update; false when it changes nothing a browser sees (no file,
    /// and no errors to clear), which leaves the version as it was.
    mutating func apply(_ update: SiteBuilder.LiveSite.Update) -> Bool {
        guard version == 0 || !update.files.isEmpty || !update.removed.isEmpty || !errors.isEmpty
        else { return false }
        version += 1
        hasBuilt = true
        var added: [String] = []
        for file in update.files {
            if files[file.path] == nil { added.append(file.path) }
            files[file.path] = File(bytes: file.bytes, revision: version)
        }
        for path in update.removed { files[path] = nil }
        let hadErrors = !errors.isEmpty
        errors = []
        event.version = version
        let styles = update.files.filter { $0.path.hasSuffix(".css") }.count
        if styles > 0 { event.styles = version }
        // Only stylesheets changed: an open page swaps them without reloading.
        if hadErrors || !update.removed.isEmpty || styles < update.files.count {
            event.pages = version
        }
        event.move = nil
        // One fruit page gone and one arrived: its fruit was renamed, and an open page of
        // it follows to the new address.
        let pages = { (paths: [String]) in
            paths.filter { $0.hasPrefix("fruits/") && $0.hasSuffix("/index.html") }
        }
        if let from = pages(update.removed).first, pages(update.removed).count == 1,
            let to = pages(added).first, pages(added).count == 1
        {
            let folder = { (path: String) in String(path.dropLast("index.html".count)) }
            let (from, to) = (folder(from), folder(to))
            event.move = (from, to)
            for (old, current) in moves where current == from { moves[old] = to }
            moves[from] = to
            moves[to] = nil
        } else if !update.removed.isEmpty {
            // A fruit removed takes the old addresses that led to it along: they would lead
            // nowhere, and kept, they would pile up for as long as the server runs.
            moves = moves.filter { files[$0.value + "index.html"] != nil }
        }
        return true
    }

    /// Records a failed update: the last good files stay, and every page shows `errors`.
    /// False when the errors are those shown already, which leaves the version as it was.
    mutating func fail(with errors: [String]) -> Bool {
        guard errors != self.errors else { return false }
        version += 1
        self.errors = errors
        (event.version, event.pages, event.move) = (version, version, nil)
        return true
    }
}

/// What an open page is told after an update. A page may miss updates (a stream sends only
/// the latest), so the event says since when pages and stylesheets have changed.
struct ReloadEvent: Sendable {
    var version = 0
    /// The last version that changed more than stylesheets.
    var pages = 0
    /// The last version that changed a stylesheet.
    var styles = 0
    /// A fruit page's old and new folder, relative to the site root.
    var move: (from: String, to: String)?

    /// The event as Server-Sent Events data, with the site's base path on the addresses and
    /// the server's instance, which a page served by another (a server started again) does
    /// not know: it then reloads, whatever the versions.
    func json(basePath: String, instance: String) -> String {
        var json =
            "{\"instance\":\"\(instance)\",\"version\":\(version),\"pages\":\(pages),"
            + "\"styles\":\(styles)"
        if let move {
            // As `location.pathname` spells them.
            let (from, to) = (
                RequestPath.encoded(basePath + move.from), RequestPath.encoded(basePath + move.to)
            )
            json += ",\"from\":\"\(from)\",\"to\":\"\(to)\""
        }
        return json + "}"
    }
}
