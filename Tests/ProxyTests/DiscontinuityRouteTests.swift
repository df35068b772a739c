import Foundation
import HLS
import Testing
import TestSupport
@testable import Proxy

/// A VOD spliced from parts whose timestamps restart (vod-disc: three parts of two 2 s segments, the
/// second part's PTS 30 s on, the third's back at 1.4 s). The subtitle playlist mirrors the video's
/// discontinuities, and each WebVTT segment of part k carries X-TIMESTAMP-MAP=MPEGTS:<part k's first
/// PTS>,LOCAL:<part k's presentation start>, so cues authored on the whole programme's timeline map to
/// the PTS of the video they belong to (RFC 8216 §3.5, §6.2.4).
@Suite struct DiscontinuityRouteTests {
    static let master = "/origin/vod-disc/master.m3u8"
    static let config = """
        {
          "mounts": { "origin": { "origin": "ORIGIN" } },
          "subtitles": [
            { "name": "disc", "masters": ["/origin/vod-disc/master.m3u8", "/origin/vod-fmp4/master.m3u8"],
              "tracks": [
                { "id": "en", "name": "English", "language": "en", "source": "/vod-disc/subs/en.vtt", "mode": "segmented" },
                { "id": "one", "name": "Single", "language": "fr", "source": "/vod-disc/subs/en.vtt", "mode": "single" },
                { "id": "fixed", "name": "Fixed", "language": "de", "source": "/vod-disc/subs/en.vtt", "mode": "segmented", "mpegts": 900000 }
              ] }
          ],
          "cache": { "subtitle_ttl_seconds": 300, "fallback_ttl_seconds": 1 }
        }
        """

    static func path(_ resource: SubtitleURL.Resource, track: String = "en") -> String {
        SubtitleURL(setName: "disc", trackID: track, masterTarget: master, resource: resource).path
    }

    /// The first PES PTS of a fixture segment, as the proxy reads it.
    static func firstPTS(_ segment: String) throws -> Int64 {
        try MPEGTSReader.firstPTS(Array(Data(contentsOf: Fixtures.url("vod-disc/v0/\(segment)"))))
    }

    static func tags(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("#EXT-X-DISCONTINUITY") || !$0.hasPrefix("#") }
    }

    @Test func theSubtitlePlaylistHasTheVideosDiscontinuitiesAtTheSamePositionsAndItsSequence() async throws {
        try await withProxy(Self.config) { proxy in
            let playlist = try await proxy.get(Self.path(.playlist))
            #expect(playlist.status == 200)
            #expect(Self.tags(playlist.text) == [
                "#EXT-X-DISCONTINUITY-SEQUENCE:0", "0.vtt", "1.vtt", "#EXT-X-DISCONTINUITY", "2.vtt", "3.vtt",
                "#EXT-X-DISCONTINUITY", "4.vtt", "5.vtt",
            ])
            #expect(playlist.text.contains("#EXT-X-ENDLIST"))
        }
    }

    @Test func aDiscontinuityBeforeTheFirstSegmentIsMirroredToo() async throws {
        try await withProxy(Self.config) { proxy in
            // A programme opening on a splice (an ad pre-roll): the tag precedes segment 0.
            let video = try String(contentsOf: Fixtures.url("vod-disc/v0/index.m3u8"), encoding: .utf8)
                .replacingOccurrences(of: "DISCONTINUITY-SEQUENCE:0\n", with: "DISCONTINUITY-SEQUENCE:3\n#EXT-X-DISCONTINUITY\n")
            #expect(video.contains("SEQUENCE:3\n#EXT-X-DISCONTINUITY\n"))
            proxy.origin.setFault("/vod-disc/v0/index.m3u8", .body(Array(video.utf8), contentType: "application/vnd.apple.mpegurl"))
            let playlist = try await proxy.get(Self.path(.playlist))
            #expect(Self.tags(playlist.text) == [
                "#EXT-X-DISCONTINUITY-SEQUENCE:3", "#EXT-X-DISCONTINUITY", "0.vtt", "1.vtt", "#EXT-X-DISCONTINUITY", "2.vtt", "3.vtt",
                "#EXT-X-DISCONTINUITY", "4.vtt", "5.vtt",
            ])
        }
    }

    @Test func theDiscontinuitySequenceOfTheVideoIsMirrored() async throws {
        try await withProxy(Self.config) { proxy in
            let video = try String(contentsOf: Fixtures.url("vod-disc/v0/index.m3u8"), encoding: .utf8)
                .replacingOccurrences(of: "DISCONTINUITY-SEQUENCE:0", with: "DISCONTINUITY-SEQUENCE:12")
            proxy.origin.setFault("/vod-disc/v0/index.m3u8", .body(Array(video.utf8), contentType: "application/vnd.apple.mpegurl"))
            let playlist = try await proxy.get(Self.path(.playlist))
            #expect(playlist.text.contains("#EXT-X-DISCONTINUITY-SEQUENCE:12\n"))
        }
    }

    @Test func eachSegmentCarriesTheTimestampMapOfItsOwnPart() async throws {
        try await withProxy(Self.config) { proxy in
            let expected = [
                0: "X-TIMESTAMP-MAP=MPEGTS:\(try Self.firstPTS("p0s0.ts")),LOCAL:00:00:00.000",
                1: "X-TIMESTAMP-MAP=MPEGTS:\(try Self.firstPTS("p0s0.ts")),LOCAL:00:00:00.000",
                2: "X-TIMESTAMP-MAP=MPEGTS:\(try Self.firstPTS("p1s0.ts")),LOCAL:00:00:04.000",
                5: "X-TIMESTAMP-MAP=MPEGTS:\(try Self.firstPTS("p2s0.ts")),LOCAL:00:00:08.000",
            ]
            for (index, map) in expected.sorted(by: { $0.key < $1.key }) {
                let file = try await proxy.get(Self.path(.segment(index)))
                #expect(file.status == 200)
                #expect(file.text.split(separator: "\n").filter { $0.hasPrefix("X-TIMESTAMP-MAP") } == [Substring(map)], "segment \(index)")
            }
            // The cue authored 0.5 s after the first splice is in part 2's first segment, on the programme's timeline.
            #expect(try await proxy.get(Self.path(.segment(2))).text.contains("00:00:04.500 --> 00:00:05.500"))
        }
    }

    @Test func aPartsFirstSegmentIsReadOnlyWhenASegmentOfThatPartIsFirstAskedForAndThenCached() async throws {
        try await withProxy(Self.config) { proxy in
            _ = try await proxy.get(Self.path(.segment(0)))
            #expect(proxy.origin.hits("/vod-disc/v0/p1s0.ts") == 0, "part 2 not asked for yet")
            _ = try await proxy.get(Self.path(.segment(2)))
            _ = try await proxy.get(Self.path(.segment(3)))
            #expect(proxy.origin.hits("/vod-disc/v0/p1s0.ts") == 1)
            #expect(proxy.origin.hits("/vod-disc/v0/p2s0.ts") == 0)
        }
    }

    @Test func aPartWhoseFirstSegmentIsNotTransportStreamGetsSegmentsWithoutAMapAndAWarning() async throws {
        try await withProxy(Self.config) { proxy in
            proxy.origin.setFault("/vod-disc/v0/p1s0.ts", .body(Array("not a transport stream".utf8), contentType: "video/mp2t"))
            let unmapped = try await proxy.get(Self.path(.segment(2)))
            #expect(unmapped.status == 200)
            #expect(unmapped.text.contains("00:00:04.500 --> 00:00:05.500"))
            #expect(!unmapped.text.contains("X-TIMESTAMP-MAP"))
            #expect(HardeningSubtitleSourceTests.maxAge(unmapped) == 300, "the video's own fault: asking again would not help")
            #expect(proxy.logLines.contains { $0.contains("part PTS unavailable") && $0.contains("\"part\":\"1\"") })
            #expect(try await proxy.get(Self.path(.segment(4))).text.contains("X-TIMESTAMP-MAP=MPEGTS:"), "the other parts keep theirs")
        }
    }

    @Test func aPartWhoseFirstSegmentBrieflyFailsGetsProvisionalSegmentsWithoutAMap() async throws {
        try await withProxy(Self.config) { proxy in
            proxy.origin.setFault("/vod-disc/v0/p1s0.ts", .status(503))
            let unmapped = try await proxy.get(Self.path(.segment(3)))
            #expect(unmapped.status == 200)
            #expect(!unmapped.text.contains("X-TIMESTAMP-MAP"))
            #expect(try #require(HardeningSubtitleSourceTests.maxAge(unmapped)) <= 1)
            proxy.origin.setFault("/vod-disc/v0/p1s0.ts", nil)
            let mapped = try await proxy.get(Self.path(.segment(3)))
            #expect(mapped.text.contains("X-TIMESTAMP-MAP=MPEGTS:\(try Self.firstPTS("p1s0.ts")),LOCAL:00:00:04.000"), "an unread PTS is not cached")
        }
    }

    @Test func aSingleModeTrackOnADiscontinuityStreamIsServedSegmentedAndLoggedOnce() async throws {
        try await withProxy(Self.config) { proxy in
            let playlist = try await proxy.get(Self.path(.playlist, track: "one"))
            #expect(Self.tags(playlist.text).filter { $0 == "#EXT-X-DISCONTINUITY" }.count == 2)
            #expect(playlist.text.contains("5.vtt"))
            let file = try await proxy.get(Self.path(.segment(4), track: "one"))
            #expect(file.status == 200)
            #expect(file.text.contains("LOCAL:00:00:08.000"))
            _ = try await proxy.get(Self.path(.playlist, track: "one"))
            #expect(proxy.logLines.filter { $0.contains("single-mode subtitle track served segmented") && $0.contains("\"track\":\"one\"") }.count == 1)
        }
    }

    @Test func aTimestampMapFromTheConfigHoldsInTheFirstPartAndLaterPartsMapFromTheirOwnFirstSegments() async throws {
        try await withProxy(Self.config) { proxy in
            let expected = [
                0: "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000",
                1: "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000",
                2: "X-TIMESTAMP-MAP=MPEGTS:\(try Self.firstPTS("p1s0.ts")),LOCAL:00:00:04.000",
                4: "X-TIMESTAMP-MAP=MPEGTS:\(try Self.firstPTS("p2s0.ts")),LOCAL:00:00:08.000",
            ]
            for (index, map) in expected.sorted(by: { $0.key < $1.key }) {
                let file = try await proxy.get(Self.path(.segment(index), track: "fixed"))
                #expect(file.text.split(separator: "\n").filter { $0.hasPrefix("X-TIMESTAMP-MAP") } == [Substring(map)], "segment \(index)")
            }
        }
    }

    @Test func aSourcesOwnTimestampMapHoldsInTheFirstPartAndLaterPartsMapFromTheirOwnFirstSegments() async throws {
        try await withProxy(Self.config) { proxy in
            let source = try String(contentsOf: Fixtures.url("vod-disc/subs/en.vtt"), encoding: .utf8)
                .replacingOccurrences(of: "WEBVTT\n", with: "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:180000,LOCAL:00:00:01.000\n")
            proxy.origin.setFault("/vod-disc/subs/en.vtt", .body(Array(source.utf8), contentType: "text/vtt"))
            let first = try await proxy.get(Self.path(.segment(1))).text
            let later = try await proxy.get(Self.path(.segment(3))).text
            #expect(first.contains("X-TIMESTAMP-MAP=MPEGTS:180000,LOCAL:00:00:01.000"))
            #expect(later.contains("X-TIMESTAMP-MAP=MPEGTS:\(try Self.firstPTS("p1s0.ts")),LOCAL:00:00:04.000"))
            #expect(!later.contains("MPEGTS:180000"))
        }
    }

    /// The fixture has two discontinuities: 2^64-3 numbers the last part 2^64-1, the largest there is.
    @Test func aDiscontinuitySequenceThatNumbersTheLastPartTwoToTheSixtyFourMinusOneIsMirroredAsWritten() async throws {
        try await withProxy(Self.config) { proxy in
            let video = try String(contentsOf: Fixtures.url("vod-disc/v0/index.m3u8"), encoding: .utf8)
                .replacingOccurrences(of: "DISCONTINUITY-SEQUENCE:0", with: "DISCONTINUITY-SEQUENCE:18446744073709551613")
            proxy.origin.setFault("/vod-disc/v0/index.m3u8", .body(Array(video.utf8), contentType: "application/vnd.apple.mpegurl"))
            let playlist = try await proxy.get(Self.path(.playlist))
            #expect(playlist.text.contains("#EXT-X-DISCONTINUITY-SEQUENCE:18446744073709551613\n"))
            #expect(!proxy.logLines.contains { $0.contains("not a decimal-integer") })
        }
    }

    @Test func aDiscontinuitySequencePastTwoToTheSixtyFourMinusOneFallsBackToZeroWithAWarningOnce() async throws {
        try await withProxy(Self.config) { proxy in
            let video = try String(contentsOf: Fixtures.url("vod-disc/v0/index.m3u8"), encoding: .utf8)
                .replacingOccurrences(of: "DISCONTINUITY-SEQUENCE:0", with: "DISCONTINUITY-SEQUENCE:18446744073709551616")
            proxy.origin.setFault("/vod-disc/v0/index.m3u8", .body(Array(video.utf8), contentType: "application/vnd.apple.mpegurl"))
            let playlist = try await proxy.get(Self.path(.playlist))
            _ = try await proxy.get(Self.path(.segment(2)))
            #expect(playlist.text.contains("#EXT-X-DISCONTINUITY-SEQUENCE:0\n"))
            let warnings = proxy.logLines.filter { $0.contains("sequence tag is not a decimal-integer") }
            #expect(warnings.count == 1)
            #expect(warnings.first?.contains("18446744073709551616") == true)
        }
    }

    @Test func aPartOfAFragmentedMP4VideoMapsToItsFirstFragmentsDecodeTime() async throws {
        try await withProxy(Self.config) { proxy in
            let video = try String(contentsOf: Fixtures.url("vod-fmp4/index.m3u8"), encoding: .utf8)
                .replacingOccurrences(of: "#EXTINF:4.000000,\nseg002.m4s", with: "#EXT-X-DISCONTINUITY\n#EXTINF:4.000000,\nseg002.m4s")
            #expect(video.contains("#EXT-X-DISCONTINUITY\n"))
            proxy.origin.setFault("/vod-fmp4/index.m3u8", .body(Array(video.utf8), contentType: "application/vnd.apple.mpegurl"))
            let initSegment = try Array(Data(contentsOf: Fixtures.url("vod-fmp4/init.mp4")))
            let third = try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: Array(Data(contentsOf: Fixtures.url("vod-fmp4/seg002.m4s"))))
            let file = try await proxy.get(SubtitleURL(setName: "disc", trackID: "en", masterTarget: "/origin/vod-fmp4/master.m3u8", resource: .segment(2)).path)
            #expect(file.status == 200)
            #expect(file.text.contains("X-TIMESTAMP-MAP=MPEGTS:\(third),LOCAL:00:00:08.000"), "\(file.text)")
        }
    }

    @Test func aSegmentPastTheLastIsNotFound() async throws {
        try await withProxy(Self.config) { proxy in
            let past = try await proxy.get(Self.path(.segment(6)))
            #expect(past.status == 404)
        }
    }
}
