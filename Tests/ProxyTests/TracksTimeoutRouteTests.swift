import Foundation
import TestSupport
import Testing

/// `timeouts.tracks_seconds` over real sockets: a `tracks_url` backend that takes the request and never
/// answers ends the master's wait after the tracks timeout, not the far longer origin timeout.
@Suite(.timeLimit(.minutes(1))) struct TracksTimeoutRouteTests {
    /// A backend that never answers, a tracks timeout of 1 s and an origin timeout of 30 s: the master
    /// arrives with the set's static track while the backend still holds the request, unanswered and
    /// open. The bound is not a speed figure: 15 s is far above the 1 s deadline and half the 30 s one,
    /// so it fails only if the origin timeout (or the backend answering) is what ended the wait.
    @Test func aHungBackendFallsBackAfterTheTracksTimeoutNotTheOriginTimeout() async throws {
        let backend = try TestOrigin(routes: ["/api/assets/vod-ts/subtitles": .gated(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))])
        defer {
            backend.release()
            backend.stop()
        }
        let config = """
            {
              "mounts": { "origin": { "origin": "ORIGIN" } },
              "timeouts": { "tracks_seconds": 1, "origin_seconds": 30 },
              "subtitles": [
                { "name": "catalog", "masters": ["/origin/{asset}/master.m3u8"],
                  "tracks_url": "\(backend.url("/api/assets/{asset}/subtitles"))",
                  "source_hosts": ["127.0.0.1"],
                  "tracks": [{ "id": "de", "name": "Deutsch", "language": "de", "source": "/subtitles/en.vtt" }] }
              ]
            }
            """
        try await withProxy(config) { proxy in
            let clock = ContinuousClock()
            let started = clock.now
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            let waited = started.duration(to: clock.now)
            // The backend got the request and has not finished with it: nothing but the tracks deadline
            // can have let the master go.
            #expect(backend.requests(path: "/api/assets/vod-ts/subtitles").count == 1)
            #expect(backend.finishedConnections == 0)
            #expect(waited < .seconds(15), "the master took \(waited): the origin timeout, not tracks_seconds, ended the wait")
            #expect(master.status == 200)
            #expect(master.text.contains("#EXT-X-STREAM-INF"))
            let renditions = subtitleRenditions(master)
            #expect(renditions.count == 1)
            #expect(renditions.first?.contains(#"LANGUAGE="de""#) == true)
            #expect(proxy.logLines.contains { $0.contains("tracks backend failed") && $0.contains(#""reason":"timeout""#) })
            let metrics = try await proxy.get("/metrics").text
            #expect(metrics.contains(#"hls_proxy_tracks_backend_failures_total{reason="timeout"} 1"#))
        }
    }
}
