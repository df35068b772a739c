import Foundation
import HTTPClient
import TestSupport
import Testing
@testable import Proxy

/// `tracks_url` when things go wrong around it, over real sockets: a missing asset costs the backend
/// nothing, and a film whose backend goes down mid-play keeps its subtitles for
/// `cache.tracks_stale_seconds` (stale-if-error), but not over the backend's 404.
@Suite(.timeLimit(.minutes(1))) struct CatalogBackendOutageRouteTests {
    typealias Route = CatalogBackendRouteTests

    /// The route tests' config with `fields` added to its `cache` section.
    static func config(tracksTTL: Double = 60, fallbackTTL: Int = 5, cache fields: String = "") -> String {
        Route.config(tracksTTL: tracksTTL, fallbackTTL: fallbackTTL)
            .replacingOccurrences(of: #""fallback_ttl_seconds": \#(fallbackTTL) }"#, with: #""fallback_ttl_seconds": \#(fallbackTTL)\#(fields) }"#)
    }

    // MARK: Missing assets

    @Test func twentyRequestsForMissingAssetsMakeNoBackendRequest() async throws {
        let sources = try SubtitleSourceOrigin()
        let backend = try TestOrigin(routes: [:])
        defer { backend.stop() }
        try await Route.withBackend(Route.config(), backendURL: backend.url(""), sources: sources) { proxy in
            for index in 0..<20 {
                // Ten requests for one missing asset, ten for ten others.
                let asset = index < 10 ? "missing" : "missing-\(index)"
                let master = try await proxy.get("/origin/\(asset)/master.m3u8")
                #expect(master.status == 404, "\(master.text)")
            }
            #expect(backend.requests().isEmpty)
            #expect(proxy.origin.hits("/missing/master.m3u8") == 10)
        }
    }

    @Test func aSubtitleURLOfAMissingAssetMakesNoBackendRequest() async throws {
        let sources = try SubtitleSourceOrigin()
        let backend = try TestOrigin(routes: [:])
        defer { backend.stop() }
        try await Route.withBackend(Route.config(), backendURL: backend.url(""), sources: sources) { proxy in
            let path = SubtitleURL(setName: "catalog", trackID: "en", masterTarget: "/origin/missing/master.m3u8", resource: .segment(0)).path
            let subtitle = try await proxy.get(path)
            #expect(subtitle.status == 404, "\(subtitle.text)")
            #expect(backend.requests().isEmpty)
        }
    }

    @Test func anOriginThatFailsForTheMasterMakesNoBackendRequestEither() async throws {
        let sources = try SubtitleSourceOrigin()
        let backend = try TestOrigin(routes: ["/api/assets/vod-ts/subtitles": Route.json(Route.answer(sources: sources.baseURL, asset: "vod-ts"))])
        defer { backend.stop() }
        try await Route.withBackend(Route.config(), backendURL: backend.url(""), sources: sources) { proxy in
            proxy.origin.setFault("/vod-ts/master.m3u8", .status(503))
            for _ in 0..<3 {
                let master = try await proxy.get("/origin/vod-ts/master.m3u8")
                #expect(master.status == 502)
            }
            #expect(backend.requests().isEmpty)
            // Once the master is back, the backend is asked, once.
            proxy.origin.setFault("/vod-ts/master.m3u8", nil)
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(subtitleRenditions(master).count == 2)
            #expect(backend.requests().count == 1)
        }
    }

    @Test func aColdMasterOfAnAssetTheOriginHasIsFetchedFromItOnceAndAsksTheBackendOnce() async throws {
        let sources = try SubtitleSourceOrigin()
        let backend = try TestOrigin(routes: ["/api/assets/vod-ts/subtitles": Route.json(Route.answer(sources: sources.baseURL, asset: "vod-ts"))])
        defer { backend.stop() }
        // The existence check goes through the playlist cache, so the master's own fetch is a memory hit
        // while the master TTL lasts (with master_ttl_seconds 0 the origin is asked twice).
        let config = Route.config().replacingOccurrences(of: #""master_ttl_seconds": 0"#, with: #""master_ttl_seconds": 60"#)
        try await Route.withBackend(config, backendURL: backend.url(""), sources: sources) { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(subtitleRenditions(master).count == 2)
            #expect(proxy.origin.hits("/vod-ts/master.m3u8") == 1)
            #expect(backend.requests().count == 1)
        }
    }

    // MARK: Stale-if-error

    /// A backend for vod-ts that answers English and French until `down` is set, then 503 or `downAnswer`.
    static func backend(sources: SubtitleSourceOrigin, down: LockedBox<[UInt8]?>) throws -> TestOrigin {
        let good = TestOrigin.response(
            status: 200, headers: [("Content-Type", "application/json")], body: Array(Route.answer(sources: sources.baseURL, asset: "vod-ts").utf8))
        return try TestOrigin(routes: ["/api/assets/vod-ts/subtitles": .computed { down.withLock { $0 } ?? good }])
    }

    static let outage = TestOrigin.response(status: 503, body: Array("down\n".utf8))

    /// The English rendition's playlist URI and its first WebVTT file's cue timings.
    static func english(_ proxy: ProxyHarness) async throws -> (uri: String, vtt: RawResponse) {
        let renditions = subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8"))
        let english = try #require(renditions.first { $0.contains("LANGUAGE=\"en\"") })
        return (try #require(renditionURI(english)), try await Route.firstVTT(proxy, rendition: english))
    }

    @Test func aFilmsSubtitleURLKeepsItsCuesPastTheTTLWhileTheBackendIsDown() async throws {
        let sources = try SubtitleSourceOrigin()
        let down = LockedBox<[UInt8]?>(nil)
        let backend = try Self.backend(sources: sources, down: down)
        defer { backend.stop() }
        // Every answer is past its TTL at once; failures are kept no time, so each request asks again.
        try await Route.withBackend(Self.config(tracksTTL: 0, fallbackTTL: 0), backendURL: backend.url(""), sources: sources) { proxy in
            let (uri, before) = try await Self.english(proxy)
            #expect(before.status == 200)
            let cues = SubtitleRouteTests.timingLines(before.text)
            #expect(!cues.isEmpty)
            down.withLock { $0 = Self.outage }
            let segment = uri.replacingOccurrences(of: "index.m3u8", with: "0.vtt")
            for _ in 0..<2 {
                #expect(try await proxy.get(uri).status == 200)
                let after = try await proxy.get(segment)
                #expect(after.status == 200, "\(after.text)")
                #expect(SubtitleRouteTests.timingLines(after.text) == cues)
            }
            #expect(backend.requests().count >= 3)
            #expect(proxy.logLines.contains { $0.contains("last good answer is served") && $0.contains("\"reason\":\"status\"") })
            let metrics = try await proxy.get("/metrics").text
            #expect(metrics.contains("hls_proxy_tracks_backend_stale_served_total{reason=\"status\"}"))
            // The master keeps listing the film's tracks too.
            #expect(subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8")).count == 2)
        }
    }

    @Test func pastTheStaleBoundTheSubtitleURLFallsBackTo404AsBefore() async throws {
        let sources = try SubtitleSourceOrigin()
        let down = LockedBox<[UInt8]?>(nil)
        let backend = try Self.backend(sources: sources, down: down)
        defer { backend.stop() }
        let config = Self.config(tracksTTL: 0, fallbackTTL: 0, cache: #", "tracks_stale_seconds": 0.3"#)
        try await Route.withBackend(config, backendURL: backend.url(""), sources: sources) { proxy in
            let (uri, before) = try await Self.english(proxy)
            #expect(before.status == 200)
            down.withLock { $0 = Self.outage }
            // Served stale at first (unless the machine is slow enough to be past 0.3 s already), then 404.
            try await eventually { try await proxy.get(uri).status == 404 }
            #expect(subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8")).isEmpty)
        }
    }

    @Test func aBackend404ForTheFilmIsNotCoveredUpByItsLastGoodAnswer() async throws {
        let sources = try SubtitleSourceOrigin()
        let down = LockedBox<[UInt8]?>(nil)
        let backend = try Self.backend(sources: sources, down: down)
        defer { backend.stop() }
        try await Route.withBackend(Self.config(tracksTTL: 0, fallbackTTL: 0), backendURL: backend.url(""), sources: sources) { proxy in
            let (uri, before) = try await Self.english(proxy)
            #expect(before.status == 200)
            down.withLock { $0 = TestOrigin.response(status: 404, body: Array("no such asset\n".utf8)) }
            #expect(try await proxy.get(uri).status == 404)
            #expect(!proxy.logLines.contains { $0.contains("last good answer is served") })
        }
    }
}
