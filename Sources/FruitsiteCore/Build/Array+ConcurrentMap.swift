import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `map` on every core, results in order.
    ///
    /// Elements are handed out in runs of a few dozen rather than one by one: calls as cheap
    /// as a `stat` would otherwise cost more to hand out than to make. Each run writes only
    /// its own slots, and `concurrentPerform` returns after all of them, so the unchecked
    /// buffers are safe.
    func concurrentMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        guard count > 1 else { return map(transform) }
        let runs = Swift.min(count, ProcessInfo.processInfo.activeProcessorCount * 64)
        return [Result](unsafeUninitializedCapacity: count) { results, initialized in
            nonisolated(unsafe) let results = results
            withUnsafeBufferPointer { elements in
                nonisolated(unsafe) let elements = elements
                DispatchQueue.concurrentPerform(iterations: runs) { run in
                    let range = (run * elements.count / runs)..<((run + 1) * elements.count / runs)
                    for index in range {
                        (results.baseAddress! + index).initialize(to: transform(elements[index]))
                    }
                }
            }
            initialized = count
        }
    }
}
