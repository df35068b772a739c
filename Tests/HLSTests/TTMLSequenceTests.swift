import Testing
@testable import HLS

/// `timeContainer="seq"` on paragraphs and spans (TTML1 §10.2.4, §10.4), and cues that cannot be given a
/// finite WebVTT time, counted with their reason. Expected cues were checked with ttconv 1.2.3.
@Suite struct TTMLSequenceTests {
    @Test func spansOfASequentialParagraphFollowOneAnother() throws {
        #expect(try cues("<p begin='0s' end='4s' timeContainer='seq'><span dur='1s'>a</span><span dur='1s'>b</span></p>") == [
            WebVTTCue(start: 0, end: 1000, payload: ["a"]),
            WebVTTCue(start: 1000, end: 2000, payload: ["b"]),
        ])
    }

    @Test func textBetweenTheSpansOfASequentialParagraphIsNotShown() throws {
        // Anonymous spans in a seq container have a zero implicit duration (TTML1 §10.4).
        #expect(try cues("<p begin='5s' end='9s' timeContainer='seq'>x <span dur='1s'>c</span> y<br/><span dur='1s'>e</span></p>") == [
            WebVTTCue(start: 5000, end: 6000, payload: ["c"]),
            WebVTTCue(start: 6000, end: 7000, payload: ["e"]),
        ])
    }

    @Test func aSequentialSpanTimesItsChildSpansFromEachOthersEnds() throws {
        // g begins 1 s after f's end.
        #expect(try cues("<p begin='10s' end='14s'><span timeContainer='seq'><span dur='1s'>f</span><span begin='1s' dur='1s'>g</span></span></p>") == [
            WebVTTCue(start: 10_000, end: 11_000, payload: ["f"]),
            WebVTTCue(start: 12_000, end: 13_000, payload: ["g"]),
        ])
    }

    @Test func aSpanWithoutEndInASequenceHidesTheSpansAfterIt() throws {
        // The untimed span lasts to the paragraph's end (indefinite inside it), so "late" never begins
        // (ttconv 1.2.3 fails on an untimed span in a seq; this one follows TTML1 §10.4 by hand).
        #expect(try cues("<p begin='0s' end='3s' timeContainer='seq'><span dur='1s'>a</span><span>rest</span><span dur='1s'>late</span></p>") == [
            WebVTTCue(start: 0, end: 1000, payload: ["a"]),
            WebVTTCue(start: 1000, end: 3000, payload: ["rest"]),
        ])
    }

    @Test func paragraphsOfASequentialDivFollowOneAnother() throws {
        #expect(try cues("<div timeContainer='seq' begin='20s'><p dur='1s'>h</p><p dur='2s'>i</p></div>") == [
            WebVTTCue(start: 20_000, end: 21_000, payload: ["h"]),
            WebVTTCue(start: 21_000, end: 23_000, payload: ["i"]),
        ])
    }

    @Test func aLastParagraphWithAnIndefiniteEndIsCountedWithItsReason() throws {
        let conversion = try TTMLConverter.conversion(from: ttml("<p begin='1s' end='2s'>a</p><p begin='30s'>last words</p>"))
        #expect(conversion.document.cues == [WebVTTCue(start: 1000, end: 2000, payload: ["a"])])
        #expect(conversion.droppedCount == 1)
        #expect(conversion.droppedReasons == ["<p> \"last words\": indefinite end, nothing in the document ends it"])
    }

    @Test func aDocumentWhoseOnlyCueHasAnIndefiniteEndFailsWithThatReason() {
        #expect(throws: SubtitleError.noTTMLCues(reason: "1 left out: <p> \"only\": indefinite end, nothing in the document ends it")) {
            try TTMLConverter.conversion(from: ttml("<p begin='3s'>only</p>"))
        }
    }

    @Test func aCueEndingPastTheInt64MillisecondRangeIsCountedWithItsReason() throws {
        // 10^16 s is 10^19 ms, past Int64.max (about 9.2 * 10^18).
        let conversion = try TTMLConverter.conversion(from: ttml("<p begin='1s' end='2s'>a</p><p begin='1s' end='10000000000000000s'>far</p>"))
        #expect(conversion.document.cues == [WebVTTCue(start: 1000, end: 2000, payload: ["a"])])
        #expect(conversion.droppedReasons == ["<p> \"far\": a time past the Int64 millisecond range"])
        #expect(throws: SubtitleError.noTTMLCues(reason: "1 left out: <p> \"far\": a time past the Int64 millisecond range")) {
            try TTMLConverter.conversion(from: ttml("<p begin='1s' end='10000000000000000s'>far</p>"))
        }
    }
}
