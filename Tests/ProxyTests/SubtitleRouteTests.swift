import Foundation
import TestSupport
import Testing

/// Synthesized subtitle playlists and WebVTT files, reached the way a player reaches them.
@Suite struct SubtitleRouteTests {
    /// The URI the rewritten master gives a track.
    static func trackURI(_ proxy: ProxyHarness, master: String, language: String) async throws -> String {
        let text = try await proxy.get(master).text
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA:") && $0.contains("LANGUAGE=\"\(language)\"") })
        let start = try #require(line.range(of: "URI=\""))
        return String(line[start.upperBound...].prefix { $0 != "\"" })
    }

    static func sibling(_ uri: String, _ leaf: String) -> String {
        String(uri.prefix(upTo: uri.lastIndex(of: "/") ?? uri.endIndex)) + "/" + leaf
    }

    static func timingLines(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.contains("-->") }.map(String.init)
    }

    @Test func segmentedPlaylistFollowsTheVideoSegments() async throws {
        try await withProxy { proxy in
            let uri = try await Self.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "en")
            let playlist = try await proxy.get(uri)
            #expect(playlist.status == 200)
            #expect(playlist.header("Content-Type") == "application/vnd.apple.mpegurl")
            let lines = playlist.text.split(separator: "\n").map(String.init)
            #expect(lines.first == "#EXTM3U")
            #expect(lines.contains("#EXT-X-TARGETDURATION:4"))
            #expect(lines.contains("#EXT-X-PLAYLIST-TYPE:VOD"))
            #expect(lines.last == "#EXT-X-ENDLIST")
            // The video's three 4-second segments (Tests/Fixtures/vod-ts/v0/index.m3u8).
            let extinf = lines.filter { $0.hasPrefix("#EXTINF:") }
            #expect(extinf.count == 3)
            #expect(extinf.allSatisfy { $0.hasPrefix("#EXTINF:4") && $0.hasSuffix(",") })
            #expect(lines.filter { !$0.hasPrefix("#") } == ["0.vtt", "1.vtt", "2.vtt"])
        }
    }

    @Test func subtitleSegmentsCarryTheVideoTimestampMapAndStraddlingCues() async throws {
        try await withProxy { proxy in
            let uri = try await Self.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "en")
            let first = try await proxy.get(Self.sibling(uri, "0.vtt"))
            #expect(first.status == 200)
            #expect(first.header("Content-Type") == "text/vtt; charset=utf-8")
            #expect(first.header("X-HLS-Proxy-Route") == "subtitle")
            #expect(first.text.hasPrefix("WEBVTT"))
            // ffprobe reports start_pts 126000 (audio) and 128090 (video) for vod-ts/v0/seg000.ts.
            #expect(first.text.contains("X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000"))
            #expect(first.text.hasSuffix("\n\n"))
            let firstTimes = Self.timingLines(first.text)
            #expect(firstTimes.first == "00:00:00.500 --> 00:00:02.500")
            // 3.000-5.750 straddles the 4 s boundary: it is in both segments, with its full times.
            #expect(firstTimes.contains { $0.hasPrefix("00:00:03.000 --> 00:00:05.750") })
            let second = try await proxy.get(Self.sibling(uri, "1.vtt"))
            #expect(Self.timingLines(second.text).contains { $0.hasPrefix("00:00:03.000 --> 00:00:05.750") })
            #expect(!Self.timingLines(second.text).contains { $0.hasPrefix("00:00:00.500") })
            let third = try await proxy.get(Self.sibling(uri, "2.vtt"))
            #expect(Self.timingLines(third.text).contains { $0.hasPrefix("00:00:08.500 --> 00:00:11.900") })
            let missing = try await proxy.get(Self.sibling(uri, "3.vtt"))
            #expect(missing.status == 404)
        }
    }

    @Test func trackOffsetShiftsEveryCue() async throws {
        try await withProxy { proxy in
            let uri = try await Self.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "fr")
            let first = try await proxy.get(Self.sibling(uri, "0.vtt"))
            // fr.vtt's first cue is 00:00:00.500 --> 00:00:02.500; the config adds 1.5 s.
            #expect(Self.timingLines(first.text).first == "00:00:02.000 --> 00:00:04.000")
        }
    }

    @Test func singleModeServesTheWholeConvertedSRT() async throws {
        try await withProxy { proxy in
            let uri = try await Self.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "es")
            let playlist = try await proxy.get(uri)
            let lines = playlist.text.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("#EXTINF:") } == ["#EXTINF:12,"] || lines.filter { $0.hasPrefix("#EXTINF:") } == ["#EXTINF:12.000,"])
            #expect(lines.contains("#EXT-X-TARGETDURATION:12"))
            #expect(lines.filter { !$0.hasPrefix("#") } == ["0.vtt"])
            let file = try await proxy.get(Self.sibling(uri, "0.vtt"))
            #expect(file.status == 200)
            #expect(Self.timingLines(file.text) == [
                "00:00:00.500 --> 00:00:02.500", "00:00:03.000 --> 00:00:05.750",
                "00:00:06.000 --> 00:00:08.000", "00:00:08.500 --> 00:00:11.900",
            ])
            #expect(file.text.contains("Un patrón de prueba aparece."))
            #expect(file.text.contains("X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000"))
            let beyond = try await proxy.get(Self.sibling(uri, "1.vtt"))
            #expect(beyond.status == 404)
        }
    }

    @Test func fragmentedMP4VideoGivesItsTfdtAsTheTimestampMap() async throws {
        try await withProxy { proxy in
            let uri = try await Self.trackURI(proxy, master: "/origin/vod-fmp4/master.m3u8", language: "en")
            let first = try await proxy.get(Self.sibling(uri, "0.vtt"))
            // ffprobe: audio start_pts 0 (1/44100), video start_pts 294 (1/12800, after the edit list);
            // the earliest tfdt over both tracks is 0.
            #expect(first.text.contains("X-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000"))
        }
    }

    @Test(arguments: [
        ("missing", FixtureOrigin.Fault.status(404)),
        ("broken", FixtureOrigin.Fault.body([0x00, 0xFF, 0x13, 0x37], contentType: "text/vtt")),
        ("empty", FixtureOrigin.Fault.body([], contentType: "text/vtt")),
        ("missing", FixtureOrigin.Fault.status(500)),
    ])
    func unusableSidecarsBecomeAnEmptyTrackWithAWarning(reason: String, fault: FixtureOrigin.Fault) async throws {
        try await withProxy { proxy in
            proxy.origin.setFault("/subtitles/en.vtt", fault)
            let uri = try await Self.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "en")
            let playlist = try await proxy.get(uri)
            #expect(playlist.status == 200)
            let file = try await proxy.get(Self.sibling(uri, "0.vtt"))
            #expect(file.status == 200)
            #expect(file.text.hasPrefix("WEBVTT"))
            #expect(Self.timingLines(file.text).isEmpty)
            #expect(file.text.contains("X-TIMESTAMP-MAP=MPEGTS:126000"))
            #expect(proxy.logLines.contains { $0.contains("subtitle source unusable") && $0.contains("\"reason\":\"\(reason)\"") })
            let metrics = try await proxy.get("/metrics")
            #expect(metrics.text.contains("hls_proxy_subtitle_fallbacks_total{reason=\"\(reason)\"} 1"))
        }
    }

    @Test func variantsOnHostsTheOperatorDidNotNameAreNeverFetched() async throws {
        let elsewhere = try FixtureOrigin()
        let config = """
            { "mounts": { "o": { "origin": "ORIGIN" } },
              "subtitles": [ { "name": "s", "masters": ["/o/foreign/master.m3u8"],
                               "tracks": [ { "name": "English", "language": "en", "source": "/subtitles/en.vtt" } ] } ] }
            """
        try await withProxy(config) { proxy in
            let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n\(elsewhere.baseURL)/vod-ts/v0/index.m3u8\n"
            proxy.origin.setFault("/foreign/master.m3u8", .body(Array(master.utf8), contentType: "application/vnd.apple.mpegurl"))
            let uri = try await Self.trackURI(proxy, master: "/o/foreign/master.m3u8", language: "en")
            let playlist = try await proxy.get(uri)
            #expect(playlist.status == 200)
            // No video timeline from the other origin: fixed 6 s windows over the cues (last ends at 11.9 s).
            let extinf = playlist.text.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }
            #expect(extinf == ["#EXTINF:6,", "#EXTINF:5.9,"], "\(playlist.text)")
            #expect(elsewhere.hits("/vod-ts/v0/index.m3u8") == 0)
        }
        await elsewhere.stop()
    }

    @Test func unknownSetOrTrackIs404() async throws {
        try await withProxy { proxy in
            let uri = try await Self.trackURI(proxy, master: "/origin/vod-ts/master.m3u8", language: "en")
            let wrongTrack = uri.replacingOccurrences(of: "/vod/en/", with: "/vod/xx/")
            #expect(try await proxy.get(wrongTrack).status == 404)
            let wrongSet = uri.replacingOccurrences(of: "/vod/en/", with: "/nope/en/")
            #expect(try await proxy.get(wrongSet).status == 404)
            #expect(try await proxy.get("/_hls-proxy/v1/vod/en/!!!/index.m3u8").status == 404)
            #expect(try await proxy.get("/_hls-proxy/whatever").status == 404)
        }
    }
}
