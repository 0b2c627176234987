import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Holds Ctrl-C, SIGTERM and SIGHUP back while a build has files staged or is changing the
/// output folder, then lets the first one that arrived take its course. A signal in the
/// middle of the renames would leave the site half old, half new; one while pages are
/// rendered would leave the staged files behind, inside the output folder when it is a mount
/// point. The build asks `isPending` between batches, and gives up what it staged.
enum SignalDeferral {
    private static let deferred = Atomic<Int32>(0)
    private static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// Guards `depth` and `previous`. A lock rather than a `Mutex` global, whose closure's
    /// access ThreadSanitizer reported as a race between two builds.
    private static let lock = NSLock()
    /// How many holds (`enter` or `run`) are under way, as builds in one process may overlap,
    /// and the handlers the first one replaced, which the last one puts back.
    nonisolated(unsafe) private static var depth = 0
    nonisolated(unsafe) private static var previous: [sighandler_t?] = []

    /// Whether a signal arrived while the signals are held.
    static var isPending: Bool { deferred.load(ordering: .relaxed) != 0 }

    /// Runs `body` with the signals held; the last hold to end raises the first one.
    static func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        enter()
        defer { leave() }
        return try body()
    }

    /// Starts deferring the signals; each `enter` needs its `leave`.
    static func enter() {
        lock.withLock {
            depth += 1
            guard depth == 1 else { return }
            previous = signals.map { number in
                let previous = signal(number) { received in
                    _ = SignalDeferral.deferred.compareExchange(
                        expected: 0, desired: received, ordering: .relaxed)
                }
                // A signal the process ignores (as a background job ignores Ctrl-C) stays
                // ignored rather than stopping the build.
                if isIgnoring(previous) { signal(number, previous) }
                return previous
            }
        }
    }

    /// Ends what `enter` started; the last to end raises the first signal that arrived.
    static func leave() {
        let received = lock.withLock { () -> Int32 in
            depth -= 1
            guard depth == 0 else { return 0 }
            for index in signals.indices { signal(signals[index], previous[index]) }
            return deferred.exchange(0, ordering: .relaxed)
        }
        if received != 0 { raise(received) }
    }

    private static func isIgnoring(_ handler: sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
