import Glibc

/// A reading of the monotonic clock (CLOCK_MONOTONIC) in nanoseconds: the one clock behind the event
/// loop's timers, the client's deadlines and the proxy's request times. One vDSO call to read, and
/// plain integer arithmetic to compare (every access line measures one).
public struct MonotonicTime: Comparable, Hashable, Sendable {
    /// Nanoseconds from an arbitrary start (boot), never negative.
    public let nanoseconds: Int

    /// A reading with `nanoseconds` on the clock.
    @inlinable
    public init(nanoseconds: Int) {
        self.nanoseconds = nanoseconds
    }

    /// The clock now.
    @inlinable
    public static func now() -> MonotonicTime {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicTime(nanoseconds: time.tv_sec &* 1_000_000_000 &+ time.tv_nsec)
    }

    /// Whole milliseconds on the clock: the event loop's timer unit.
    @inlinable
    public var milliseconds: Int64 { Int64(nanoseconds / 1_000_000) }

    /// Milliseconds from this reading to now.
    @inlinable
    public var millisecondsElapsed: Double {
        Double(Self.now().nanoseconds &- nanoseconds) / 1_000_000
    }

    /// The time from this reading to `later` (negative when `later` is earlier).
    @inlinable
    public func duration(to later: MonotonicTime) -> Duration {
        .nanoseconds(later.nanoseconds &- nanoseconds)
    }

    /// The reading `duration` after `time`; saturates instead of overflowing, so a far-off deadline
    /// is just "never".
    public static func + (time: MonotonicTime, duration: Duration) -> MonotonicTime {
        let (sum, overflow) = time.nanoseconds.addingReportingOverflow(nanoseconds(of: duration))
        if overflow { return MonotonicTime(nanoseconds: duration < .zero ? Int.min : Int.max) }
        return MonotonicTime(nanoseconds: sum)
    }

    /// The reading `duration` before `time`, saturated like `+`.
    public static func - (time: MonotonicTime, duration: Duration) -> MonotonicTime {
        let (difference, overflow) = time.nanoseconds.subtractingReportingOverflow(nanoseconds(of: duration))
        if overflow { return MonotonicTime(nanoseconds: duration < .zero ? Int.max : Int.min) }
        return MonotonicTime(nanoseconds: difference)
    }

    /// The time from `earlier` to `later`.
    public static func - (later: MonotonicTime, earlier: MonotonicTime) -> Duration {
        earlier.duration(to: later)
    }

    @inlinable
    public static func < (a: MonotonicTime, b: MonotonicTime) -> Bool {
        a.nanoseconds < b.nanoseconds
    }

    /// A duration in whole nanoseconds, saturated to Int's range.
    static func nanoseconds(of duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = Int(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? Int.min : Int.max }
        let (total, overflowAdding) = scaled.addingReportingOverflow(Int(attoseconds / 1_000_000_000))
        return overflowAdding ? (seconds < 0 ? Int.min : Int.max) : total
    }
}
