import Foundation
@testable import Proxy
import TestSupport
import Testing

/// Subtitle sources under stress: a brief outage, a sidecar too large for the cache, one with too
/// many cues. Over real sockets against the real proxy and origin.
@Suite struct HardeningSubtitleSourceTests {
    static func config(cache: String, limits: String = "{}", mode: String = "segmented") -> String {
        """
        {
          "mounts": { "origin": { "origin": "ORIGIN" } },
          "subtitles": [
            { "name": "vod", "masters": ["/origin/vod-ts/master.m3u8"],
              "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "/subtitles/en.vtt", "mode": "\(mode)" } ] }
          ],
          "cache": \(cache),
          "limits": \(limits)
        }
        """
    }

    static let file = SubtitleURL(setName: "vod", trackID: "en", masterTarget: "/origin/vod-ts/master.m3u8", resource: .segment(0)).path

    static func maxAge(_ response: RawResponse) -> Int? {
        guard let value = response.header("Cache-Control"), let range = value.range(of: "max-age=") else { return nil }
        return Int(value[range.upperBound...].prefix { $0.isNumber })
    }

    static func cueCount(_ text: String) -> Int {
        text.split(separator: "\n").filter { $0.contains("-->") }.count
    }

    @Test func aSubtitleSourceThatWasBrieflyMissingComesBackAfterTheFallbackTTL() async throws {
        let config = Self.config(cache: #"{ "subtitle_ttl_seconds": 300, "fallback_ttl_seconds": 1 }"#)
        let clock = CacheClock.adjustable()
        try await withProxy(config, cacheClock: clock) { proxy in
            proxy.origin.setFault("/subtitles/en.vtt", .status(404))
            let fallback = try await proxy.get(Self.file)
            #expect(fallback.status == 200)
            #expect(Self.cueCount(fallback.text) == 0)
            let maxAge = try #require(Self.maxAge(fallback))
            #expect(maxAge <= 1, "a CDN must not keep the empty track longer than the fallback TTL")
            proxy.origin.setFault("/subtitles/en.vtt", nil)
            // Time passing is the point: the 1 s fallback TTL runs out on the caches' clock.
            clock.advance(by: .milliseconds(1_300))
            let recovered = try await proxy.get(Self.file)
            #expect(Self.cueCount(recovered.text) > 0, "the fallback expired, so the real cues are served")
            #expect(Self.maxAge(recovered) == 300)
        }
    }

    @Test func theFallbackTTLIsFiveSecondsByDefaultAndReadFromTheCacheSection() throws {
        func decode(_ cache: String) throws -> ProxyConfig {
            let json = Self.config(cache: cache, limits: #"{ "max_subtitle_cues": 7 }"#).replacingOccurrences(of: "ORIGIN", with: "http://127.0.0.1:9")
            return try ProxyConfig.decode(Array(json.utf8), environment: [:])
        }
        #expect(ProxyConfig.CacheSettings().fallbackTTL == 5)
        #expect(ProxyConfig.Limits().maxSubtitleCues == 200_000)
        let decoded = try decode(#"{ "fallback_ttl_seconds": 2.5 }"#)
        #expect(decoded.cache.fallbackTTL == 2.5)
        #expect(decoded.limits.maxSubtitleCues == 7)
        #expect(throws: ConfigError.self) { try decode(#"{ "fallback_ttl_seconds": -1 }"#) }
    }

    @Test func concurrentRequestsForASidecarTooLargeForTheCacheShareOneParse() async throws {
        // A cache far too small for the document, and a slow source so the requests overlap its load.
        let config = Self.config(cache: #"{ "max_bytes": 64, "subtitle_ttl_seconds": 300 }"#, limits: #"{ "max_subtitle_cues": 2 }"#)
        try await withProxy(config) { proxy in
            _ = try await proxy.get("/origin/vod-ts/master.m3u8")
            proxy.origin.setFault("/subtitles/en.vtt", .delay(.seconds(1)))
            let responses = try await withThrowingTaskGroup(of: RawResponse.self) { group in
                for _ in 0..<8 { group.addTask { try await proxy.get(Self.file) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.allSatisfy { $0.status == 200 && Self.cueCount($0.text) > 0 })
            #expect(proxy.service.handler.caches.subtitleLoads.loadsStarted == 1)
            // Each parse of this source passes the cue cap and says so once.
            #expect(proxy.logLines.filter { $0.contains("more cues than limits.max_subtitle_cues") }.count == 1)
        }
    }

    @Test func aSourceWithMoreCuesThanTheCapServesTheFirstOnesWithAWarningAndAMetric() async throws {
        let config = Self.config(cache: "{}", limits: #"{ "max_subtitle_cues": 2 }"#, mode: "single")
        try await withProxy(config) { proxy in
            let file = try await proxy.get(Self.file)
            #expect(file.status == 200)
            #expect(Self.cueCount(file.text) == 2)
            #expect(file.text.contains("A test pattern appears."))
            #expect(file.text.contains("four hundred forty"))
            #expect(proxy.logLines.contains { $0.contains("more cues than limits.max_subtitle_cues") && $0.contains("\"limit\":\"2\"") })
            let metrics = try await proxy.get("/metrics")
            #expect(metrics.text.contains("hls_proxy_subtitle_cues_capped_total 1"))
            #expect(Self.maxAge(file) == 300, "a capped track is deterministic, not a fallback")
        }
    }

    @Test func aSourceWhoseCuesHoldItsBytesIsCountedAtLeastItsSizeInTheCache() async throws {
        // One short cue after a 256 kB NOTE: the cue's text is kept as a range of the source's bytes,
        // which it holds whole, so the cache must count them.
        let note = String(repeating: "NOTE a comment line that nobody reads\n", count: 7_000)
        let source = Array("WEBVTT\n\n\(note)\n00:00:01.000 --> 00:00:02.000\nA cue.\n".utf8)
        try await withProxy(Self.config(cache: "{}")) { proxy in
            proxy.origin.setFault("/subtitles/en.vtt", .body(source, contentType: "text/vtt"))
            let file = try await proxy.get(Self.file)
            #expect(Self.cueCount(file.text) == 1)
            let cached = proxy.service.handler.caches.subtitles.counts.bytes
            #expect(cached >= source.count, "\(cached) bytes counted for a \(source.count)-byte source")
        }
    }
}
