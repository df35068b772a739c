/// A value settled once and handed to the one task waiting for it. Kept inside the owner's lock;
/// the continuation it returns is resumed after the lock is released.
struct OriginHandoff<Value: Sendable> {
    /// The settled value, nil until then.
    private(set) var value: Value?
    private var waiter: CheckedContinuation<Value, Never>?

    /// Installs the waiter, or returns the value to resume it with at once when already settled.
    mutating func wait(_ continuation: CheckedContinuation<Value, Never>) -> Value? {
        if let value { return value }
        waiter = continuation
        return nil
    }

    /// Settles the value; returns the waiter to resume with it, nil when there is none or the
    /// value was already settled (later values are ignored).
    mutating func settle(_ settled: Value) -> CheckedContinuation<Value, Never>? {
        guard value == nil else { return nil }
        value = settled
        defer { waiter = nil }
        return waiter
    }
}
