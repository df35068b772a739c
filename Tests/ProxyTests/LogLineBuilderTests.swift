import Foundation
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
        let decoded = try JSONSerialization.jsonObject(with: Data(line.bytes), options: .fragmentsAllowed) as? String
        #expect(decoded == "a\"b\\c\n\r\t\u{1}\u{7F}é€")
    }

    @Test func timestampsAreRFC3339WithMilliseconds() throws {
        let stamp = Timestamp.now()
        let pattern = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#)
        #expect(stamp.wholeMatch(of: pattern) != nil, "\(stamp)")
    }
}
