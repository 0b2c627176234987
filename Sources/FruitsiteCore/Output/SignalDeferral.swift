import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Holds Ctrl-C, SIGTERM and SIGHUP back while the output folder is being changed, then lets
/// the first one that arrived take its course. The renames it covers take milliseconds, and a
/// signal in their middle would leave the site half old, half new.
enum SignalDeferral {
    private static let deferred = Atomic<Int32>(0)
    private static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Runs `body` with the signals deferred.
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        var previous: [sighandler_t?] = []
        for number in signals {
            previous.append(
                signal(number) { received in
                    _ = SignalDeferral.deferred.compareExchange(
                        expected: 0, desired: received, ordering: .relaxed)
                })
        }
        defer {
            for (number, handler) in zip(signals, previous) { signal(number, handler) }
            let received = deferred.exchange(0, ordering: .relaxed)
            if received != 0 { raise(received) }
        }
        return try body()
    }
}
