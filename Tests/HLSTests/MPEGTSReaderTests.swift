import Foundation
@testable import HLS
import TestSupport
import Testing

/// A 188-byte packet: header, optional adaptation-field stuffing, payload padded with 0xFF.
private func packet(pid: Int, payloadUnitStart: Bool = true, payload: [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = [0x47, UInt8(pid >> 8 & 0x1F) | (payloadUnitStart ? 0x40 : 0), UInt8(pid & 0xFF), 0x10]
    bytes += payload
    bytes += Array(repeating: 0xFF, count: max(188 - bytes.count, 0))
    return Array(bytes.prefix(188))
}

/// A PES header with a PTS (ISO/IEC 13818-1 §2.4.3.7 layout).
private func pes(streamID: UInt8, pts: Int64) -> [UInt8] {
    [0x00, 0x00, 0x01, streamID, 0x00, 0x00, 0x80, 0x80, 0x05,
     UInt8(0x21 | (pts >> 29 & 0x0E)), UInt8(pts >> 22 & 0xFF), UInt8(pts >> 14 & 0xFE | 1),
     UInt8(pts >> 7 & 0xFF), UInt8(pts << 1 & 0xFE | 1)]
}

private let pat = packet(pid: 0, payload: [0x00, 0x00, 0xB0, 0x0D, 0x00, 0x01, 0xC1, 0x00, 0x00, 0x00, 0x01, 0xF0, 0x00, 0, 0, 0, 0])
// PMT on PID 0x1000: H.264 on 0x100, AAC on 0x101, ID3 metadata (0x15) on 0x102.
private let pmt = packet(pid: 0x1000, payload: [0x00, 0x02, 0xB0, 0x1C, 0x00, 0x01, 0xC1, 0x00, 0x00, 0xE1, 0x00, 0xF0, 0x00,
                                                0x1B, 0xE1, 0x00, 0xF0, 0x00, 0x0F, 0xE1, 0x01, 0xF0, 0x00,
                                                0x15, 0xE1, 0x02, 0xF0, 0x00, 0, 0, 0, 0])

@Suite struct MPEGTSReaderTests {
    @Test func firstPTSOfTheSampleSegmentIsTheAudioStart() throws {
        // `ffprobe -show_entries stream=codec_type,start_pts vod-ts/v0/seg000.ts`:
        // video start_pts=128090, audio start_pts=126000 (ffmpeg's usual 1.4 s offset); the earliest is audio.
        #expect(try MPEGTSReader.firstPTS(try fixture("vod-ts/v0/seg000.ts")) == 126_000)
    }

    @Test func laterSegmentsGiveLaterTimes() throws {
        let first = try MPEGTSReader.firstPTS(try fixture("vod-ts/v0/seg000.ts"))
        let second = try MPEGTSReader.firstPTS(try fixture("vod-ts/v0/seg001.ts"))
        #expect(second > first)
    }

    @Test func aPrefixOfTheSegmentIsEnoughOnceEveryStreamHasStarted() throws {
        // In seg000.ts the first audio PES starts in packet 45 (0-based), after 42 packets of video.
        let bytes = try fixture("vod-ts/v0/seg000.ts")
        #expect(try MPEGTSReader.firstPTS(Array(bytes.prefix(188 * 46 + 17))) == 126_000)
        #expect(try MPEGTSReader.firstPTS(Array(bytes.prefix(188 * 40))) == 128_090)
    }

    @Test func leadingGarbageAndALostPacketAreResynced() throws {
        let bytes = try fixture("vod-ts/v0/seg000.ts")
        var damaged: [UInt8] = [0x47, 0x00, 0x13, 0x47] + Array(bytes.prefix(188 * 3))
        damaged += Array(repeating: 0x00, count: 100) + Array(bytes.dropFirst(188 * 3))
        #expect(try MPEGTSReader.firstPTS(damaged) == 126_000)
    }

    /// A prefix must not take a sync byte whose next packet it does not hold: here the packet at 565
    /// looks like audio (PTS 500), but one byte past it is no sync, so the whole reading skips it and
    /// takes the real audio at 754 (PTS 2000). A prefix of 753 bytes cannot tell the two apart.
    @Test func aPrefixNeverTakesASyncWhoseNextPacketItDoesNotHold() throws {
        let video = packet(pid: 0x100, payload: pes(streamID: 0xE0, pts: 1000))
        let bytes = pat + pmt + video + [0x00] + packet(pid: 0x101, payload: pes(streamID: 0xC0, pts: 500)) + [0x00]
            + packet(pid: 0x101, payload: pes(streamID: 0xC0, pts: 2000)) + packet(pid: 0x100, payload: pes(streamID: 0xE0, pts: 4000))
        #expect(try MPEGTSReader.firstPTS(bytes) == 1000)
        #expect(try MPEGTSReader.firstPTS(Array(bytes.prefix(753))) == 500, "read as a whole, the 753 bytes end in that packet")
        for length in 0...bytes.count {
            let answer = MPEGTSReader.firstPTS(ofPrefix: Array(bytes.prefix(length)))
            #expect(answer == nil || answer == 1000, "prefix of \(length) bytes")
        }
        #expect(MPEGTSReader.firstPTS(ofPrefix: Array(bytes.prefix(753))) == nil)
        #expect(MPEGTSReader.firstPTS(ofPrefix: bytes) == 1000)
    }

    @Test func metadataStreamsDoNotCountAndTheEarliestAudioOrVideoWins() throws {
        let bytes = pat + pmt + packet(pid: 0x102, payload: pes(streamID: 0xBD, pts: 10))
            + packet(pid: 0x100, payload: pes(streamID: 0xE0, pts: 900_000))
            + packet(pid: 0x101, payload: pes(streamID: 0xC0, pts: 897_000))
        #expect(try MPEGTSReader.firstPTS(bytes) == 897_000)
    }

    @Test func thirtyThreeBitWrapBetweenStreamsPicksTheStreamBeforeTheWrap() throws {
        let nearWrap: Int64 = (1 << 33) - 1000
        let bytes = pat + pmt + packet(pid: 0x100, payload: pes(streamID: 0xE0, pts: 2000))
            + packet(pid: 0x101, payload: pes(streamID: 0xC0, pts: nearWrap))
        #expect(try MPEGTSReader.firstPTS(bytes) == nearWrap)
    }

    @Test func withoutProgramTablesAudioAndVideoStreamIDsAreUsed() throws {
        let bytes = packet(pid: 0x44, payload: pes(streamID: 0xE0, pts: 5000)) + packet(pid: 0x45, payload: pes(streamID: 0xC0, pts: 4000))
        #expect(try MPEGTSReader.firstPTS(bytes) == 4000)
    }

    @Test func inputsWithoutPacketsOrTimestampsAreTypedErrors() {
        #expect(throws: MediaError.notTransportStream) { try MPEGTSReader.firstPTS([]) }
        #expect(throws: MediaError.notTransportStream) { try MPEGTSReader.firstPTS(Array("WEBVTT\n\n".utf8)) }
        #expect(throws: MediaError.noTimestamp) { try MPEGTSReader.firstPTS(pat + pmt) }
    }
}
