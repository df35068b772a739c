import Glibc
import Synchronization

/// RFC 3339 UTC timestamps with milliseconds for log lines; the formatted second is cached, and the
/// calendar date is computed here rather than through a date formatter, which loads time zone data
/// from disk on first use (a cost the first request after start-up would pay).
enum Timestamp {
    /// `2026-01-02T03:04:05` for the second last formatted.
    private static let cache = Mutex<(second: Int64, prefix: [UInt8])>((-1, []))

    static func now() -> String {
        var line = LogLineBuilder(capacity: 24)
        append(to: &line)
        return line.text
    }

    /// Appends the current time, `2026-01-02T03:04:05.678Z`.
    static func append(to line: inout LogLineBuilder) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let second = Int64(time.tv_sec)
        let millis = time.tv_nsec / 1_000_000
        let prefix = cache.withLock { cached -> [UInt8] in
            if cached.second == second { return cached.prefix }
            cached = (second, format(second))
            return cached.prefix
        }
        line.append(bytesOf: prefix)
        line.appendFraction(millis)
        line.append("Z")
    }

    /// `YYYY-MM-DDTHH:MM:SS` (UTC) for a Unix time in seconds, years 0 to 9999.
    static func format(_ unixSeconds: Int64) -> [UInt8] {
        let days = unixSeconds.floorDivided(by: 86_400)
        let secondOfDay = Int(unixSeconds - days * 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        var out: [UInt8] = []
        out.reserveCapacity(19)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            let clamped = min(max(value, 0), divisor * 10 - 1)
            while divisor > 0 {
                out.append(UInt8(truncatingIfNeeded: clamped / divisor % 10) &+ 0x30)
                divisor /= 10
            }
        }
        digits(Int(year), 4); out.append(UInt8(ascii: "-"))
        digits(month, 2); out.append(UInt8(ascii: "-"))
        digits(day, 2); out.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2); out.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2); out.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        return out
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's `civil_from_days`:
    /// 400-year eras of 146,097 days, years starting on 1 March so the leap day comes last).
    static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = daysSinceEpoch + 719_468                      // days since 0000-03-01
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097                      // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153              // 0 = March ... 11 = February
        let day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
        let month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    /// Division rounding toward negative infinity (times before 1970 have negative day numbers).
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
