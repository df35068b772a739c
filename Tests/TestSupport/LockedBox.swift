import Synchronization

/// A Mutex in a class, so escaping closures can share it.
public final class LockedBox<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// A box holding `value`.
    public init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` on the value with the lock held.
    public func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R {
        mutex.withLock { body(&$0) }
    }
}
