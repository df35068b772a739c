import Synchronization

/// A Mutex in a class, so escaping closures can share it.
public final class LockedBox<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    public func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R {
        mutex.withLock { body(&$0) }
    }
}
