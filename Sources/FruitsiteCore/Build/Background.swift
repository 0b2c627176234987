import Foundation

/// A value made on a thread of its own, from when it is created until `value` waits for it:
/// for one core's work that need not hold up the work after it.
final class Background<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Value?

    init(_ work: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            let made = work()
            condition.lock()
            result = made
            condition.signal()
            condition.unlock()
        }
    }

    /// The value, once made.
    var value: Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}
