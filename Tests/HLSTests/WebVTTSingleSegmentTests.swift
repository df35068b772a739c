import Testing
@testable import HLS

/// `segment(_:boundaries:)` is one window of `segmented(boundaries:)`, byte for byte, without the rest.
@Suite struct WebVTTSingleSegmentTests {
    /// A small deterministic generator, so a failure replays.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int64) -> Int64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int64((state >> 33) % UInt64(bound))
        }
    }

    @Test func eachSegmentAloneEqualsTheSameWindowOfTheFullSplit() {
        var random = Generator(state: 42)
        for round in 0..<200 {
            let cues = (0..<Int(random.next(40))).map { number -> WebVTTCue in
                let start = random.next(60_000) - 1_000
                let length = random.next(4) == 0 ? 0 : random.next(20_000)
                return WebVTTCue(start: start, end: start + length, payload: ["cue \(number)"])
            }
            let document = WebVTTDocument(
                headerLines: ["X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000"],
                blocks: [WebVTTBlock(kind: .note, lines: ["NOTE x"]), WebVTTBlock(kind: .style, lines: ["STYLE", "::cue {}"])],
                cues: cues)
            var boundaries = (0..<Int(random.next(12) + 1)).map { _ in random.next(60_000) }
            if round % 3 != 0 { boundaries.sort() }  // a third stay out of order
            let whole = document.segmented(boundaries: boundaries)
            for index in boundaries.indices {
                #expect(document.segment(index, boundaries: boundaries) == whole[index], "round \(round) window \(index)")
            }
            #expect(document.segment(boundaries.count, boundaries: boundaries) == nil)
            #expect(document.segment(-1, boundaries: boundaries) == nil)
        }
    }

    @Test func readingStopsAtTheCueLimit() throws {
        let text = "WEBVTT\n\n" + (0..<10).map { "00:00:0\($0).000 --> 00:00:0\($0).500\ncue \($0)\n" }.joined(separator: "\n")
        let capped = try WebVTTDocument.parse(Array(text.utf8), maxCues: 4)
        #expect(capped.cues.map(\.payload) == (0..<4).map { ["cue \($0)"] })
        #expect(try WebVTTDocument.parse(Array(text.utf8)).cues.count == 10)
        let srt = (0..<10).map { "\($0 + 1)\n00:00:0\($0),000 --> 00:00:0\($0),500\ncue \($0)\n" }.joined(separator: "\n")
        #expect(try SRTConverter.webVTT(from: Array(srt.utf8), maxCues: 3).cues.count == 3)
    }
}
