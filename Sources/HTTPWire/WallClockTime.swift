import Glibc

/// A reading of the real-time clock (CLOCK_REALTIME): the Unix second and the millisecond within it,
/// which `Date:` headers and log times are formatted from (`UTCDateFormat`).
public struct WallClockTime: Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let seconds: Int64
    /// The millisecond within that second, 0...999.
    public let milliseconds: Int

    /// A reading from its parts.
    @inlinable
    public init(seconds: Int64, milliseconds: Int) {
        self.seconds = seconds
        self.milliseconds = milliseconds
    }

    /// The current Unix second alone, from time(2): the coarse clock, cheaper than a full reading,
    /// which is all a `Date:` header (one per response) needs. Linux serves it from the coarse clock, a
    /// tick behind `now()`: just after a second turns, a Date header can name the second before a log time.
    @inlinable
    public static func currentSecond() -> Int64 {
        Int64(time(nil))
    }

    /// The clock now, to the millisecond.
    @inlinable
    public static func now() -> WallClockTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return WallClockTime(seconds: Int64(time.tv_sec), milliseconds: time.tv_nsec / 1_000_000)
    }
}
