import Testing
@testable import HLS

/// `ttp:timeBase="smpte"` with `ttp:frameRateMultiplier`: a time code labels a frame counted at the
/// nominal rate and played at the effective one (TTML1 §10.3.1); `ttp:dropMode` dropNTSC skips labels
/// 0 and 1 of each minute but every tenth (§6.2.3), dropPAL is refused. The expected times are what
/// ttconv 1.2.3 (`tt convert`) gives for the same documents.
@Suite struct TTMLSMPTETimeTests {
    static func starts(_ dropMode: String) throws -> [String] {
        let body = """
            <div><p begin="00:00:01:15" end="00:00:02:00">one</p>
            <p begin="00:01:00:02" end="00:01:01:00">two</p>
            <p begin="01:00:00:00" end="01:00:01:00">three</p></div>
            """
        let attributes = "ttp:timeBase='smpte' ttp:frameRate='30' ttp:frameRateMultiplier='1000 1001' ttp:dropMode='\(dropMode)'"
        return try cues(body, attributes: attributes).map { "\(WebVTTTimestamp.string($0.start)) --> \(WebVTTTimestamp.string($0.end))" }
    }

    @Test func nonDropTimeCodesAreFrameCountsAtTheNominalRatePlayedAtTheEffectiveOne() throws {
        #expect(try Self.starts("nonDrop") == [
            "00:00:01.502 --> 00:00:02.002",
            "00:01:00.127 --> 00:01:01.061",
            "01:00:03.600 --> 01:00:04.601",
        ])
    }

    @Test func dropNTSCTimeCodesSkipTheDroppedLabels() throws {
        #expect(try Self.starts("dropNTSC") == [
            "00:00:01.502 --> 00:00:02.002",
            "00:01:00.060 --> 00:01:00.994",
            "00:59:59.996 --> 01:00:00.997",
        ])
    }

    @Test func aDroppedLabelIsMalformedAndDropPALIsRefused() throws {
        let attributes = "ttp:timeBase='smpte' ttp:frameRate='30' ttp:frameRateMultiplier='1000 1001' ttp:dropMode='dropNTSC'"
        let kept = try cues("<div><p begin='00:01:00:00' end='00:01:01:00'>a</p><p begin='00:01:00:02' end='00:01:01:00'>b</p></div>", attributes: attributes)
        #expect(kept.map(\.payload) == [["b"]], "the cue naming a dropped label is left out")
        #expect(throws: SubtitleError.noTTMLCues(reason: "1 left out: <p begin=\"00:01:00:00\">: frame 0 is dropped at minute 1 (dropNTSC)")) {
            try cues("<p begin='00:01:00:00' end='00:01:01:00'>a</p>", attributes: attributes)
        }
        #expect(try cues("<p begin='00:10:00:00' end='00:10:01:00'>a</p>", attributes: attributes).count == 1, "minute 10 drops nothing")
        #expect(throws: SubtitleError.unsupportedTTMLTimeBase("smpte with dropMode dropPAL")) {
            try cues("<p begin='1s' end='2s'>a</p>", attributes: "ttp:timeBase='smpte' ttp:dropMode='dropPAL'")
        }
    }
}
