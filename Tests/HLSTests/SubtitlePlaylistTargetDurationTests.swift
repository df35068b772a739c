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
