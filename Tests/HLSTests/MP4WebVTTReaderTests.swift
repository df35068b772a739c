import Foundation
import Testing
import TestSupport
@testable import HLS

/// WebVTT in MP4 (ISO/IEC 14496-30 `wvtt` sample entries) read by MP4TextTrackReader.
@Suite struct MP4WebVTTReaderTests {
    /// A moov-first file with one `text` track whose samples (duration in ms, bytes) follow in an mdat.
    private func file(_ samples: [(duration: UInt32, bytes: [UInt8])], entry: String = "wvtt") -> [UInt8] {
        func moov(offset: UInt32) -> [UInt8] {
            let stsd = MP4Fixture.box("stsd", [0, 0, 0, 0] + MP4Fixture.be32(1)
                                      + MP4Fixture.box(entry, Array(repeating: 0, count: 6) + MP4Fixture.be16(1) + MP4Fixture.box("vttC", Array("WEBVTT".utf8))))
            let stts = MP4Fixture.box("stts", [0, 0, 0, 0] + MP4Fixture.be32(UInt32(samples.count))
                                      + samples.flatMap { MP4Fixture.be32(1) + MP4Fixture.be32($0.duration) })
            let stsc = MP4Fixture.box("stsc", [0, 0, 0, 0] + MP4Fixture.be32(1) + MP4Fixture.be32(1)
                                      + MP4Fixture.be32(UInt32(samples.count)) + MP4Fixture.be32(1))
            let stsz = MP4Fixture.box("stsz", [0, 0, 0, 0] + MP4Fixture.be32(0) + MP4Fixture.be32(UInt32(samples.count))
                                      + samples.flatMap { MP4Fixture.be32(UInt32($0.bytes.count)) })
            let stco = MP4Fixture.box("stco", [0, 0, 0, 0] + MP4Fixture.be32(1) + MP4Fixture.be32(offset))
            let minf = MP4Fixture.box("minf", MP4Fixture.box("stbl", stsd + stts + stsc + stsz + stco))
            return MP4Fixture.box("moov", MP4Fixture.trak(trackID: 7, timescale: 1000, handler: "text", extra: minf))
        }
        let offset = UInt32(moov(offset: 0).count + 8)
        return moov(offset: offset) + MP4Fixture.box("mdat", samples.flatMap(\.bytes))
    }

    private func vttc(id: String? = nil, settings: String? = nil, _ text: String?) -> [UInt8] {
        var inner: [UInt8] = []
        if let id { inner += MP4Fixture.box("iden", Array(id.utf8)) }
        if let settings { inner += MP4Fixture.box("sttg", Array(settings.utf8)) }
        if let text { inner += MP4Fixture.box("payl", Array(text.utf8)) }
        return MP4Fixture.box("vttc", inner)
    }

    private let gap = MP4Fixture.box("vtte", [])

    @Test func theFixtureGivesTheCuesOfItsSourceWebVTT() throws {
        let tracks = try MP4TextTrackReader.read(try fixture("subtitles/mp4-with-wvtt.mp4"))
        let track = try #require(tracks.first)
        #expect(tracks.count == 1)
        #expect(track.trackID == 1)
        #expect(track.language == "eng")
        let source = try WebVTTDocument.parse(try fixture("subtitles/mp4-with-wvtt.vtt"))
        #expect(track.cues == source.cues)
        #expect(track.cues == [
            WebVTTCue(id: "intro", start: 1000, end: 2500, settings: "align:start line:10%", payload: ["Hello <b>world</b> &amp; co"]),
            WebVTTCue(start: 2000, end: 4000, payload: ["Overlapping", "second line"]),
            WebVTTCue(start: 5250, end: 6000, settings: "position:20%", payload: ["<i>Last</i> one"]),
            WebVTTCue(id: "after", start: 6000, end: 7125, payload: ["Straight after, with --&gt; inside"]),
        ])
    }

    @Test func simultaneousCuesGapsAndCommentsInSamples() throws {
        let tracks = try MP4TextTrackReader.read(file([
            (500, gap),
            (1000, vttc("one") + MP4Fixture.box("vtta", Array("note".utf8)) + vttc(id: "b", settings: "line:0", "two\r\nlines")),
            (250, gap),
            (750, vttc("one")),
        ]))
        #expect(tracks.first?.cues == [
            WebVTTCue(start: 500, end: 1500, payload: ["one"]),
            WebVTTCue(id: "b", start: 500, end: 1500, settings: "line:0", payload: ["two", "lines"]),
            // After a gap the same text is a new cue.
            WebVTTCue(start: 1750, end: 2500, payload: ["one"]),
        ])
    }

    @Test func aCueRepeatedInConsecutiveSamplesIsJoined() throws {
        let tracks = try MP4TextTrackReader.read(file([
            (1000, vttc("long")), (500, vttc("long") + vttc("short")), (500, vttc("long") + vttc("short")), (100, vttc("long")),
        ]))
        #expect(tracks.first?.cues == [
            WebVTTCue(start: 0, end: 2100, payload: ["long"]), WebVTTCue(start: 1000, end: 2000, payload: ["short"]),
        ])
    }

    @Test func cuesWithoutTextAndBrokenBoxesAreDroppedNotFatal() throws {
        // A vttc with no payl shows nothing; a box whose size overruns the sample ends it, keeping what came before.
        let broken = vttc("kept") + MP4Fixture.be32(400) + Array("vttc".utf8) + Array(repeating: 0, count: 4)
        let tracks = try MP4TextTrackReader.read(file([(1000, vttc(id: "x", nil)), (1000, broken), (1000, [1, 2, 3])]))
        #expect(tracks.first?.cues == [WebVTTCue(start: 1000, end: 2000, payload: ["kept"])])
    }

    @Test func aBoxOverrunningItsSampleIsReportedWithTheSampleNumber() throws {
        let broken = vttc("kept") + MP4Fixture.be32(400) + Array("vttc".utf8) + Array(repeating: 0, count: 4)
        let track = try #require(try MP4TextTrackReader.read(file([(1000, vttc("fine")), (1000, broken)])).first)
        #expect(track.cues.map(\.payload) == [["fine"], ["kept"]])
        #expect(track.dropped.count == 1)
        #expect(track.dropped.reasons.count == 1)
        #expect(track.dropped.reasons.first?.hasPrefix("sample 2: malformed box in the sample") == true)
    }

    @Test func aBoxSizeSmallerThanItsHeaderIsReportedToo() throws {
        let track = try #require(try MP4TextTrackReader.read(file([(1000, MP4Fixture.be32(4) + Array("vttc".utf8))])).first)
        #expect(track.cues.isEmpty)
        #expect(track.dropped.reasons.first?.hasPrefix("sample 1: malformed box in the sample") == true)
    }

    @Test func aMalformedBoxInsideAVttcEndsTheSampleKeepingTheTextReadBeforeIt() throws {
        let inner = MP4Fixture.box("payl", Array("before".utf8)) + MP4Fixture.be32(99) + Array("sttg".utf8)
        let cueBox = MP4Fixture.box("vttc", inner)
        let track = try #require(try MP4TextTrackReader.read(file([(1000, cueBox + vttc("lost"))])).first)
        #expect(track.cues.map(\.payload) == [["before"]])
        #expect(track.dropped.reasons.first?.hasPrefix("sample 1: malformed box inside a vttc") == true)
    }

    @Test func aWellFormedTrackReportsNothingDropped() throws {
        let track = try #require(try MP4TextTrackReader.read(try fixture("subtitles/mp4-with-wvtt.mp4")).first)
        #expect(track.dropped == MP4TextTrack.Dropped())
    }

    @Test func onlyTheFirstFewReasonsAreKeptButEveryDroppedSampleIsCounted() throws {
        let track = try #require(try MP4TextTrackReader.read(file(Array(repeating: (1000, MP4Fixture.be32(4) + Array("vttc".utf8)), count: 5))).first)
        #expect(track.dropped.count == 5)
        #expect(track.dropped.reasons.count == MP4TextTrack.Dropped.keptReasons)
    }

    @Test func aSampleWhoseEndPassesTwoToTheSixtyFourIsRefusedWithoutWrapping() throws {
        let sample = MP4SampleTable.Sample(range: 0..<0, time: UInt64.max - 10, duration: 11)
        #expect(try MP4TextTrackReader.span(of: sample, timescale: 1000) == nil)
        let fits = MP4SampleTable.Sample(range: 0..<0, time: 1000, duration: 500)
        #expect(try MP4TextTrackReader.span(of: fits, timescale: 1000).map { [$0.start, $0.end] } == [1000, 1500])
        // An end that fits 64 bits but not Int64 milliseconds still refuses the file, as before.
        let huge = MP4SampleTable.Sample(range: 0..<0, time: UInt64.max - 10, duration: 10)
        #expect(throws: MediaError.timestampOverflow) { try MP4TextTrackReader.span(of: huge, timescale: 1) }
    }

    @Test func otherSampleEntriesInTextTracksAreStillSkipped() throws {
        #expect(try MP4TextTrackReader.read(file([(1000, vttc("x"))], entry: "stpp")).isEmpty)
    }

    @Test func everyTruncationOfTheFixtureIsRefused() throws {
        let bytes = try fixture("subtitles/mp4-with-wvtt.mp4")
        for length in 0..<bytes.count {
            #expect(throws: MediaError.self) { try MP4TextTrackReader.read(Array(bytes[..<length])) }
        }
    }
}
