import Foundation
import FruitsiteCore

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for changes under the folders a site is built from: inotify on Linux, recursive,
/// following folders created or moved in later; or polling, where inotify is missing or
/// `--poll` asks for it. It says which files changed when it saw every change (only files
/// changed, and no event was lost); else the update looks at every file, as `build` does.
public final class FolderWatcher {
    /// Events closer together than this are one change: a save that writes a temporary file
    /// and renames it over the old one is one rebuild. The events of one save come within
    /// microseconds of each other once its files are closed; the window was 10 ms, a fifth
    /// of an edit's way to the screen at 100,000 fruits.
    static let quietWindow: Int32 = 2  // milliseconds
    /// How long a change waits, at most, for the files it wrote to be closed: a save that
    /// truncates a file and then writes it would otherwise be read empty in between.
    static let closeWindow: TimeInterval = 0.5
    static let pollInterval: TimeInterval = 0.25

    private let folders: [String]
    /// Files watched apart from the folders (the config), as folder and name.
    private let files: [(folder: String, name: String)]
    /// Every folder above `folders` and the files, outermost first, watched without what is
    /// below them, so that a watched folder created, removed or put back later is seen, with
    /// the folders above it.
    private let ancestors: [String]
    private var descriptor: Int32 = -1
    /// The folder each watch is for, under every name it was watched by: a folder named
    /// twice (`.` and its absolute path) is one watch.
    private var watched: [Int32: [String]] = [:]

    /// - Parameters:
    ///   - folders: Watched with everything under them.
    ///   - files: Single files, such as the config, watched through their folder.
    ///   - polls: Poll instead of using inotify.
    public init(folders: [String], files: [String], polls: Bool) {
        self.folders = folders
        self.files = files.map { path in
            (Self.folder(of: path), String(path.split(separator: "/").last ?? ""))
        }
        var ancestors: [String] = []
        for path in folders + files {
            var chain: [String] = []
            var folder = path
            repeat {
                folder = Self.folder(of: folder)
                chain.append(folder)
            } while folder != "." && folder != "/"
            for folder in chain.reversed() where !ancestors.contains(folder) {
                ancestors.append(folder)
            }
        }
        self.ancestors = ancestors
        #if canImport(Glibc)
            if !polls {
                descriptor = inotify_init1(Int32(IN_CLOEXEC))
                if descriptor >= 0 { addWatches() }
            }
        #endif
    }

    /// Whether inotify watches the folders (else `wait` polls).
    public var usesNotifications: Bool { descriptor >= 0 }

    /// Returns once something relevant changed and has been quiet for `quietWindow`, or at
    /// `deadline` if nothing did: the paths of the files that changed, or nil when that is
    /// not known (a folder came or went, events were lost, the watcher polls, or the deadline
    /// came first: the caller then looks at everything).
    public func wait(until deadline: Date? = nil) -> Set<String>? {
        guard descriptor >= 0 else {
            let left = deadline.map { max(0, $0.timeIntervalSinceNow) } ?? .infinity
            Thread.sleep(forTimeInterval: min(Self.pollInterval, left))
            return nil
        }
        #if canImport(Glibc)
            var changes = Changes()
            while !changes.isRelevant {
                // Rounded up, so the wait never ends just before the deadline.
                let timeout = deadline.map {
                    Int32(clamping: Int(max(0, ($0.timeIntervalSinceNow * 1000).rounded(.up))))
                }
                if !readEvents(timeout: timeout ?? -1, into: &changes), timeout == 0 {
                    return nil
                }
            }
            // Coalesce: keep reading until the folders stay quiet for the window (events that
            // concern nothing watched, in a busy folder above, do not hold it back), and the
            // files written are closed, or the close window is over.
            let deadline = Date(timeIntervalSinceNow: Self.closeWindow)
            while true {
                if readEvents(timeout: Self.quietWindow, into: &changes) { continue }
                let left = Int32(deadline.timeIntervalSinceNow * 1000)
                guard !changes.writing.isEmpty, left > 0 else { break }
                readEvents(timeout: left, into: &changes)
            }
            return changes.isComplete ? changes.paths : nil
        #else
            return nil
        #endif
    }

    /// What the events read so far say.
    private struct Changes {
        var paths: Set<String> = []
        /// How many events concerned the site.
        var relevant = 0
        var isRelevant: Bool { relevant > 0 }
        /// False once a change is not a file's (a folder's), or events were lost.
        var isComplete = true
        /// Files written to and not closed since.
        var writing: Set<String> = []
    }

    #if canImport(Glibc)
        /// Reads the events that arrive within `timeout` ms (-1: wait for the first) into
        /// `changes`; false when none that concern the site came.
        @discardableResult
        private func readEvents(timeout: Int32, into changes: inout Changes) -> Bool {
            let before = changes.relevant
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout) > 0 else { return false }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            var offset = 0
            while offset < count {
                let (mask, wd, nameLength, name, isUTF8) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let bytes = raw[start..<start + Int(event.len)].prefix { $0 != 0 }
                    let name = String(validating: bytes, as: UTF8.self)
                    return (
                        event.mask, event.wd, Int(event.len),
                        name ?? String(decoding: bytes, as: UTF8.self), name != nil
                    )
                }
                offset += MemoryLayout<inotify_event>.size + nameLength
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Events were lost: watch everything again, and look at everything.
                    addWatches()
                    changes.relevant += 1
                    changes.isComplete = false
                    continue
                }
                guard let names = watched[wd] else { continue }
                if mask & UInt32(IN_IGNORED) != 0 {
                    watched[wd] = nil
                    continue
                }
                if FileSystem.isScratch(name) { continue }
                for folder in names {
                    note(mask, of: name, isUTF8: isUTF8, in: folder, into: &changes)
                }
            }
            return changes.relevant > before
        }

        /// What an event with `mask` about `name` in `folder` means.
        private func note(
            _ mask: UInt32, of name: String, isUTF8: Bool, in folder: String,
            into changes: inout Changes
        ) {
            let isFolder =
                mask & UInt32(IN_ISDIR) != 0
                || mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0
            // Spelt as the folders are (`Content/x`, never `./Content/x`), so that the
            // paths match theirs and the scanner's.
            let path = name.isEmpty ? folder : Self.join(folder, name)
            let isMade = isFolder && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0
            if isFolder, ancestors.contains(path) {
                // A folder above the watched ones came or went: watch what is there now, and
                // no more what went elsewhere.
                if isMade { addWatches() }
                if mask & UInt32(IN_MOVED_FROM) != 0 { removeWatches(under: path) }
                changes.relevant += 1
                changes.isComplete = false
                return
            }
            if isMade, isUnderFolders(path) { addWatches(under: path) }
            // A folder moved elsewhere keeps its watches, which would name its files by
            // the path they left.
            if isFolder, mask & UInt32(IN_MOVED_FROM) != 0 { removeWatches(under: path) }
            if isUnderFolders(folder) || isFolder && isUnderFolders(path) {
                changes.relevant += 1
                // A name that is not UTF-8 cannot be named to the scan, which then
                // looks at every file and reports it as `build` does.
                if isFolder || !isUTF8 {
                    changes.isComplete = false
                } else {
                    changes.paths.insert(path)
                }
            } else if files.contains(where: { $0.folder == folder && $0.name == name }) {
                changes.relevant += 1
            } else {
                return
            }
            if !isFolder {
                if mask & UInt32(IN_MODIFY) != 0 { changes.writing.insert(path) }
                if mask & UInt32(IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) != 0 {
                    changes.writing.remove(path)
                }
            }
        }

        private func isUnderFolders(_ folder: String) -> Bool {
            folders.contains { folder == $0 || folder.hasPrefix($0 + "/") }
        }

        /// From the outermost folder in: what is made after a folder's watch is seen by it,
        /// and what was made before is listed.
        private func addWatches() {
            for folder in ancestors {
                // Above the folders only folders coming and going matter, save in the files'.
                let isFiles = files.contains { $0.folder == folder }
                addWatch(folder, mask: isFiles ? Self.changes : Self.comings)
            }
            for folder in folders { addWatches(under: folder) }
        }

        private func removeWatches(under folder: String) {
            for (wd, names) in watched {
                let kept = names.filter { $0 != folder && !$0.hasPrefix(folder + "/") }
                guard kept.count < names.count else { continue }
                if kept.isEmpty {
                    inotify_rm_watch(descriptor, wd)
                    watched[wd] = nil
                } else {
                    watched[wd] = kept
                }
            }
        }

        private func addWatches(under folder: String) {
            addWatch(folder, mask: Self.changes)
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in entries where !FileSystem.isScratch(name) {
                var isFolder: ObjCBool = false
                let path = Self.join(folder, name)
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
                    isFolder.boolValue
                {
                    addWatches(under: path)
                }
            }
        }

        /// What is made, removed or moved in a folder, or the folder itself.
        private static let comings =
            IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF
        /// That and every change to a file's bytes or status.
        private static let changes = comings | IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB

        /// Adds `mask` to what the folder's watch reports (a folder may be watched under two
        /// names, for two reasons), and the name to its names.
        private func addWatch(_ folder: String, mask: Int32) {
            let wd = inotify_add_watch(descriptor, folder, UInt32(mask | IN_MASK_ADD))
            guard wd >= 0 else { return }
            if !(watched[wd]?.contains(folder) ?? false) { watched[wd, default: []].append(folder) }
        }
    #endif

    /// The folder that holds `path`: `.` for a bare name, `/` for one at the root.
    static func folder(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        var folder = path[...slash]
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return String(folder)
    }

    /// `name` in `folder`, without a leading `./`.
    static func join(_ folder: String, _ name: String) -> String {
        folder == "." ? name : folder + "/" + name
    }

}
