import Testing
@testable import HLS

/// TTML1 §10.3.1 time expressions, each form with its exact millisecond value.
@Suite struct TTMLTimeExpressionTests {
    private func parameters(_ attributes: String = "") throws -> TTMLTimeParameters {
        let root = try XMLTokenizer.parse(Array("<tt xmlns:ttp='http://www.w3.org/ns/ttml#parameter' \(attributes)/>".utf8))
        return TTMLTimeParameters(root: root, namespaces: TTMLConverter.parameterNamespaces)
    }

    private func milliseconds(_ text: String, _ attributes: String = "") throws -> Int64? {
        TTMLTimeExpression.parse(text, parameters: try parameters(attributes))?.milliseconds
    }

    @Test func clockTimesReadHoursMinutesSecondsAndAnyFraction() throws {
        #expect(try milliseconds("00:00:01") == 1000)
        #expect(try milliseconds("01:02:03.5") == 3_723_500)
        #expect(try milliseconds("00:00:01.123456789012") == 1123)
        #expect(try milliseconds("00:00:01.0005") == 1001)  // half a millisecond rounds up
        #expect(try milliseconds("00:00:01.00049") == 1000)
        #expect(try milliseconds("100:00:00") == 360_000_000)
        #expect(try milliseconds("0:00:05.25") == 5250)  // one-digit hours, as some tools write them
        #expect(try milliseconds("  00:00:02.000\n") == 2000)
    }

    @Test func clockTimesWithFramesUseTheEffectiveFrameRate() throws {
        #expect(try milliseconds("00:00:01:15") == 1500)  // default 30 fps
        #expect(try milliseconds("00:00:02:10", "ttp:frameRate='25'") == 2400)
        // 29.97 fps: 15 frames are 15 * 1001 / 30000 s = 500.5 ms, rounded up.
        #expect(try milliseconds("00:00:00:15", "ttp:frameRate='30' ttp:frameRateMultiplier='1000 1001'") == 501)
        // 23.976 fps, one hour in: 3600 s + 12 * 1001 / 24000 s = 3600.5005 s.
        #expect(try milliseconds("01:00:00:12", "ttp:frameRate='24' ttp:frameRateMultiplier='1000 1001'") == 3_600_501)
        // Sub-frames: 10 frames and 1 of 2 sub-frames at 25 fps is 10.5 / 25 s.
        #expect(try milliseconds("00:00:00:10.1", "ttp:frameRate='25' ttp:subFrameRate='2'") == 420)
    }

    @Test func offsetTimesInEveryMetric() throws {
        #expect(try milliseconds("1.5h") == 5_400_000)
        #expect(try milliseconds("2m") == 120_000)
        #expect(try milliseconds("0.25m") == 15_000)
        #expect(try milliseconds("2.25s") == 2250)
        #expect(try milliseconds("1500ms") == 1500)
        #expect(try milliseconds("0.4ms") == 0)
        #expect(try milliseconds("48f", "ttp:frameRate='24'") == 2000)
        #expect(try milliseconds("45f") == 1500)  // default 30 fps
        #expect(try milliseconds("150f", "ttp:frameRate='30' ttp:frameRateMultiplier='1000 1001'") == 5005)
    }

    @Test func ticksCountAtTheTickRateOrItsDefault() throws {
        #expect(try milliseconds("12345678t", "ttp:tickRate='10000000'") == 1235)
        #expect(try milliseconds("145145000t", "ttp:tickRate='10000000'") == 14_515)  // 14514.5 ms rounds up
        // §6.2.10: without a tickRate, a declared frame rate times the sub-frame rate, else 1 per second.
        #expect(try milliseconds("75t", "ttp:frameRate='25' ttp:subFrameRate='2'") == 1500)
        #expect(try milliseconds("3t") == 3000)
        #expect(try milliseconds("2.5t", "ttp:tickRate='1000'") == 3)
    }

    @Test func malformedExpressionsAreRefused() throws {
        for text in ["", "5", "5x", "s", ".5s", "00:61:00", "00:1:00", "1:02", "00:00:01.", "00:00:01.5x",
                     "00:00:01:", "-1s", "1e3s", "00:00:00:1.2.3", "1234567890123456789s", "00:00:01::00"] {
            #expect(try milliseconds(text) == nil, "\(text)")
        }
    }

    @Test func unreadableRatesKeepTheirDefaults() throws {
        #expect(try milliseconds("30f", "ttp:frameRate='0'") == 1000)
        #expect(try milliseconds("30f", "ttp:frameRate='fast'") == 1000)
        #expect(try milliseconds("30f", "ttp:frameRate='30' ttp:frameRateMultiplier='1000'") == 1000)
        #expect(try milliseconds("2t", "ttp:tickRate='999999999999999'") == 2000)
    }

    @Test func hugeTimesGiveNilInsteadOfTrapping() throws {
        #expect(try milliseconds("999999999999999999h") == nil)
        let huge = TTMLTime(Int128.max / 2, 1)
        #expect(huge.flatMap { $0.adding($0) } != nil)
        #expect(huge.flatMap { $0.adding($0)?.adding($0) } == nil)
        #expect(huge?.milliseconds == nil)
    }
}
