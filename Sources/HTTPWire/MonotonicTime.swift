import Glibc

/// A reading of the monotonic clock in nanoseconds, for how long a request took: one vDSO call to
/// read, and plain integer arithmetic to compare (every access line measures one).
struct MonotonicTime: Sendable {
    let nanoseconds: Int

    static func now() -> MonotonicTime {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicTime(nanoseconds: time.tv_sec &* 1_000_000_000 &+ time.tv_nsec)
    }

    /// Milliseconds from this reading to now.
    var millisecondsElapsed: Double {
        Double(Self.now().nanoseconds &- nanoseconds) / 1_000_000
    }
}
