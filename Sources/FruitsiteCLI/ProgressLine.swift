import Foundation
import FruitsiteCore

/// A one-line progress report on standard error ("Encoding 12 of 40 pictures", then
/// "Rendering 5,120 of 10,012 files, 8,400/s": pages, feeds and the search index's files,
/// more than the HTML pages the result line counts), shown only on a terminal and only once a
/// build has run for a second.
final class ProgressLine: @unchecked Sendable {
    private let terminal: Terminal
    private let start: Date
    private let lock = NSLock()
    private var lastShown = Date.distantPast
    private var isShowing = false

    init(terminal: Terminal, start: Date) {
        self.terminal = terminal
        self.start = start
    }

    /// Redraws the line, at most ten times a second.
    func update(_ stage: SiteBuilder.BuildStage, done: Int, total: Int) {
        lock.withLock {
            let now = Date()
            let elapsed = now.timeIntervalSince(start)
            guard elapsed > 1, now.timeIntervalSince(lastShown) > 0.1 else { return }
            lastShown = now
            isShowing = true
            let counts = "\(done.formatted()) of \(total.formatted())"
            let line =
                switch stage {
                case .encodingPictures: "Encoding \(counts) pictures"
                case .rendering:
                    "Rendering \(counts) files, \(Int(Double(done) / max(elapsed, 0.001)).formatted())/s"
                }
            terminal.standardError("\r\u{1B}[2K" + line)
        }
    }

    /// Clears the line so the summary or the errors start on a clean line.
    func finish() {
        lock.withLock {
            if isShowing { terminal.standardError("\r\u{1B}[2K") }
            isShowing = false
        }
    }
}
