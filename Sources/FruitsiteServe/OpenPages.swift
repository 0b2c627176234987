import Foundation

/// The pages browsers have open, by the path of their file in the site (`fruits/apple/index.html`):
/// each page's event stream names it, so that an update can render and announce those first.
final class OpenPages: @unchecked Sendable {
    private let lock = NSLock()
    /// How many streams each page has: a page can be open in several tabs.
    private var streams: [String: Int] = [:]

    func open(_ path: String) {
        lock.withLock { streams[path, default: 0] += 1 }
    }

    func close(_ path: String) {
        lock.withLock {
            streams[path, default: 1] -= 1
            if streams[path] == 0 { streams[path] = nil }
        }
    }

    var paths: Set<String> {
        lock.withLock { Set(streams.keys) }
    }
}
