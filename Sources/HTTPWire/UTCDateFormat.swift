/// The two UTC date forms the program writes, from one calendar computation: the IMF-fixdate of
/// `Date:` headers (RFC 9110 §5.6.7) and the RFC 3339 second of log times. The calendar date is
/// computed here rather than by gmtime or a date formatter, which load time zone data on first use.
public enum UTCDateFormat {
    /// `Sun, 06 Nov 1994 08:49:37 GMT` for a Unix time in seconds.
    public static func imfFixdate(_ unixSeconds: Int64) -> [UInt8] {
        // Far beyond any clock, where the year would not fit gmtime's int: the epoch.
        guard unixSeconds.magnitude < 67_000_000_000_000_000 else { return Array("Thu, 01 Jan 1970 00:00:00 GMT".utf8) }
        let days = unixSeconds.floorDivided(by: 86_400)
        let secondOfDay = Int(unixSeconds - days * 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        // 1970-01-01 was a Thursday.
        let weekday = Int((days + 4).floorModulo(7))
        var out: [UInt8] = []
        out.reserveCapacity(29)
        out.append(contentsOf: weekdayNames[weekday].utf8)
        out.append(contentsOf: ", ".utf8)
        appendDigits(day, 2, to: &out)
        out.append(0x20)
        out.append(contentsOf: monthNames[month - 1].utf8)
        out.append(0x20)
        // gmtime's year, unpadded, as IMF-fixdate writes every year since 1000.
        out.append(contentsOf: String(year).utf8)
        out.append(0x20)
        appendTime(secondOfDay, to: &out)
        out.append(contentsOf: " GMT".utf8)
        return out
    }

    /// `2026-01-02T03:04:05` (UTC) for a Unix time in seconds, years 0 to 9999: a log time without its
    /// fraction and zone, which the logger appends.
    public static func logSecond(_ unixSeconds: Int64) -> [UInt8] {
        let days = unixSeconds.floorDivided(by: 86_400)
        let secondOfDay = Int(unixSeconds - days * 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        var out: [UInt8] = []
        out.reserveCapacity(19)
        appendDigits(Int(clamping: year), 4, to: &out); out.append(UInt8(ascii: "-"))
        appendDigits(month, 2, to: &out); out.append(UInt8(ascii: "-"))
        appendDigits(day, 2, to: &out); out.append(UInt8(ascii: "T"))
        appendTime(secondOfDay, to: &out)
        return out
    }

    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `HH:MM:SS` for a second of the day.
    private static func appendTime(_ secondOfDay: Int, to out: inout [UInt8]) {
        appendDigits(secondOfDay / 3600, 2, to: &out); out.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, 2, to: &out); out.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, 2, to: &out)
    }

    /// `value` in exactly `count` decimal digits, clamped to what they can hold.
    private static func appendDigits(_ value: Int, _ count: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        let clamped = min(max(value, 0), divisor * 10 - 1)
        while divisor > 0 {
            out.append(UInt8(truncatingIfNeeded: clamped / divisor % 10) &+ 0x30)
            divisor /= 10
        }
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's `civil_from_days`:
    /// 400-year eras of 146,097 days, years starting on 1 March so the leap day comes last).
    package static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int, day: Int) {
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

    /// The remainder that goes with `floorDivided`: never negative for a positive divisor.
    func floorModulo(_ divisor: Int64) -> Int64 {
        self - floorDivided(by: divisor) * divisor
    }
}
