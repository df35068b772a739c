import Synchronization

/// A ceiling on client exchanges in flight. Each exchange holds a thread of its own and two
/// descriptors (the socket and the cancellation eventfd) from its start until its body has been
/// read, or abandoned; a hanging origin holds them until the deadline. Past the ceiling an exchange
/// is refused at once with `HTTPClientError.tooManyExchanges` rather than queued: the caller answers
/// "try again" while the process still has threads and descriptors for everything else.
public final class HTTPExchangeSlots: Sendable {
    /// The most exchanges in flight at once.
    public let limit: Int
    private let inUse = Atomic<Int>(0)
    private let refusedTotal = Atomic<Int>(0)

    /// Slots for at most `limit` exchanges (at least 1).
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Exchanges in flight now.
    public var inFlight: Int { inUse.load(ordering: .relaxed) }

    /// Exchanges refused so far because every slot was taken.
    public var refused: Int { refusedTotal.load(ordering: .relaxed) }

    /// Takes a slot; false (counted) when all are taken.
    func acquire() -> Bool {
        var current = inUse.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = inUse.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        refusedTotal.add(1, ordering: .relaxed)
        return false
    }

    /// Gives a slot back once its exchange's thread is done.
    func release() {
        inUse.subtract(1, ordering: .releasing)
    }

    /// The process's soft limit on open descriptors (RLIMIT_NOFILE), or nil when it cannot be read
    /// or is unlimited.
    public static var descriptorLimit: Int? { ProcessLimits.openDescriptors }
}
