import HTTPWire
import Synchronization

/// Where the memory caches read the time to expire entries: the monotonic clock, or in tests that
/// clock moved forward by hand (`advance(by:)`), so a TTL runs out without the test waiting for it.
struct CacheClock: Sendable {
    /// Time added to every reading; nil for the plain clock, which is then read directly (a store or
    /// lookup on every request reads it, so the default costs one nil check and no indirect call).
    private let skipped: SkippedTime?

    /// The monotonic clock as it is.
    static let system = CacheClock(skipped: nil)

    /// A clock that `advance(by:)` moves ahead of the monotonic one.
    static func adjustable() -> CacheClock { CacheClock(skipped: SkippedTime()) }

    private init(skipped: SkippedTime?) {
        self.skipped = skipped
    }

    /// The time now on this clock.
    @inline(__always)
    func now() -> MonotonicTime {
        guard let skipped else { return .now() }
        return .now() + .nanoseconds(skipped.nanoseconds.load(ordering: .relaxed))
    }

    /// Moves an adjustable clock ahead by `duration`; the plain clock cannot be moved.
    func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        skipped?.nanoseconds.add(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000), ordering: .relaxed)
    }
}

/// The time an adjustable clock has been moved ahead, shared by every copy of it.
final class SkippedTime: Sendable {
    let nanoseconds = Atomic<Int>(0)
}
