import Foundation
import FruitsiteCore

/// Holds back a failed update's errors while the files they name are still changing, as an
/// editor or a script finishes a save: the errors are shown once every file they name has
/// kept the same status (size, times, inode; or missing) for `length`. A file read empty
/// before it was written, half written, renamed away or changed while the update read it has
/// changed since, so its passing error waits, and the update that reads it whole never
/// shows it. A file saved wrong and left so shows its error once the period is over.
///
/// The files' own statuses decide, not the watcher's events: those of a save made while an
/// update ran are still queued when it fails, and polling names no file.
public struct QuietPeriod {
    /// With inotify: a file still open for writing was waited for already, for up to the
    /// watcher's close window, and a save's last write closes it.
    public static let afterNotifications: TimeInterval = 0.3
    /// When polling, which never sees a file closed: longer than a poll interval, and than the
    /// pause of a save that empties a file and writes it a moment later.
    public static let whilePolling: TimeInterval = 1

    /// How long the files named in errors must keep their statuses before the errors show.
    public let length: TimeInterval
    /// When to update again to see whether the held errors remain; nil while none are held.
    public private(set) var heldUntil: Date?
    /// A file's status now; nil when it cannot be read (a file gone counts as one status).
    private let status: (String) -> FileStatus?
    /// Each file named in the last failed update's errors, with its status and the time it
    /// was first seen with it.
    private var seen: [String: (status: FileStatus?, since: Date)] = [:]

    /// - Parameters:
    ///   - length: How long a file must keep its status before an error about it shows.
    ///   - status: Reads a file's status; the disk's unless a test gives another.
    public init(length: TimeInterval, status: @escaping (String) -> FileStatus? = FileStatus.of) {
        self.length = length
        self.status = status
    }

    /// Whether errors about the files at `paths`, found by an update that ended at `now`,
    /// wait: true, with `heldUntil` set, while one of the files has kept its status for less
    /// than `length` (a file first named now has just been seen to change).
    public mutating func holds(errorsAbout paths: some Sequence<String>, at now: Date) -> Bool {
        var current: [String: (status: FileStatus?, since: Date)] = [:]
        for path in Set(paths) {
            let status = status(path)
            if let known = seen[path], known.status == status {
                current[path] = known
            } else {
                current[path] = (status, now)
            }
        }
        seen = current
        let settled = current.values.map { $0.since + length }.max()
        heldUntil = settled.flatMap { $0 > now ? $0 : nil }
        return heldUntil != nil
    }

    /// Forgets the files: an update built, and errors after it are about new saves.
    public mutating func reset() {
        seen = [:]
        heldUntil = nil
    }
}
