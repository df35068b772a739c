import Foundation
import HLS
import Testing
import TestSupport
@testable import Proxy

/// Live windows at their edges: segments named only by their query, a PTS wrapping past 2^33 between two
/// segments, an origin that restarts its numbering, segments shorter than the target duration, and an
/// epoch track whose segments play before the epoch or more than 13.25 h after it. Each with the exact
/// X-TIMESTAMP-MAP that docs/requests.md "What a live subtitle source's cue times mean" gives.
@Suite struct LiveWindowEdgeRouteTests {
    typealias Live = LiveWindowRouteTests

    /// A TS segment of one 188-byte packet: a video PES whose PTS is `pts` (ISO/IEC 13818-1 §2.4.3.7);
    /// without program tables the reader goes by the stream id.
    static func segment(pts: Int64) -> [UInt8] {
        var bytes: [UInt8] = [0x47, 0x40, 0x44, 0x10]
        bytes += [0x00, 0x00, 0x01, 0xE0, 0x00, 0x00, 0x80, 0x80, 0x05,
                  UInt8(0x21 | (pts >> 29 & 0x0E)), UInt8(pts >> 22 & 0xFF), UInt8(pts >> 14 & 0xFE | 1),
                  UInt8(pts >> 7 & 0xFF), UInt8(pts << 1 & 0xFE | 1)]
        return bytes + Array(repeating: 0xFF, count: 188 - bytes.count)
    }

    /// A live window of `uris` from media sequence `first`, each `extinf` seconds long, target duration 4.
    static func window(first: Int, uris: [String], extinf: String = "4.000000") -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for uri in uris { text += "#EXTINF:\(extinf),\n\(uri)\n" }
        return Array(text.utf8)
    }

    /// Serves `bytes` as the variant playlist and waits until the proxy lists media sequence `first`.
    static func slide(_ proxy: ProxyHarness, _ bytes: [UInt8], first: Int) async throws {
        EventPlaylistRouteTests.serve(proxy, bytes)
        _ = try await EventPlaylistRouteTests.playlist(proxy) { $0.contains("#EXT-X-MEDIA-SEQUENCE:\(first)\n") }
    }

    static func serve(_ proxy: ProxyHarness, _ path: String, _ bytes: [UInt8]) {
        proxy.origin.setFault("/vod-ts/v0/\(path)", .body(bytes, contentType: "video/mp2t"))
    }

    /// The header line of a live subtitle file.
    static func mapLine(_ text: String) -> String? { text.split(separator: "\n").first { $0.hasPrefix("X-TIMESTAMP-MAP=") }.map(String.init) }

    @Test func segmentsThatDifferOnlyByTheirQueryEachMapTheirOwnPTS() async throws {
        try await withProxy(Live.config) { proxy in
            for sequence in 1..<4 { Self.serve(proxy, "chunk.ts?seq=\(sequence)", Self.segment(pts: 900_000 * Int64(sequence))) }
            try await Self.slide(proxy, Self.window(first: 1, uris: (1..<4).map { "chunk.ts?seq=\($0)" }), first: 1)
            var maps: [String?] = []
            for sequence in 1..<4 { maps.append(Self.mapLine(try await proxy.get(Live.path(.segment(sequence))).text)) }
            #expect(maps == [
                "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:04.000",
                "X-TIMESTAMP-MAP=MPEGTS:1800000,LOCAL:00:00:08.000",
                "X-TIMESTAMP-MAP=MPEGTS:2700000,LOCAL:00:00:12.000",
            ])
        }
    }

    @Test func viewersWithDifferentTrackChoicesShareOneReadOfEachSegment() async throws {
        try await withProxy(Live.config) { proxy in
            Self.serve(proxy, "chunk.ts?seq=1", Self.segment(pts: 900_000))
            try await Self.slide(proxy, Self.window(first: 1, uris: ["chunk.ts?seq=1"]), first: 1)
            _ = try await proxy.get(Live.path(.segment(1)))
            // The track's own first-PTS read and segment 1's live read: more viewers read nothing more.
            let hitsAfterOne = proxy.origin.hits("/vod-ts/v0/chunk.ts")
            var bodies: Set<[UInt8]> = []
            for query in ["", "?hls_proxy_subtitles=en", "?hls_proxy_default=en", "?hls_proxy_subtitles=en,fr&hls_proxy_default=en"] {
                let file = try await proxy.get(Live.path(.segment(1), query: query))
                #expect(file.status == 200, "\(query)")
                #expect(Self.mapLine(file.text) == "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:04.000", "\(query)")
                bodies.insert(file.body)
            }
            #expect(bodies.count == 1)
            #expect(hitsAfterOne <= 2)
            #expect(proxy.origin.hits("/vod-ts/v0/chunk.ts") == hitsAfterOne)
        }
    }

    @Test func viewersWhoseSegmentURLsCarryDifferentTokensShareOneOriginReadPerSegment() async throws {
        try await withProxy(Live.config) { proxy in
            let playlistType = "application/vnd.apple.mpegurl"
            for token in ["a", "b"] {
                let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nv0/index.m3u8?token=\(token)\n"
                proxy.origin.setFault("/vod-ts/master.m3u8?token=\(token)", .body(Array(master.utf8), contentType: playlistType))
                let window = Self.window(first: 1, uris: (1..<4).map { "live\($0).ts?token=\(token)" })
                proxy.origin.setFault("/vod-ts/v0/index.m3u8?token=\(token)", .body(window, contentType: playlistType))
                for sequence in 1..<4 { Self.serve(proxy, "live\(sequence).ts?token=\(token)", Self.segment(pts: 900_000 * Int64(sequence))) }
            }
            func path(_ sequence: Int, _ token: String) -> String {
                SubtitleURL(setName: "live", trackID: "en", masterTarget: "/origin/vod-ts/master.m3u8?token=\(token)", resource: .segment(sequence)).path
            }
            var maps: [String: [String?]] = [:]
            for token in ["a", "b"] {
                for sequence in 2..<4 {
                    let file = try await proxy.get(path(sequence, token))
                    #expect(file.status == 200, "\(token) \(sequence)")
                    maps[token, default: []].append(Self.mapLine(file.text))
                }
            }
            #expect(maps["a"] == ["X-TIMESTAMP-MAP=MPEGTS:1800000,LOCAL:00:00:08.000", "X-TIMESTAMP-MAP=MPEGTS:2700000,LOCAL:00:00:12.000"])
            #expect(maps["b"] == maps["a"])
            // Each segment past the window's first (which the track's own first-PTS read may fetch too)
            // is read from the origin once for both viewers.
            #expect(proxy.origin.hits("/vod-ts/v0/live2.ts") == 1)
            #expect(proxy.origin.hits("/vod-ts/v0/live3.ts") == 1)
        }
    }

    @Test func aPTSThatWrapsPast2To33BetweenTwoSegmentsMapsEachExactly() async throws {
        let wrap: Int64 = 1 << 33
        // Segment 0 starts 5 s before the wrap, 1 one second before it, 2 three seconds after it.
        let starts: [Int64] = [wrap - 450_000, wrap - 90_000, 270_000]
        try await withProxy(Live.epochConfig(mpegts: wrap - 450_000)) { proxy in
            for (sequence, pts) in starts.enumerated() { Self.serve(proxy, "live\(sequence).ts", Self.segment(pts: pts)) }
            try await Self.slide(proxy, Self.window(first: 0, uris: (0..<3).map { "live\($0).ts" }), first: 0)
            // No epoch: each maps its own PTS to N×T.
            var nominal: [String?] = []
            for sequence in 0..<3 { nominal.append(Self.mapLine(try await proxy.get(Live.path(.segment(sequence))).text)) }
            #expect(nominal == [
                "X-TIMESTAMP-MAP=MPEGTS:8589484592,LOCAL:00:00:00.000",
                "X-TIMESTAMP-MAP=MPEGTS:8589844592,LOCAL:00:00:04.000",
                "X-TIMESTAMP-MAP=MPEGTS:270000,LOCAL:00:00:08.000",
            ])
            // On the epoch 5 s before the wrap, the segment after it is 8 s on, not 26.5 h back.
            var onEpoch: [String] = []
            for sequence in 0..<3 { onEpoch.append(try await proxy.get(Live.path(.segment(sequence), track: "ep")).text) }
            #expect(onEpoch.map(Self.mapLine) == [
                "X-TIMESTAMP-MAP=MPEGTS:8589484592,LOCAL:00:00:00.000",
                "X-TIMESTAMP-MAP=MPEGTS:8589844592,LOCAL:00:00:04.000",
                "X-TIMESTAMP-MAP=MPEGTS:270000,LOCAL:00:00:08.000",
            ])
            #expect(onEpoch[2].contains("00:00:08.500 --> 00:00:11.900"))
            #expect(!onEpoch[2].contains("00:00:06.000 --> 00:00:08.000"))
        }
    }

    @Test func anOriginThatRestartsItsNumberingIsFollowedFromItsNewNumbers() async throws {
        try await withProxy(Live.config) { proxy in
            for sequence in 100..<103 { Self.serve(proxy, "a\(sequence).ts", Self.segment(pts: 5_000_000 + 360_000 * Int64(sequence - 100))) }
            try await Self.slide(proxy, Self.window(first: 100, uris: (100..<103).map { "a\($0).ts" }), first: 100)
            let before = try await proxy.get(Live.path(.segment(101)))
            #expect(Self.mapLine(before.text) == "X-TIMESTAMP-MAP=MPEGTS:5360000,LOCAL:00:06:44.000")
            // The origin restarts: numbering from 0 again, new segments, a new PTS.
            for sequence in 0..<3 { Self.serve(proxy, "b\(sequence).ts", Self.segment(pts: 126_000 + 360_000 * Int64(sequence))) }
            try await Self.slide(proxy, Self.window(first: 0, uris: (0..<3).map { "b\($0).ts" }), first: 0)
            let playlist = try await proxy.get(Live.path(.playlist)).text
            #expect(Live.uris(playlist) == ["0.vtt", "1.vtt", "2.vtt"])
            var maps: [String?] = []
            for sequence in 0..<3 { maps.append(Self.mapLine(try await proxy.get(Live.path(.segment(sequence))).text)) }
            #expect(maps == [
                "X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000",
                "X-TIMESTAMP-MAP=MPEGTS:486000,LOCAL:00:00:04.000",
                "X-TIMESTAMP-MAP=MPEGTS:846000,LOCAL:00:00:08.000",
            ])
            // The old numbers are no longer listed.
            #expect(try await proxy.get(Live.path(.segment(101))).status == 404)
        }
    }

    @Test func aSegmentShorterThanTheTargetDurationHoldsOnlyTheCuesOfItsOwnLength() async throws {
        try await withProxy(Live.config) { proxy in
            for sequence in 1..<3 { Self.serve(proxy, "s\(sequence).ts", Self.segment(pts: 1_000_000 * Int64(sequence))) }
            // EXTINF 1.5 s under a 4 s target: segment 1 spans [4 s, 5.5 s), segment 2 [8 s, 9.5 s).
            try await Self.slide(proxy, Self.window(first: 1, uris: ["s1.ts", "s2.ts"], extinf: "1.500"), first: 1)
            let one = try await proxy.get(Live.path(.segment(1))).text
            let two = try await proxy.get(Live.path(.segment(2))).text
            #expect(Self.mapLine(one) == "X-TIMESTAMP-MAP=MPEGTS:1000000,LOCAL:00:00:04.000")
            #expect(Self.mapLine(two) == "X-TIMESTAMP-MAP=MPEGTS:2000000,LOCAL:00:00:08.000")
            #expect(one.contains("00:00:03.000 --> 00:00:05.750"))
            // 6 s to 8 s is after segment 1's media ends (5.5 s): mapped from it, it would play during segment 2.
            #expect(!one.contains("00:00:06.000 --> 00:00:08.000"))
            #expect(two.contains("00:00:08.500 --> 00:00:11.900"))
        }
    }

    @Test func onAnEpochASegmentBeforeCueTimeZeroShiftsMPEGTSAndWritesLocalZero() async throws {
        // The epoch is 2 s into segment 0 (PTS 126000): segment 0 starts at cue time -2 s, so its map is
        // MPEGTS = 126000 + 2 s × 90 kHz at LOCAL 0, the same instants as MPEGTS 126000 at -2 s.
        try await withProxy(Live.epochConfig(mpegts: 306_000)) { proxy in
            Self.serve(proxy, "e0.ts", Self.segment(pts: 126_000))
            try await Self.slide(proxy, Self.window(first: 0, uris: ["e0.ts"]), first: 0)
            let file = try await proxy.get(Live.path(.segment(0), track: "ep"))
            #expect(file.text == """
                WEBVTT
                X-TIMESTAMP-MAP=MPEGTS:306000,LOCAL:00:00:00.000
                Kind: captions
                Language: en

                1
                00:00:00.500 --> 00:00:02.500
                A test pattern appears.


                """)
        }
    }

    @Test func onAnEpochASegmentMoreThan13HoursAfterItReadsAsBeforeItAndHoldsNoCues() async throws {
        // 2^32 ticks (13.25 h) and 1 s after the epoch: the nearer side of the 33-bit circle is 13.25 h
        // before it (docs/requests.md), cue time -47720.858 s, so the file has no cues and a valid map:
        // cue time 0 at (E - L × 90) mod 2^33 = 0, exactly.
        let pts: Int64 = (1 << 32) + 90_000
        try await withProxy(Live.epochConfig(mpegts: 0)) { proxy in
            Self.serve(proxy, "far.ts", Self.segment(pts: pts))
            try await Self.slide(proxy, Self.window(first: 0, uris: ["far.ts"]), first: 0)
            let file = try await proxy.get(Live.path(.segment(0), track: "ep"))
            #expect(file.status == 200)
            #expect(file.text == """
                WEBVTT
                X-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000
                Kind: captions
                Language: en


                """)
        }
    }
}
