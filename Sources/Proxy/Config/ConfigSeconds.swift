/// Config times are seconds as `Double`; these conversions never trap, whatever the file says.
enum ConfigSeconds {
    /// The largest span we act on: a year. Longer values behave as a year.
    static let ceiling = 365.0 * 24 * 3600

    /// A non-negative `Duration` for a seconds value; NaN counts as 0.
    static func duration(_ seconds: Double) -> Duration {
        .milliseconds(milliseconds(seconds))
    }

    /// Whole milliseconds, clamped to 0...a year.
    static func milliseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int64(min(seconds, ceiling) * 1000)
    }

    /// Signed whole milliseconds for offsets, clamped to ±a year and rounded to the nearest.
    static func signedMilliseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return 0 }
        let clamped = max(-ceiling, min(seconds, ceiling)) * 1000
        return Int64(clamped < 0 ? clamped - 0.5 : clamped + 0.5)
    }

    /// Whole seconds for a Cache-Control max-age.
    static func maxAge(_ seconds: Double) -> Int64 {
        milliseconds(seconds) / 1000
    }
}
