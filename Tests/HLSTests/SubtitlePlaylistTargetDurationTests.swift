import Testing
@testable import HLS

/// EXT-X-TARGETDURATION of synthesized subtitle playlists: a growing one (EVENT, live) writes the
/// video's exactly, so it never changes as segments are added (RFC 8216 §6.2.1); a finished one keeps
/// the ceiling of its longest EXTINF, which is valid (§4.3.3.1: EXTINF rounded to nearest <= target).
@Suite struct SubtitlePlaylistTargetDurationTests {
    static func target(_ bytes: [UInt8]) -> String? {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("#EXT-X-TARGETDURATION:") }.map(String.init)
    }

    @Test func aGrowingPlaylistKeepsTheVideosTargetAsSegmentsRoundingDownToItArrive() {
        let growing = SubtitlePlaylistShape(playlistType: "EVENT", ended: false, minimumTargetDuration: 4)
        for durations in [[4.0], [4.0, 4.4], [4.0, 4.4, 4.499], [3.2]] {
            let playlist = SubtitlePlaylistBuilder.segmented(durations: durations, uri: { "\($0).vtt" }, shape: growing)
            #expect(Self.target(playlist) == "#EXT-X-TARGETDURATION:4", "\(durations)")
        }
    }

    @Test func aGrowingPlaylistWhoseVideoBreaksItsOwnTargetGetsTheLeastValidOne() {
        let growing = SubtitlePlaylistShape(playlistType: nil, ended: false, minimumTargetDuration: 4)
        let playlist = SubtitlePlaylistBuilder.segmented(durations: [4.0, 6.5], uri: { "\($0).vtt" }, shape: growing)
        #expect(Self.target(playlist) == "#EXT-X-TARGETDURATION:7")
    }

    @Test func aFinishedPlaylistKeepsTheCeilingOfItsLongestSegment() {
        let playlist = SubtitlePlaylistBuilder.segmented(durations: [4.0, 4.4], uri: { "\($0).vtt" }, shape: SubtitlePlaylistShape())
        #expect(Self.target(playlist) == "#EXT-X-TARGETDURATION:5")
    }
}

/// Epoch-mode maps are exact in ticks: cue time t maps to E + (t − L) × 90 whatever part millisecond
/// the segment's PTS has past the epoch (docs/requests.md "Live windows").
@Suite struct LiveSegmentEpochTicksTests {
    @Test func theStartOfAnEpochSegmentMapsToTheExactTickOfItsWholeMillisecond() {
        let epoch = TimestampMap(mpegts: 1_000_000, local: 2_000)
        for extra: Int64 in [0, 1, 45, 89, 90, 179] {
            let pts = 1_000_000 + 360_000 + extra
            let window = LiveSegmentTiming.onEpoch(epoch, pts: pts, duration: 4)
            let ticks = LiveSegmentTiming.epochStartTicks(epoch, pts: pts)
            #expect(ticks == epoch.mpegts + (window.start - epoch.local) * 90, "\(extra)")
            #expect(pts - ticks == extra % 90)
        }
    }

    @Test func beforeCueTimeZeroTheMapPutsCueTimeZeroAtTheEpochLessItsLocalInTicks() {
        let modulus: Int64 = 1 << 33
        let epoch = TimestampMap(mpegts: 50, local: 1_000)
        // 5 s and 37 ticks before the epoch: cue time -4000 ms (rounded toward the epoch).
        let pts = (50 - 450_037 + modulus) % modulus
        let window = LiveSegmentTiming.onEpoch(epoch, pts: pts, duration: 4)
        let map = LiveSegmentTiming.map(pts: LiveSegmentTiming.epochStartTicks(epoch, pts: pts), local: window.start)
        #expect(map == TimestampMap(mpegts: (50 - 1_000 * 90 + modulus) % modulus, local: 0))
    }
}
