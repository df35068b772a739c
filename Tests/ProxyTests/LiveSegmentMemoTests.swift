import HLS
import Testing
@testable import Proxy

/// What live subtitle segments are kept under: the PTS cache key of a video segment URL, and the bounded
/// memo of live files per document (a stream that runs for days must not grow it without end).
@Suite struct LiveSegmentMemoTests {
    @Test func thePTSKeyIsTheSegmentsPathWithoutQueryOrFragmentAndItsMediaSequenceNumber() {
        #expect(VideoTimelineReader.livePTSKey("http://o/chunk.ts?seq=123", sequence: 123) == "http://o/chunk.ts #123")
        #expect(VideoTimelineReader.livePTSKey("http://o/chunk.ts?token=a&seq=1#t=2", sequence: 1)
            == VideoTimelineReader.livePTSKey("http://o/chunk.ts?token=b&seq=1", sequence: 1))
        #expect(VideoTimelineReader.livePTSKey("http://o/a.ts?_hls_proxy=media", sequence: 4) == "http://o/a.ts #4")
        #expect(VideoTimelineReader.livePTSKey("http://o/a.ts#frag", sequence: 0) == "http://o/a.ts #0")
        #expect(VideoTimelineReader.livePTSKey("http://o/init.mp4?token=a", sequence: nil) == "http://o/init.mp4")
        #expect(VideoTimelineReader.livePTSKey("http://o/a.ts", sequence: 1) != VideoTimelineReader.livePTSKey("http://o/a.ts", sequence: 2))
    }

    static func cues() throws -> SubtitleTrackCues {
        let document = try WebVTTDocument.parse(Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA cue.\n".utf8))
        return SubtitleTrackCues(document: document, isFallback: false)
    }

    @Test func aWindowSlidingOverAHundredThousandNumbersLeavesTheMemoBounded() throws {
        let cues = try Self.cues()
        for sequence in 0..<100_000 {
            let listed = max(0, sequence - 5)..<(sequence + 1)
            _ = cues.windowFile(sequence, start: 0, end: 4000, map: .none, listed: listed)
            guard cues.liveFileCount <= SubtitleTrackCues.liveCapacity else {
                Issue.record("\(cues.liveFileCount) files after number \(sequence)")
                break
            }
        }
        #expect(cues.liveFileCount <= SubtitleTrackCues.liveCapacity)
        // What the window lists was kept: asked again, the same stored body (no new entry).
        let kept = cues.liveFileCount
        _ = cues.windowFile(99_998, start: 0, end: 4000, map: .none, listed: 99_994..<100_000)
        #expect(cues.liveFileCount == kept)
    }

    @Test func numbersAllInsideOneHugeWindowAreStillBoundedKeepingTheHighest() throws {
        let cues = try Self.cues()
        let listed = 0..<200_000
        for sequence in 0..<(20 * SubtitleTrackCues.liveCapacity) {
            _ = cues.windowFile(sequence, start: 0, end: 4000, map: .none, listed: listed)
        }
        #expect(cues.liveFileCount <= SubtitleTrackCues.liveCapacity)
        #expect(cues.liveFileCount >= SubtitleTrackCues.liveCapacity / 2)
    }

    @Test func aNumberOutsideTheWindowIsTheFirstToGoWhenTheMemoIsFull() throws {
        let cues = try Self.cues()
        let capacity = SubtitleTrackCues.liveCapacity
        // Full of numbers 0..<capacity, then the window moves far on: every old number leaves at once.
        for sequence in 0..<capacity { _ = cues.windowFile(sequence, start: 0, end: 4000, map: .none, listed: 0..<capacity) }
        #expect(cues.liveFileCount == capacity)
        _ = cues.windowFile(10 * capacity, start: 0, end: 4000, map: .none, listed: (10 * capacity)..<(10 * capacity + 3))
        #expect(cues.liveFileCount == 1)
    }
}
