import Testing
@testable import HLS

/// TTML2 §10.3.1 bounds on clock-time fields: minutes and seconds below 60 (60 s is a leap second, for
/// the clock time base only, which is refused), frames below `ttp:frameRate`, sub-frames below
/// `ttp:subFrameRate`. Out of range is a malformed time: the element is left out and the reason kept.
@Suite struct TTMLClockTimeRangeTests {
    private func read(_ text: String, _ attributes: String = "") throws -> Result<TTMLTime, TTMLTimeExpression.Refusal> {
        let root = try XMLTokenizer.parse(Array("<tt xmlns:ttp='http://www.w3.org/ns/ttml#parameter' \(attributes)/>".utf8))
        return TTMLTimeExpression.read(text, parameters: TTMLTimeParameters(root: root, namespaces: TTMLConverter.parameterNamespaces))
    }

    private func reason(_ text: String, _ attributes: String = "") throws -> String? {
        guard case .failure(let refusal) = try read(text, attributes) else { return nil }
        return refusal.reason
    }

    private func milliseconds(_ text: String, _ attributes: String = "") throws -> Int64? {
        guard case .success(let time) = try read(text, attributes) else { return nil }
        return time.milliseconds
    }

    @Test func secondsOfSixtyOrMoreAreRefused() throws {
        #expect(try reason("00:00:60") == "seconds not below 60")
        #expect(try reason("00:00:75.5") == "seconds not below 60")
        #expect(try reason("00:00:60:00") == "seconds 60 not below 60")
        #expect(try milliseconds("00:00:59.999") == 59_999)
    }

    @Test func minutesOfSixtyOrMoreAreRefused() throws {
        #expect(try reason("00:60:00") == "minutes 60 not below 60")
        #expect(try reason("00:99:00:00") == "minutes 99 not below 60")
        #expect(try milliseconds("00:59:00") == 3_540_000)
    }

    @Test func framesAtOrAboveTheFrameRateAreRefused() throws {
        #expect(try reason("00:00:01:30") == "frame 30 not below the frame rate 30")  // default 30 fps
        #expect(try reason("00:00:01:25", "ttp:frameRate='25'") == "frame 25 not below the frame rate 25")
        #expect(try reason("00:00:01:99", "ttp:frameRate='25'") == "frame 99 not below the frame rate 25")
        #expect(try milliseconds("00:00:01:24", "ttp:frameRate='25'") == 1960)
        // 29.97 fps still numbers its frames 0 to 29 (the multiplier changes their length, not their count).
        #expect(try milliseconds("00:00:00:29", "ttp:frameRate='30' ttp:frameRateMultiplier='1000 1001'") == 968)
        #expect(try reason("00:00:00:30", "ttp:frameRate='30' ttp:frameRateMultiplier='1000 1001'") != nil)
    }

    @Test func subFramesAtOrAboveTheSubFrameRateAreRefused() throws {
        #expect(try reason("00:00:00:10.2", "ttp:frameRate='25' ttp:subFrameRate='2'") == "sub-frame 2 not below the sub-frame rate 2")
        #expect(try reason("00:00:00:10.1") == "sub-frame 1 not below the sub-frame rate 1")  // default 1: only .0
        #expect(try milliseconds("00:00:00:10.1", "ttp:frameRate='25' ttp:subFrameRate='2'") == 420)
    }

    @Test func eachOutOfRangeTimeLeavesItsElementOutWithAReasonAndTheRestIsConverted() throws {
        let body = """
            <p begin='00:00:01' end='00:00:02'>kept</p>
            <p begin='00:00:60' end='00:01:02'>seconds</p>
            <p begin='00:00:01:30' end='00:00:03'>frames</p>
            <p begin='00:60:00' end='01:00:00'>minutes</p>
            <p begin='00:00:04' end='00:00:05:00.3' >sub-frames</p>
            """
        let conversion = try TTMLConverter.conversion(from: ttml(body))
        #expect(conversion.document.cues == [WebVTTCue(start: 1000, end: 2000, payload: ["kept"])])
        #expect(conversion.droppedCount == 4)
        #expect(conversion.droppedReasons == [
            "<p begin=\"00:00:60\">: seconds not below 60",
            "<p begin=\"00:00:01:30\">: frame 30 not below the frame rate 30",
            "<p begin=\"00:60:00\">: minutes 60 not below 60",
        ])
    }

    @Test func aDocumentWhoseEveryTimeIsOutOfRangeIsRefusedAsHavingNoCues() {
        #expect(throws: SubtitleError.noTTMLCues(reason: "1 left out: <p begin=\"00:00:61\">: seconds not below 60")) {
            try TTMLConverter.conversion(from: ttml("<p begin='00:00:61' end='00:00:62'>a</p>"))
        }
    }

    @Test func aWellFormedDocumentDropsNothing() throws {
        let conversion = try TTMLConverter.conversion(from: ttml("<p begin='00:00:01:29' end='00:00:59.5'>a</p>"))
        #expect(conversion.droppedCount == 0)
        #expect(conversion.droppedReasons.isEmpty)
        #expect(conversion.document.cues.count == 1)
    }
}
