import Foundation
import Testing
@testable import Proxy

/// Subtitles made while the origin briefly failed part of the video are provisional. Cues are mapped to the video's timeline with X-TIMESTAMP-MAP from the first segment's PTS. When the
/// origin briefly fails that segment, the cues go out unmapped (out of sync on a TS stream): that answer
/// is provisional, kept by the proxy and by a CDN no longer than `cache.fallback_ttl_seconds`, as the
/// empty fallback is, so the mapping comes back with the segment instead of after the subtitle TTL. The
/// same holds for a segmented playlist cut into fixed windows because the variant playlist failed.
@Suite struct HardeningSubtitleTimestampTests {
    static let config = """
        {
          "mounts": { "origin": { "origin": "ORIGIN" } },
          "subtitles": [
            { "name": "vod", "masters": ["/origin/vod-ts/master.m3u8"],
              "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "/subtitles/en.vtt", "mode": "single" } ] }
          ],
          "cache": { "subtitle_ttl_seconds": 300, "fallback_ttl_seconds": 1 }
        }
        """

    static let file = SubtitleURL(setName: "vod", trackID: "en", masterTarget: "/origin/vod-ts/master.m3u8", resource: .segment(0)).path

    @Test func cuesLeftUnmappedByABrieflyFailingFirstSegmentAreKeptOnlyForTheFallbackTTL() async throws {
        let clock = CacheClock.adjustable()
        try await withProxy(Self.config, cacheClock: clock) { proxy in
            proxy.origin.setFault("/vod-ts/v0/seg000.ts", .status(503))
            let unmapped = try await proxy.get(Self.file)
            #expect(unmapped.status == 200)
            #expect(unmapped.text.contains("-->"))
            #expect(!unmapped.text.contains("X-TIMESTAMP-MAP"))
            let maxAge = try #require(HardeningSubtitleSourceTests.maxAge(unmapped))
            #expect(maxAge <= 1, "a CDN must not keep unmapped cues longer than the fallback TTL")
            proxy.origin.setFault("/vod-ts/v0/seg000.ts", nil)
            // Time passing is the point: the 1 s fallback TTL runs out on the caches' clock.
            clock.advance(by: .milliseconds(1_300))
            let mapped = try await proxy.get(Self.file)
            #expect(mapped.text.contains("X-TIMESTAMP-MAP"), "the unmapped cues expired, so the mapped ones are served")
            #expect(HardeningSubtitleSourceTests.maxAge(mapped) == 300)
        }
    }

    @Test func cuesOfAVideoWhoseFirstSegmentHasNoTimestampAreKeptForTheSubtitleTTL() async throws {
        try await withProxy(Self.config) { proxy in
            // An answer that is not MPEG-TS is the video's, not a brief failure: asking again would not help.
            proxy.origin.setFault("/vod-ts/v0/seg000.ts", .body(Array("not a transport stream".utf8), contentType: "video/mp2t"))
            let unmapped = try await proxy.get(Self.file)
            #expect(unmapped.status == 200)
            #expect(!unmapped.text.contains("X-TIMESTAMP-MAP"))
            #expect(HardeningSubtitleSourceTests.maxAge(unmapped) == 300)
        }
    }

    @Test func aSubtitlePlaylistMadeWithoutTheTimelineABrieflyFailingVariantWithheldIsKeptOnlyForTheFallbackTTL() async throws {
        let config = Self.config.replacingOccurrences(of: #""mode": "single""#, with: #""mode": "segmented""#)
        let playlist = SubtitleURL(setName: "vod", trackID: "en", masterTarget: "/origin/vod-ts/master.m3u8", resource: .playlist).path
        let clock = CacheClock.adjustable()
        try await withProxy(config, cacheClock: clock) { proxy in
            proxy.origin.setFault("/vod-ts/v0/index.m3u8", .status(503))
            let windows = try await proxy.get(playlist)
            #expect(windows.status == 200)
            let maxAge = try #require(HardeningSubtitleSourceTests.maxAge(windows))
            #expect(maxAge <= 1, "a CDN must not keep windows that ignore the video's segments longer than the fallback TTL")
            let segment = try await proxy.get(Self.file)
            #expect(try #require(HardeningSubtitleSourceTests.maxAge(segment)) <= 1)
            proxy.origin.setFault("/vod-ts/v0/index.m3u8", nil)
            // Time passing is the point: the 1 s fallback TTL runs out on the caches' clock.
            clock.advance(by: .milliseconds(1_300))
            let aligned = try await proxy.get(playlist)
            #expect(aligned.status == 200)
            #expect(HardeningSubtitleSourceTests.maxAge(aligned) == 300)
            let mapped = try await proxy.get(Self.file)
            #expect(mapped.text.contains("X-TIMESTAMP-MAP"), "the unmapped cues expired with the timeline back")
            #expect(HardeningSubtitleSourceTests.maxAge(mapped) == 300)
        }
    }
}
