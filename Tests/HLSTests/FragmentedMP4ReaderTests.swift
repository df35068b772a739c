import Foundation
@testable import HLS
import TestSupport
import Testing

@Suite struct FragmentedMP4ReaderTests {
    // `ffprobe -v trace -i "concat:init.mp4|seg00N.m4s"` shows mdhd timescales 12800 (video, track 1) and
    // 44100 (audio, track 2) and one empty edit of 294 video ticks. `ffprobe -show_entries packet=pts,dts`
    // gives the first dts per stream: seg000 video 294, audio 0; seg001 video 51494, audio 178176.
    // Without the edit (ignored, as hls.js ignores it) the tfdt values are video 0 / 51200, audio 0 / 178176.

    @Test func firstSegmentStartsAtZero() throws {
        let initSegment = try fixture("vod-fmp4/init.mp4")
        #expect(try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: try fixture("vod-fmp4/seg000.m4s")) == 0)
    }

    @Test func secondSegmentIsTheEarlierOfVideoAndAudioIn90kHz() throws {
        let initSegment = try fixture("vod-fmp4/init.mp4")
        let ticks = try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: try fixture("vod-fmp4/seg001.m4s"))
        // video 51200 / 12800 * 90000 = 360000; audio 178176 / 44100 * 90000 = 363624.4.
        #expect(ticks == 360_000)
    }

    @Test func timescalesComeFromTheInitSegmentByTrackID() throws {
        #expect(try FragmentedMP4Reader.trackTimescales(try fixture("vod-fmp4/init.mp4")) == [1: 12800, 2: 44100])
    }

    @Test func aMediaSegmentCutAfterItsFirstMoofStillAnswers() throws {
        let initSegment = try fixture("vod-fmp4/init.mp4")
        let segment = try fixture("vod-fmp4/seg001.m4s")
        #expect(try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: Array(segment.prefix(4096))) == 360_000)
    }

    @Test func hugeDecodeTimesDoNotOverflow() throws {
        // tfdt v1 = 2^63 - 1 with timescale 1: 90000 times that does not fit in 64 bits.
        let initSegment = MP4Fixture.initSegment(trackID: 7, timescale: 1)
        let media = MP4Fixture.mediaSegment(trackID: 7, baseMediaDecodeTime: UInt64(Int64.max))
        #expect(throws: MediaError.timestampOverflow) {
            try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: media)
        }
        // 2^40 at timescale 2^20 is 2^20 seconds: 94371840000 ticks, past 32 bits and not reduced modulo 2^33.
        let large = MP4Fixture.mediaSegment(trackID: 7, baseMediaDecodeTime: 1 << 40)
        let scaled = MP4Fixture.initSegment(trackID: 7, timescale: 1 << 20)
        #expect(try FragmentedMP4Reader.firstPTS(initSegment: scaled, mediaSegment: large) == 94_371_840_000)
    }

    @Test func missingBoxesAndZeroTimescalesAreTypedErrors() throws {
        let media = try fixture("vod-fmp4/seg000.m4s")
        #expect(throws: MediaError.missingBox(type: "moov")) {
            try FragmentedMP4Reader.firstPTS(initSegment: [], mediaSegment: media)
        }
        #expect(throws: MediaError.invalidTimescale) {
            try FragmentedMP4Reader.firstPTS(initSegment: MP4Fixture.initSegment(trackID: 1, timescale: 0), mediaSegment: media)
        }
        #expect(throws: MediaError.noTimestamp) {
            try FragmentedMP4Reader.firstPTS(initSegment: try fixture("vod-fmp4/init.mp4"), mediaSegment: [])
        }
    }
}
