import Foundation
import HLS
import Testing
import TestSupport
@testable import Proxy

/// A live event that grows (`#EXT-X-PLAYLIST-TYPE:EVENT`, no ENDLIST yet): the subtitle playlist follows
/// the video's as it grows, with the same segments so far and no ENDLIST until the video has one, kept
/// no longer than the master TTL. A live playlist with neither type nor ENDLIST is served the same way
/// without the type line (its sliding is covered by LiveWindowRouteTests). VOD playlists are unchanged.
@Suite struct EventPlaylistRouteTests {
    static let variant = "/vod-ts/v0/index.m3u8"
    static func config(masterTTL: Double) -> String {
        """
        {
          "mounts": { "origin": { "origin": "ORIGIN" } },
          "subtitles": [
            { "name": "live", "masters": ["/origin/vod-ts/master.m3u8"],
              "tracks": [
                { "id": "en", "name": "English", "language": "en", "source": "/subtitles/en.vtt", "mode": "segmented" },
                { "id": "one", "name": "Single", "language": "fr", "source": "/subtitles/en.vtt", "mode": "single" }
              ] }
          ],
          "cache": { "master_ttl_seconds": \(masterTTL), "subtitle_ttl_seconds": 300 }
        }
        """
    }

    static func path(_ resource: SubtitleURL.Resource, track: String = "en") -> String {
        SubtitleURL(setName: "live", trackID: track, masterTarget: "/origin/vod-ts/master.m3u8", resource: resource).path
    }

    /// The fixture's variant playlist cut to its first `count` segments, with `type` and ENDLIST or not.
    static func videoPlaylist(segments count: Int, type: String? = "EVENT", ended: Bool = false) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n"
        if let type { text += "#EXT-X-PLAYLIST-TYPE:\(type)\n" }
        for index in 0..<count { text += "#EXTINF:4.000000,\nseg00\(index).ts\n" }
        if ended { text += "#EXT-X-ENDLIST\n" }
        return Array(text.utf8)
    }

    static func serve(_ proxy: ProxyHarness, _ bytes: [UInt8]) {
        proxy.origin.setFault(variant, .body(bytes, contentType: "application/vnd.apple.mpegurl"))
    }

    static func segmentCount(_ text: String) -> Int {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
    }

    /// The subtitle playlist once `condition` holds: asked again until the proxy's master TTL lets the
    /// new video playlist through (a wait for that state, no timing asserted).
    static func playlist(_ proxy: ProxyHarness, until condition: (String) -> Bool) async throws -> String {
        var text = ""
        try await eventually("the subtitle playlist reached the state waited for; last:\n\(text)") {
            text = try await proxy.get(path(.playlist)).text
            return condition(text)
        }
        return text
    }

    @Test func theSubtitlePlaylistOfAnEventGrowsWithTheVideoAndEndsWhenItDoes() async throws {
        try await withProxy(Self.config(masterTTL: 0.2)) { proxy in
            Self.serve(proxy, Self.videoPlaylist(segments: 1))
            let first = try await proxy.get(Self.path(.playlist))
            #expect(first.text.contains("#EXT-X-PLAYLIST-TYPE:EVENT\n"))
            #expect(Self.segmentCount(first.text) == 1)
            #expect(!first.text.contains("#EXT-X-ENDLIST"))
            #expect(HardeningSubtitleSourceTests.maxAge(first) == 0, "no longer than the master TTL (0.2 s, whole seconds down)")

            Self.serve(proxy, Self.videoPlaylist(segments: 2))
            let grown = try await Self.playlist(proxy) { Self.segmentCount($0) == 2 }
            #expect(Self.segmentCount(grown) == 2)
            #expect(!grown.contains("#EXT-X-ENDLIST"), "no ENDLIST until the video has one")
            #expect(try await proxy.get(Self.path(.segment(1))).status == 200, "the new segment is served")

            Self.serve(proxy, Self.videoPlaylist(segments: 3, ended: true))
            let ended = try await Self.playlist(proxy) { $0.contains("#EXT-X-ENDLIST") }
            #expect(Self.segmentCount(ended) == 3)
            #expect(ended.contains("#EXT-X-ENDLIST\n"))
            #expect(ended.contains("#EXT-X-PLAYLIST-TYPE:EVENT\n"))
        }
    }

    @Test func theLastSegmentOfAGrowingPlaylistHoldsOnlyTheCuesOfItsOwnWindow() async throws {
        try await withProxy(Self.config(masterTTL: 0.2)) { proxy in
            Self.serve(proxy, Self.videoPlaylist(segments: 1))
            let file = try await proxy.get(Self.path(.segment(0)))
            #expect(file.text.contains("00:00:03.000 --> 00:00:05.750"), "a cue that starts in the window")
            #expect(!file.text.contains("00:00:08.500"), "cues after the last segment wait for theirs")
            #expect(try await proxy.get(Self.path(.segment(1))).status == 404, "not in the video's playlist yet")
        }
    }

    @Test func aGrowingSubtitlePlaylistKeepsTheVideosTargetDurationAsItGrows() async throws {
        try await withProxy(Self.config(masterTTL: 0.2)) { proxy in
            // Segments shorter than the target: the subtitle playlist's target is still the video's, and
            // it does not change when a longer segment arrives (RFC 8216 §6.2.1).
            func video(_ durations: [String], ended: Bool = false) -> [UInt8] {
                var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:EVENT\n"
                for (index, duration) in durations.enumerated() { text += "#EXTINF:\(duration),\nseg00\(index).ts\n" }
                if ended { text += "#EXT-X-ENDLIST\n" }
                return Array(text.utf8)
            }
            Self.serve(proxy, video(["2.000", "2.000"]))
            let first = try await proxy.get(Self.path(.playlist)).text
            #expect(first.contains("#EXT-X-TARGETDURATION:6\n"))
            Self.serve(proxy, video(["2.000", "2.000", "5.500"], ended: true))
            let ended = try await Self.playlist(proxy) { $0.contains("#EXT-X-ENDLIST") }
            #expect(ended.contains("#EXT-X-TARGETDURATION:6\n"))
        }
    }

    @Test func aSubtitlePlaylistMadeWhileTheVideoGrowsIsKeptNoLongerThanTheMasterTTL() async throws {
        try await withProxy(Self.config(masterTTL: 2)) { proxy in
            Self.serve(proxy, Self.videoPlaylist(segments: 1))
            let growing = try await proxy.get(Self.path(.playlist))
            #expect(HardeningSubtitleSourceTests.maxAge(growing) == 2)
        }
    }

    @Test func aLivePlaylistWithoutTypeIsServedWithoutTheTypeLineAndKeepsNoPerProcessClock() async throws {
        try await withProxy(Self.config(masterTTL: 0.2)) { proxy in
            Self.serve(proxy, Self.videoPlaylist(segments: 2, type: nil))
            let playlist = try await proxy.get(Self.path(.playlist))
            #expect(!playlist.text.contains("PLAYLIST-TYPE"))
            #expect(!playlist.text.contains("#EXT-X-ENDLIST"))
            #expect(Self.segmentCount(playlist.text) == 2)
            #expect(!proxy.logLines.contains { $0.contains("subtitle timeline") })
        }
    }

    @Test func aSingleModeTrackOnAGrowingPlaylistIsServedSegmented() async throws {
        try await withProxy(Self.config(masterTTL: 0.2)) { proxy in
            Self.serve(proxy, Self.videoPlaylist(segments: 2))
            let playlist = try await proxy.get(Self.path(.playlist, track: "one"))
            #expect(Self.segmentCount(playlist.text) == 2)
            #expect(!playlist.text.contains("#EXT-X-ENDLIST"))
            #expect(try await proxy.get(Self.path(.segment(1), track: "one")).status == 200)
            #expect(proxy.logLines.contains { $0.contains("single-mode subtitle track served segmented") })
        }
    }

    @Test func aVODPlaylistIsServedAsBefore() async throws {
        try await withProxy(Self.config(masterTTL: 0.2)) { proxy in
            let playlist = try await proxy.get(Self.path(.playlist))
            #expect(playlist.text == String(decoding: SubtitlePlaylistBuilder.segmented(durations: [4, 4, 4], uri: { "\($0).vtt" }), as: UTF8.self))
            #expect(HardeningSubtitleSourceTests.maxAge(playlist) == 300)
            let single = try await proxy.get(Self.path(.playlist, track: "one"))
            #expect(Self.segmentCount(single.text) == 1)
            #expect(!proxy.logLines.contains { $0.contains("served segmented") })
        }
    }
}
