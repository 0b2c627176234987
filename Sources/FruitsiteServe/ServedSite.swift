import Foundation
import FruitsiteCore

/// The site as served: every file of the last good build in memory, replaced as a whole
/// after each update, so a request sees one complete site and never a half-built one.
struct ServedSite: Sendable {
    struct File: Sendable {
        var bytes: [UInt8]
        /// The version in which the file last changed: with the server's instance, its ETag.
        var revision: Int
        /// The last version that changed more than its stylesheets' names: an open page of
        /// the file is refreshed once this passes the version it was served with.
        var shown: Int
    }

    private(set) var files: [String: File] = [:]
    /// Counts updates, good or bad; pages reload when it moves past the one they were
    /// served with.
    private(set) var version = 0
    /// The errors of the last update, as the terminal printed them; empty when it built.
    private(set) var errors: [String] = []
    /// The last version whose errors differ from those before: every open page shows them,
    /// or stops showing them.
    private(set) var errorsChanged = 0
    /// What the last update means for an open page: see `ReloadEvent`.
    private(set) var event = ReloadEvent()
    /// The version in which each page the site no longer has was removed: an open page of
    /// it shows the 404 page from then.
    private(set) var removedIn: [String: Int] = [:]
    /// Whether any update built: until one does, there is no good site to show.
    private(set) var hasBuilt = false
    /// The fruit pages' folders renamed since the server started, each old folder with the
    /// current one: a page that missed the update of a rename finds its fruit through them.
    private(set) var moves: [String: String] = [:]

    /// Applies a successful update; false when it changes nothing a browser sees (no file's
    /// bytes, and no errors to clear), which leaves the version as it was. A file given with
    /// the bytes it has is no change: `serve` publishes the pages a browser has open first,
    /// then the whole update, which holds them again.
    mutating func apply(_ update: SiteBuilder.LiveSite.Update) -> Bool {
        apply(files: update.files, removed: update.removed)
    }

    /// Applies the files of a successful update and the paths it removed: see `apply(_:)`.
    mutating func apply(files changed: [RenderedPage], removed: [String]) -> Bool {
        let update = (
            files: changed.filter { file in
                !(files[file.path].map { Self.same($0.bytes, file.bytes) } ?? false)
            },
            removed: removed.filter { files[$0] != nil }
        )
        guard version == 0 || !update.files.isEmpty || !update.removed.isEmpty || !errors.isEmpty
        else { return false }
        let changesOnlyStyles = changesOnlyStyles(update)
        version += 1
        hasBuilt = true
        var added: [String] = []
        for file in update.files {
            let old = files[file.path]
            if old == nil { added.append(file.path) }
            // Only stylesheets changed: an open page swaps them without reloading.
            let shown = changesOnlyStyles ? old?.shown ?? version : version
            files[file.path] = File(bytes: file.bytes, revision: version, shown: shown)
            removedIn[file.path] = nil
        }
        for path in update.removed {
            files[path] = nil
            // Only an HTML page is ever open, with an event stream naming it.
            if path.hasSuffix(".html") { removedIn[path] = version }
        }
        if !errors.isEmpty { (errors, errorsChanged) = ([], version) }
        event.version = version
        let styles = update.files.filter { $0.path.hasSuffix(".css") }.count
        if styles > 0 { event.styles = version }
        if errorsChanged == version || !changesOnlyStyles { event.pages = version }
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

    /// Whether `update` changes stylesheets alone: a stylesheet edited is published under a
    /// new stamped name (`assets/site.<stamp>.css`), its old one is removed, and the pages
    /// that link it differ from what they were only in that name.
    private func changesOnlyStyles(_ update: (files: [RenderedPage], removed: [String])) -> Bool {
        // Each stylesheet's old and new file name, as pages end their links with them.
        var renames: [(old: [UInt8], new: [UInt8])] = []
        for path in update.removed {
            guard let unstamped = Self.unstamped(path),
                let new = update.files.first(where: {
                    files[$0.path] == nil && Self.unstamped($0.path) == unstamped
                })
            else { return false }
            let name = { (path: String) in
                Array(path.utf8.split(separator: UInt8(ascii: "/")).last!)
            }
            renames.append((name(path), name(new.path)))
        }
        return update.files.allSatisfy { file in
            if file.path.hasSuffix(".css") { return true }
            guard !renames.isEmpty, var bytes = files[file.path]?.bytes,
                bytes.count == file.bytes.count
            else { return false }
            // A stamp has a fixed length: the old page with the new names has the new bytes.
            for (old, new) in renames {
                var index = 0
                while index + old.count <= bytes.count {
                    if bytes[index..<index + old.count].elementsEqual(old) {
                        bytes.replaceSubrange(index..<index + old.count, with: new)
                        index += old.count
                    } else {
                        index += 1
                    }
                }
            }
            return bytes == file.bytes
        }
    }

    /// A stylesheet's path without its stamp (`assets/site.k3j5h2a9.css` → `assets/site.css`);
    /// nil for another file, or a stylesheet without a stamp.
    private static func unstamped(_ path: String) -> String? {
        let stampLength = 8
        guard path.hasSuffix(".css") else { return nil }
        let stem = path.utf8.dropLast(".css".count)
        let stamp = stem.suffix(stampLength)
        guard stamp.count == stampLength, stem.dropLast(stampLength).last == UInt8(ascii: "."),
            stamp.allSatisfy({ (0x61...0x7A).contains($0) || (0x32...0x37).contains($0) })
        else { return nil }
        return String(decoding: stem.dropLast(stampLength + 1), as: UTF8.self) + ".css"
    }

    /// Records a failed update: the last good files stay, and every page shows `errors`.
    /// False when the errors are those shown already, which leaves the version as it was.
    mutating func fail(with errors: [String]) -> Bool {
        guard errors != self.errors else { return false }
        version += 1
        self.errors = errors
        errorsChanged = version
        (event.version, event.pages, event.move) = (version, version, nil)
        return true
    }

    /// The event for an open page of the file at `path`: its `pages` is the last version
    /// that changed what that page shows (its file, or the errors every page shows), so a
    /// page whose own file did not change is not refreshed. A stream that names no page
    /// hears of every change but stylesheets'.
    func event(forPage path: String?) -> ReloadEvent {
        guard let path else { return event }
        var event = event
        event.pages = max(errorsChanged, files[path]?.shown ?? removedIn[path] ?? 0)
        return event
    }

    /// Whether two files have the same bytes, compared as memory: an update at 100,000
    /// fruits can hold thousands of pages.
    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count
            && a.withUnsafeBytes { a in
                b.withUnsafeBytes { b in
                    a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
                }
            }
    }
}

/// What an open page is told after an update. A page may miss updates (a stream sends only
/// the latest), so the event says since when pages and stylesheets have changed.
struct ReloadEvent: Sendable {
    var version = 0
    /// The last version that changed more than stylesheets; for one page, the last that
    /// changed what it shows (`ServedSite.event(forPage:)`).
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
