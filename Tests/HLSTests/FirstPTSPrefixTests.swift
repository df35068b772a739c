@testable import HLS
import TestSupport
import Testing

/// The first PTS read from a segment's first bytes (`firstPTS(ofPrefix:)`, `mediaSegmentPrefix:`):
/// a prefix gives an answer only once it settles the whole segment's, and then exactly that one.
@Suite struct FirstPTSPrefixTests {
    @Test func everyPrefixOfATransportStreamSegmentGivesTheWholeAnswerOrNone() throws {
        let bytes = try fixture("vod-ts/v0/seg000.ts")
        let whole = try MPEGTSReader.firstPTS(bytes)
        var firstSettled: Int?
        for length in 0...min(bytes.count, 188 * 50) {
            guard let answer = MPEGTSReader.firstPTS(ofPrefix: Array(bytes.prefix(length))) else { continue }
            #expect(answer == whole, "prefix of \(length) bytes")
            firstSettled = firstSettled ?? length
        }
        // The first audio PES is in packet 45 (0-based), after 42 packets of video: before it, a prefix
        // read as a whole segment would say 128,090 (the video's start), so it must say nothing.
        #expect(firstSettled == 188 * 46)
        #expect(MPEGTSReader.firstPTS(ofPrefix: Array(bytes.prefix(188 * 40))) == nil)
        #expect(try MPEGTSReader.firstPTS(Array(bytes.prefix(188 * 40))) == 128_090)
        #expect(MPEGTSReader.firstPTS(ofPrefix: bytes) == whole)
    }

    @Test func everyPrefixOfADamagedSegmentGivesTheWholeAnswerOrNone() throws {
        let bytes = try fixture("vod-ts/v0/seg000.ts")
        // A sync byte at 0 whose next packet does not start with one, then a lost packet's garbage.
        var damaged: [UInt8] = [0x47, 0x00, 0x13, 0x47] + Array(bytes.prefix(188 * 3))
        damaged += Array(repeating: 0x00, count: 100) + Array(bytes.dropFirst(188 * 3))
        let whole = try MPEGTSReader.firstPTS(damaged)
        #expect(whole == 126_000)
        var settled = 0
        for length in 0...min(damaged.count, 188 * 50) {
            guard let answer = MPEGTSReader.firstPTS(ofPrefix: Array(damaged.prefix(length))) else { continue }
            #expect(answer == whole, "prefix of \(length) bytes")
            settled += 1
        }
        #expect(settled > 0)
    }

    @Test func aStreamWithoutProgramTablesOrNotTransportStreamIsNeverSettledByAPrefix() {
        let pes: [UInt8] = [0x00, 0x00, 0x01, 0xE0, 0x00, 0x00, 0x80, 0x80, 0x05, 0x21, 0x00, 0x01, 0x27, 0x11]
        var packet: [UInt8] = [0x47, 0x40, 0x44, 0x10] + pes
        packet += Array(repeating: 0xFF, count: 188 - packet.count)
        // Without a PMT every stream is not known, so only the whole segment says which came first.
        #expect(MPEGTSReader.firstPTS(ofPrefix: packet + packet) == nil)
        #expect((try? MPEGTSReader.firstPTS(packet + packet)) != nil)
        #expect(MPEGTSReader.firstPTS(ofPrefix: Array("not a transport stream".utf8)) == nil)
    }

    @Test func everyPrefixOfAFragmentedMP4SegmentGivesTheWholeAnswerOrNone() throws {
        let initSegment = try fixture("vod-fmp4/init.mp4")
        for name in ["seg000", "seg001"] {
            let segment = try fixture("vod-fmp4/\(name).m4s")
            let whole = try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: segment)
            var firstSettled: Int?
            for length in stride(from: 0, through: min(segment.count, 8192), by: 3) {
                let prefix = Array(segment.prefix(length))
                guard let answer = try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegmentPrefix: prefix) else { continue }
                #expect(answer == whole, "\(name), prefix of \(length) bytes")
                firstSettled = firstSettled ?? length
            }
            let settled = try #require(firstSettled, "\(name): the first moof settles it")
            #expect(settled < 4096)
        }
    }

    @Test func anInitTrackMissingFromTheFragmentsLeavesAPrefixUnsettled() throws {
        // The fixture's init has tracks 1 and 2; this segment has track 1 alone.
        let initSegment = try fixture("vod-fmp4/init.mp4")
        let media = MP4Fixture.mediaSegment(trackID: 1, baseMediaDecodeTime: 12_800)
        #expect(try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegmentPrefix: media) == nil)
        #expect(try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: media) == 90_000)
        #expect(throws: MediaError.missingBox(type: "moov")) {
            try FragmentedMP4Reader.firstPTS(initSegment: [], mediaSegmentPrefix: media)
        }
    }

    @Test func aMoofReachingThePrefixsEndIsNotReadFromIt() throws {
        // A size-0 moof runs to the end of the segment: in a prefix, to wherever the bytes stop. Here
        // the whole segment's moof holds a box claiming more bytes than there are, so it answers
        // nothing; no prefix may answer 9000 from the traf before it.
        let initSegment = MP4Fixture.initSegment(trackID: 1, timescale: 90_000)
        let traf = MP4Fixture.box("traf", MP4Fixture.box("tfhd", [0, 0, 0, 0] + MP4Fixture.be32(1))
            + MP4Fixture.box("tfdt", [0, 0, 0, 0] + MP4Fixture.be32(9000)))
        let media = [0, 0, 0, 0] + Array("moof".utf8) + traf + [0xFF, 0xFF, 0xFF, 0xF0] + Array("junk".utf8)
        #expect(throws: MediaError.self) { try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: media) }
        for length in 0...media.count {
            #expect(try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegmentPrefix: Array(media.prefix(length))) == nil,
                    "prefix of \(length) bytes")
        }
        // A moof with its size written, followed by anything, settles it.
        let sized = MP4Fixture.box("moof", traf) + [0, 0]
        #expect(try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegmentPrefix: sized) == 9000)
    }

    @Test func theWholeReadingStopsOnceEveryTrackHasItsFirstTime() throws {
        // A later moof whose traf has no tfhd is never read: every track started in the first one.
        let initSegment = try fixture("vod-fmp4/init.mp4")
        let broken = MP4Fixture.box("moof", MP4Fixture.box("traf", []))
        let segment = try fixture("vod-fmp4/seg000.m4s") + broken
        #expect(try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: segment) == 0)
        #expect(throws: MediaError.missingBox(type: "tfhd")) {
            try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: broken)
        }
    }
}
