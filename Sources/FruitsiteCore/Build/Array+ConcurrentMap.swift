import Dispatch

extension Array where Element: Sendable {
    /// `map` on every core, results in order.
    ///
    /// Each iteration writes only its own slot, and `concurrentPerform` returns after all of
    /// them, so the unchecked buffer is safe.
    func concurrentMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        guard count > 1 else { return map(transform) }
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let buffer = buffer
            let elements = self
            DispatchQueue.concurrentPerform(iterations: elements.count) { index in
                (buffer.baseAddress! + index).initialize(to: transform(elements[index]))
            }
            initialized = elements.count
        }
    }
}
