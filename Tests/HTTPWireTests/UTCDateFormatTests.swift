import Glibc
import HTTPWire
import Testing

/// `Date:` headers were formatted with gmtime_r before the one calendar computation took over; the
/// bytes must not change, so the old formatter is kept here as the reference.
@Suite struct UTCDateFormatTests {
    static func gmtimeFixdate(_ seconds: Int64) -> String {
        var moment = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&moment, &parts) != nil else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    @Test func everyDayOfFourHundredYearsMatchesGmtime() {
        // One era of the Gregorian calendar either side of 1970, a day at a time, each at a different second.
        var mismatches: [Int64] = []
        for day in Int64(-146_097)..<146_097 {
            let second = day * 86_400 + (day * 7_919).floorModulo86400
            if String(decoding: UTCDateFormat.imfFixdate(second), as: UTF8.self) != Self.gmtimeFixdate(second) {
                mismatches.append(second)
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }

    @Test func theEdgesOfADayAndOfLeapYearsMatchGmtime() {
        let seconds: [Int64] = [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_399, 4_107_542_400, 253_402_300_799, -62_135_596_800]
        for second in seconds {
            #expect(String(decoding: UTCDateFormat.imfFixdate(second), as: UTF8.self) == Self.gmtimeFixdate(second), "\(second)")
        }
    }

    @Test func aLogSecondIsRFC3339WithoutFraction() {
        #expect(String(decoding: UTCDateFormat.logSecond(784_111_777), as: UTF8.self) == "1994-11-06T08:49:37")
        #expect(String(decoding: UTCDateFormat.logSecond(0), as: UTF8.self) == "1970-01-01T00:00:00")
    }
}

private extension Int64 {
    /// A second within the day, never negative.
    var floorModulo86400: Int64 { ((self % 86_400) + 86_400) % 86_400 }
}
