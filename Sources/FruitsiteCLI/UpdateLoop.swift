import Foundation
import FruitsiteCore
import FruitsiteServe

/// What `serve` does with every change: it waits for the watcher, updates the site in memory
/// with what changed and hands the result to the server. A failed update's errors wait for
/// the files they name to settle (`QuietPeriod`); the server keeps the last good site.
struct UpdateLoop {
    private var site: SiteBuilder.LiveSite
    private let server: SiteServer
    private let watcher: FolderWatcher
    private let terminal: Terminal
    private var quietPeriod: QuietPeriod

    init(
        site: SiteBuilder.LiveSite, server: SiteServer, watcher: FolderWatcher, terminal: Terminal
    ) {
        self.site = site
        self.server = server
        self.watcher = watcher
        self.terminal = terminal
        quietPeriod = QuietPeriod(
            length: watcher.usesNotifications
                ? QuietPeriod.afterNotifications : QuietPeriod.whilePolling)
    }

    /// Whether the last update failed with errors that wait for their files to settle.
    var isHolding: Bool { quietPeriod.heldUntil != nil }

    /// Waits for a change, or for the files of held errors to settle, and updates.
    mutating func next() {
        update(changing: watcher.wait(until: quietPeriod.heldUntil))
    }

    /// Builds what changed and hands it to the server; errors go to the terminal and to
    /// every open page, once the files they name have settled.
    /// - Parameter paths: The files that changed, or nil to look at every file.
    mutating func update(changing paths: Set<String>?) {
        // Polling updates every interval: it says nothing when nothing changed, and tells
        // the same errors once.
        let isPolled = !watcher.usesNotifications
        let start = Date()
        do {
            // The pages a browser has open are served first: see `LiveSite.update`.
            var shownFirst = false
            let update = try site.update(changing: paths, open: server.openPages) {
                shownFirst = server.publish(first: $0, removing: $1)
            }
            quietPeriod.reset()
            let changed = update.files.count + update.removed.count
            guard server.publish(update) || shownFirst || !isPolled else { return }
            CLI.report(update.rendering.warnings, on: terminal)
            let milliseconds = Int(Date().timeIntervalSince(start) * 1000)
            terminal.printError(
                "Built in \(milliseconds) ms: \(changed) file\(changed == 1 ? "" : "s") changed")
        } catch {
            // A file read while a save was under way has changed since: its errors wait.
            let errors = error.diagnostics.filter(\.isError)
            if quietPeriod.holds(errorsAbout: errors.map(\.location.path), at: Date()) { return }
            let texts = CLI.describe(
                error.diagnostics,
                outcome: server.hasSite
                    ? "serving the last good site" : "serving the errors until a change builds")
            guard server.publish(errors: texts) || !isPolled else { return }
            for text in texts { terminal.printError(text) }
        }
    }
}
