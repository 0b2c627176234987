import Dispatch
import Foundation

/// How many cores this process may use, read once: Foundation reads the cgroup's quota and
/// CPU set from `/sys` on every call, two files each time.
let processorCount = ProcessInfo.processInfo.activeProcessorCount

extension Array where Element: Sendable {
    /// `map` on every core, results in order.
    ///
    /// Elements are handed out in runs of a few dozen rather than one by one: calls as cheap
    /// as a `stat` would otherwise cost more to hand out than to make.
    func concurrentMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        concurrentMap(runs: { $0.map(transform) })
    }

    /// `map` on every core, a run of consecutive elements at a time, for a transform that
    /// shares work along a run (such as a folder opened once for its files). `transform`
    /// gives one result for each element of the run, in order.
    ///
    /// Each run writes only its own slots, and `concurrentPerform` returns after all of them,
    /// so the unchecked buffers are safe.
    func concurrentMap<Result: Sendable>(
        runs transform: @Sendable (ArraySlice<Element>) -> [Result]
    ) -> [Result] {
        guard count > 1 else { return transform(self[...]) }
        let runs = Swift.min(count, processorCount * 64)
        return [Result](unsafeUninitializedCapacity: count) { results, initialized in
            nonisolated(unsafe) let results = results
            DispatchQueue.concurrentPerform(iterations: runs) { run in
                let range = (run * count / runs)..<((run + 1) * count / runs)
                let made = transform(self[range])
                precondition(made.count == range.count, "one result for each element")
                made.withUnsafeBufferPointer { made in
                    (results.baseAddress! + range.lowerBound).initialize(
                        from: made.baseAddress!, count: made.count)
                }
            }
            initialized = count
        }
    }
}

extension Range where Bound: Strideable, Bound.Stride == Int {
    /// `body` on every core, for consecutive shares of the range of a few thousand indices
    /// each, results in order: for work too cheap for each index to be handed out alone, such
    /// as one hash for each fruit, added up.
    func concurrentShares<Result: Sendable>(
        _ body: @Sendable (Range<Bound>) -> Result
    ) -> [Result] where Bound: Sendable {
        let share = 4_096
        return Array(stride(from: lowerBound, to: upperBound, by: share)).concurrentMap {
            body($0..<Swift.min($0.advanced(by: share), upperBound))
        }
    }
}
