import Foundation
import HLS
import TestSupport
import Testing

/// `wrap_media_playlists`: a media playlist where a master was expected is served inside a synthesized
/// one-variant master with the set's subtitles; its variant URI (`_hls_proxy=media`) serves the playlist.
@Suite struct WrapMediaPlaylistRouteTests {
    static let config = """
        {
          "mounts": {
            "origin": { "origin": "ORIGIN" },
            "files": { "origin": "FIXTURES" },
            "sample": { "origin": "\(RealPlayerTests.repositoryRoot)/Examples/sample-vod" }
          },
          "subtitles": [
            { "name": "wrap", "masters": ["/origin/vod-ts/*.m3u8", "/origin/wrap/*.m3u8"], "wrap_media_playlists": true,
              "wrap_bandwidth": 750000,
              "tracks": [{ "id": "en", "name": "English", "language": "en", "default": true, "source": "/subtitles/en.vtt" }] },
            { "name": "sample", "masters": ["/sample/v0/index.m3u8"], "wrap_media_playlists": true,
              "tracks": [{ "id": "en", "name": "English", "language": "en", "default": true, "source": "/subs/en.vtt" }] },
            { "name": "plain", "masters": ["/files/vod-ts/v0/index.m3u8"],
              "tracks": [{ "id": "en", "name": "English", "language": "en", "source": "/subtitles/en.vtt" }] }
          ]
        }
        """

    /// The proxy path of a track's subtitle playlist for the master the player asked for.
    static func subtitlePlaylist(set: String, master: String) -> String {
        let encoded = Data(master.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "/_hls-proxy/v1/\(set)/en/\(encoded)/index.m3u8"
    }

    /// The wrapped master's lines, exactly.
    static func wrappedLines(set: String = "wrap", master: String, bandwidth: Int, variant: String) -> [String] {
        [
            "#EXTM3U",
            #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="\#(subtitlePlaylist(set: set, master: master))""#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=\#(bandwidth),SUBTITLES="subs""#,
            variant,
            "",
        ]
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func playlist(_ text: String) -> FixtureOrigin.Fault {
        .body(Array(text.utf8), contentType: "application/vnd.apple.mpegurl")
    }

    @Test func mediaPlaylistOnAnHTTPMountIsWrappedWithBandwidthMeasuredFromTheLargestOfTheFirstSegments() async throws {
        try await withProxy(Self.config) { proxy in
            let response = try await proxy.get("/origin/vod-ts/v0/index.m3u8")
            #expect(response.status == 200)
            #expect(response.header("X-HLS-Proxy-Route") == "master")
            #expect(response.header("Content-Type") == "application/vnd.apple.mpegurl")
            // seg001.ts is the largest of the three: 108664 bytes in 4 s.
            #expect(Self.lines(response.text) == Self.wrappedLines(
                master: "/origin/vod-ts/v0/index.m3u8", bandwidth: 108_664 * 8 / 4, variant: "index.m3u8?_hls_proxy=media"))
            #expect(proxy.logLines.contains { $0.contains(#""msg":"wrapped media playlist""#) && $0.contains(#""bandwidth_source":"measured segment sizes""#) })
        }
    }

    @Test func bandwidthComesFromTheLargestEXTXBITRATEInKilobitsWhenThePlaylistHasOne() async throws {
        try await withProxy(Self.config) { proxy in
            proxy.origin.setFault("/wrap/bitrate.m3u8", Self.playlist("""
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-BITRATE:800
                #EXTINF:4.0,
                ../vod-ts/v0/seg000.ts
                #EXT-X-BITRATE:1200
                #EXTINF:4.0,
                ../vod-ts/v0/seg001.ts
                #EXT-X-BITRATE:12x
                #EXTINF:4.0,
                ../vod-ts/v0/seg002.ts
                #EXT-X-ENDLIST

                """))
            let response = try await proxy.get("/origin/wrap/bitrate.m3u8")
            #expect(Self.lines(response.text) == Self.wrappedLines(
                master: "/origin/wrap/bitrate.m3u8", bandwidth: 1_200_000, variant: "bitrate.m3u8?_hls_proxy=media"))
            #expect(proxy.origin.hits("/vod-ts/v0/seg000.ts") == 0)
        }
    }

    @Test func byteRangeLengthsAreMeasuredWithoutAskingTheOrigin() async throws {
        try await withProxy(Self.config) { proxy in
            proxy.origin.setFault("/wrap/ranges.m3u8", Self.playlist("""
                #EXTM3U
                #EXT-X-TARGETDURATION:2
                #EXT-X-VERSION:4
                #EXTINF:2.0,
                #EXT-X-BYTERANGE:50000@0
                ../vod-ts/v0/seg000.ts
                #EXTINF:2.0,
                #EXT-X-BYTERANGE:49828
                ../vod-ts/v0/seg000.ts
                #EXT-X-ENDLIST

                """))
            let response = try await proxy.get("/origin/wrap/ranges.m3u8")
            #expect(Self.lines(response.text) == Self.wrappedLines(
                master: "/origin/wrap/ranges.m3u8", bandwidth: 200_000, variant: "ranges.m3u8?_hls_proxy=media"))
            #expect(proxy.origin.hits("/vod-ts/v0/seg000.ts") == 0)
        }
    }

    @Test func bandwidthIsTheConfiguredValueWhenNoSegmentCanBeMeasured() async throws {
        try await withProxy(Self.config) { proxy in
            proxy.origin.setFault("/wrap/missing.m3u8", Self.playlist("""
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXTINF:4.0,
                gone0.ts
                #EXTINF:0,
                gone1.ts
                #EXT-X-ENDLIST

                """))
            let response = try await proxy.get("/origin/wrap/missing.m3u8")
            #expect(Self.lines(response.text) == Self.wrappedLines(
                master: "/origin/wrap/missing.m3u8", bandwidth: 750_000, variant: "missing.m3u8?_hls_proxy=media"))
            #expect(proxy.logLines.contains { $0.contains(#""bandwidth_source":"wrap_bandwidth""#) })
        }
    }

    @Test func theVariantURIServesTheOriginalPlaylistAndIsNeverWrappedAgain() async throws {
        try await withProxy(Self.config) { proxy in
            let original = try String(contentsOf: Fixtures.directory.appendingPathComponent("vod-ts/v0/index.m3u8"), encoding: .utf8)
            let media = try await proxy.get("/origin/vod-ts/v0/index.m3u8?_hls_proxy=media")
            #expect(media.status == 200)
            #expect(media.header("X-HLS-Proxy-Route") == "playlist")
            #expect(media.text == original)
            let again = try await proxy.get("/origin/vod-ts/v0/index.m3u8?_hls_proxy=media")
            #expect(again.text == original)
        }
    }

    @Test func theClientsQueryIsKeptInTheVariantURIAndTheMarkerNeverReachesTheOrigin() async throws {
        try await withProxy(Self.config) { proxy in
            let master = try await proxy.get("/origin/vod-ts/v0/index.m3u8?session=abc")
            #expect(Self.lines(master.text).contains("index.m3u8?session=abc&_hls_proxy=media"))
            let media = try await proxy.get("/origin/vod-ts/v0/index.m3u8?session=abc&_hls_proxy=media")
            #expect(media.status == 200)
            #expect(media.text.hasPrefix("#EXTM3U"))
            #expect(!media.text.contains("EXT-X-STREAM-INF"))
            let fetches = proxy.logLines.filter { $0.contains(#""msg":"origin fetch""#) }
            #expect(fetches.contains { $0.contains("v0/index.m3u8?session") })
            #expect(!fetches.contains { $0.contains("_hls_proxy") })
        }
    }

    @Test(arguments: ["_hls_proxy=x", "_hls_proxy", "_hls_proxy=", "_hls_proxy=media&_hls_proxy=media", "a=1&_hls_proxy=MEDIA"])
    func aMalformedMarkerIsABadRequest(query: String) async throws {
        try await withProxy(Self.config) { proxy in
            let response = try await proxy.get("/origin/vod-ts/v0/index.m3u8?\(query)")
            #expect(response.status == 400)
            #expect(response.text.contains("_hls_proxy"))
        }
    }

    @Test func aMasterOnAWrappingSetIsStillRewritten() async throws {
        try await withProxy(Self.config) { proxy in
            let response = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(response.header("X-HLS-Proxy-Route") == "master")
            let lines = Self.lines(response.text)
            #expect(lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.count == 2)
            #expect(lines.contains("v0/index.m3u8"))
            #expect(!response.text.contains("_hls_proxy"))
        }
    }

    @Test func wrappingIsOffByDefaultSoAMediaPlaylistPassesUnchanged() async throws {
        try await withProxy(Self.config) { proxy in
            let original = try String(contentsOf: Fixtures.directory.appendingPathComponent("vod-ts/v0/index.m3u8"), encoding: .utf8)
            let response = try await proxy.get("/files/vod-ts/v0/index.m3u8")
            #expect(response.status == 200)
            #expect(response.header("X-HLS-Proxy-Route") == "playlist")
            #expect(response.text == original)
        }
    }

    @Test func aMediaPlaylistWithAnUnreadableDurationPassesUnchangedWithTheReasonLogged() async throws {
        try await withProxy(Self.config) { proxy in
            let body = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:four,\nseg000.ts\n#EXT-X-ENDLIST\n"
            proxy.origin.setFault("/wrap/broken.m3u8", Self.playlist(body))
            let response = try await proxy.get("/origin/wrap/broken.m3u8")
            #expect(response.status == 200)
            #expect(response.header("X-HLS-Proxy-Route") == "playlist")
            #expect(response.text == body)
            #expect(proxy.logLines.contains { $0.contains(#""action":"passed through""#) && $0.contains("not wrapped: ") })
        }
    }

    @Test func theSubtitlePlaylistFollowsTheWrappedPlaylistsSegmentsWithItsTimestampMap() async throws {
        try await withProxy(Self.config) { proxy in
            proxy.origin.setFault("/wrap/uneven.m3u8", Self.playlist("""
                #EXTM3U
                #EXT-X-TARGETDURATION:5
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXTINF:3.0,
                ../vod-ts/v0/seg000.ts
                #EXTINF:5.0,
                ../vod-ts/v0/seg001.ts
                #EXTINF:4.0,
                ../vod-ts/v0/seg002.ts
                #EXT-X-ENDLIST

                """))
            let master = try await proxy.get("/origin/wrap/uneven.m3u8")
            #expect(master.header("X-HLS-Proxy-Route") == "master")
            let playlistPath = Self.subtitlePlaylist(set: "wrap", master: "/origin/wrap/uneven.m3u8")
            let subtitles = try await proxy.get(playlistPath)
            #expect(subtitles.status == 200)
            #expect(Self.lines(subtitles.text).filter { $0.hasPrefix("#EXTINF:") } == ["#EXTINF:3,", "#EXTINF:5,", "#EXTINF:4,"])
            #expect(subtitles.text.contains("#EXT-X-TARGETDURATION:5"))
            let first = try await proxy.get(playlistPath.replacingOccurrences(of: "index.m3u8", with: "0.vtt"))
            #expect(first.status == 200)
            // The wrapped playlist's first segment starts at PTS 126000 (1.4 s), as the TS master's does.
            #expect(first.text.contains("X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000"))
        }
    }

    @Test func theBundledSamplesVariantOnADirectoryMountIsWrappedAndItsSubtitlesAreTimed() async throws {
        try await withProxy(Self.config) { proxy in
            let response = try await proxy.get("/sample/v0/index.m3u8")
            #expect(response.header("X-HLS-Proxy-Route") == "master")
            #expect(Self.lines(response.text) == Self.wrappedLines(
                set: "sample", master: "/sample/v0/index.m3u8", bandwidth: 108_664 * 8 / 4, variant: "index.m3u8?_hls_proxy=media"))
            let media = try await proxy.get("/sample/v0/index.m3u8?_hls_proxy=media")
            #expect(media.status == 200)
            #expect(media.text.contains("seg000.ts"))
            let playlistPath = Self.subtitlePlaylist(set: "sample", master: "/sample/v0/index.m3u8")
            let subtitles = try await proxy.get(playlistPath)
            #expect(Self.lines(subtitles.text).filter { $0.hasPrefix("#EXTINF:") }.count == 3)
            let first = try await proxy.get(playlistPath.replacingOccurrences(of: "index.m3u8", with: "0.vtt"))
            #expect(first.text.contains("X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000"))
            #expect(first.text.contains("00:00:00.500 --> 00:00:02.500"))
        }
    }

    @Test func pathAbsoluteSegmentURIsOnADirectoryMountAreMeasuredFromTheMountsRoot() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wrap-absolute-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("v0"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<3 {
            try FileManager.default.copyItem(at: Fixtures.url("vod-ts/v0/seg00\(index).ts"), to: root.appendingPathComponent("v0/seg00\(index).ts"))
            playlist += "#EXTINF:4.000000,\n/v0/seg00\(index).ts\n"
        }
        try Data((playlist + "#EXT-X-ENDLIST\n").utf8).write(to: root.appendingPathComponent("v0/index.m3u8"))
        let json = Self.config.replacingOccurrences(of: #""files": { "origin": "FIXTURES" },"#, with: #""files": { "origin": "FIXTURES" }, "abs": { "origin": "\#(root.path)" },"#)
            .replacingOccurrences(of: #""/origin/wrap/*.m3u8"]"#, with: #""/origin/wrap/*.m3u8", "/abs/v0/index.m3u8"]"#)
        try await withProxy(json) { proxy in
            let response = try await proxy.get("/abs/v0/index.m3u8")
            #expect(response.header("X-HLS-Proxy-Route") == "master")
            // Resolved against the mount's root, /v0/seg001.ts is the mount's file: 108664 bytes in 4 s.
            #expect(Self.lines(response.text) == Self.wrappedLines(
                master: "/abs/v0/index.m3u8", bandwidth: 108_664 * 8 / 4, variant: "index.m3u8?_hls_proxy=media"))
            #expect(proxy.logLines.contains { $0.contains(#""bandwidth_source":"measured segment sizes""#) })
        }
    }
}

/// A wrapped live sliding window: its BANDWIDTH must not depend on which segments an instance happened
/// to measure, so a set's own `wrap_bandwidth` comes first and a measured value is rounded to coarse steps.
@Suite struct WrapLiveWindowBandwidthTests {
    typealias Wrap = WrapMediaPlaylistRouteTests

    static func window(first: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for index in first..<(first + 3) { text += "#EXTINF:4.0,\n../vod-ts/v0/seg00\(index % 3).ts\n" }
        return text
    }

    @Test func aLiveWindowOnASetWithItsOwnWrapBandwidthIsWrappedWithIt() async throws {
        try await withProxy(Wrap.config) { proxy in
            proxy.origin.setFault("/wrap/live.m3u8", Wrap.playlist(Self.window(first: 7)))
            let response = try await proxy.get("/origin/wrap/live.m3u8")
            #expect(Wrap.lines(response.text) == Wrap.wrappedLines(master: "/origin/wrap/live.m3u8", bandwidth: 750_000, variant: "live.m3u8?_hls_proxy=media"))
        }
    }

    @Test func twoInstancesMeasuringDifferentWindowsOfALiveStreamWriteTheSameBandwidth() async throws {
        let config = Wrap.config.replacingOccurrences(of: "\"wrap_bandwidth\": 750000,", with: "")
        var masters: [String] = []
        for first in [0, 1] {
            try await withProxy(config) { proxy in
                proxy.origin.setFault("/wrap/live.m3u8", Wrap.playlist(Self.window(first: first)))
                masters.append(try await proxy.get("/origin/wrap/live.m3u8").text)
            }
        }
        // Window 0 measures seg000 to seg002, window 1 seg001, seg002, seg000: the largest is 108664 bytes in
        // 4 s either way here, 217328 bit/s, written as the step above it.
        #expect(masters.count == 2)
        #expect(masters.first == masters.last)
        #expect(masters.first?.contains("BANDWIDTH=262144,") == true, "\(masters)")
    }

    @Test func coarseStepsAreAnUpperBoundAtMostOneAndAHalfTimesTheValue() {
        for bits in [1, 2, 3, 5, 100, 217_328, 262_144, 262_145, 800_000, 999_999_999_999] {
            let step = WrappedMaster.coarseBandwidth(bits)
            #expect(step >= bits && Double(step) <= Double(bits) * 1.5, "\(bits) -> \(step)")
        }
        #expect(WrappedMaster.coarseBandwidth(800_000) == WrappedMaster.coarseBandwidth(820_000))
        #expect(WrappedMaster.coarseBandwidth(1_000_000_000_000) == WrappedMaster.maximumBandwidth)
    }
}
