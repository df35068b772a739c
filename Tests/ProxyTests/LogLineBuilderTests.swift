import Foundation
import HTTPWire
@testable import Proxy
import Testing

/// The byte-level builder access lines are written with.
@Suite struct LogLineBuilderTests {
    @Test(arguments: [(0, "0"), (7, "7"), (302, "302"), (-45, "-45"), (Int.max, "9223372036854775807"), (Int.min, "-9223372036854775808")])
    func integersAreWrittenInDecimal(value: Int, expected: String) {
        var line = LogLineBuilder()
        line.appendDecimal(value)
        #expect(line.text == expected)
    }

    @Test(arguments: [(0.0, "0.000"), (0.0004, "0.000"), (0.0005, "0.001"), (1.2345, "1.235"), (12.5, "12.500"),
                      (Double.nan, "null"), (-1.0, "null"), (Double.infinity, "null"), (1e12, "null")])
    func millisecondsHaveThreeDecimals(value: Double, expected: String) {
        var line = LogLineBuilder()
        line.appendMilliseconds(value)
        #expect(line.text == expected)
    }

    @Test func quotedTextEscapesWhatJSONRequiresAndKeepsTheRest() throws {
        var line = LogLineBuilder()
        line.appendQuoted("a\"b\\c\n\r\t\u{1}\u{7F}é€")
        #expect(line.text == #""a\"b\\c\n\r\t\u0001\u007fé€""#)
        let decoded = try JSONSerialization.jsonObject(with: Data(line.text.utf8), options: .fragmentsAllowed) as? String
        #expect(decoded == "a\"b\\c\n\r\t\u{1}\u{7F}é€")
    }

    @Test func aLineThatOutgrowsItsCapacityGrowsIntact() {
        let long = String(repeating: "/segment", count: 40)
        var grown = LogLineBuilder(capacity: 32)
        grown.append("{\"path\":")
        grown.appendQuoted(long)
        grown.append("}")
        #expect(grown.text == "{\"path\":\"\(long)\"}")
        var line = LogLineBuilder(capacity: 0)
        line.appendDecimal(42)
        #expect(line.text == "42")
    }

    @Test func timestampsAreRFC3339WithMilliseconds() throws {
        let stamp = Timestamp.now()
        let pattern = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#)
        #expect(stamp.wholeMatch(of: pattern) != nil, "\(stamp)")
    }
}

/// The log timestamp's own calendar arithmetic against Foundation's formatter.
@Suite struct LogTimestampTests {
    @Test(arguments: [
        0, 59, 86_399, 86_400, 951_782_400, 951_868_799, 951_868_800, 1_078_012_800, 1_709_164_800,
        1_795_996_800, 4_107_542_399, 4_107_542_400, 253_402_300_799, 1_234_567_890, 1_700_000_000,
    ] as [Int64])
    func secondsAreFormattedAsFoundationFormatsThem(second: Int64) {
        // Leap days (2000-02-29, 2004-02-29, 2024-02-29), the last second of 9999, and 2100 (not leap).
        let expected = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
            .format(Date(timeIntervalSince1970: TimeInterval(second)))
        #expect(String(decoding: UTCDateFormat.logSecond(second), as: UTF8.self) + "Z" == expected)
    }

    @Test func everyDayOfFourHundredYearsMatchesFoundation() {
        // One era of the Gregorian calendar, a day at a time, from 1970.
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
        var mismatches = 0
        for day in Int64(0)..<146_097 {
            let second = day * 86_400 + 45_296 // 12:34:56
            if String(decoding: UTCDateFormat.logSecond(second), as: UTF8.self) + "Z"
                != style.format(Date(timeIntervalSince1970: TimeInterval(second))) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }
}
