import Foundation
import HTTPClient
import TestSupport
import Testing

/// `tracks_url` wired into the master path over real sockets: a TestOrigin as the app's backend, the
/// fixture origin for the video and a SubtitleSourceOrigin for the backend's sources.
@Suite(.timeLimit(.minutes(1))) struct CatalogBackendRouteTests {
    /// A set whose tracks come from `BACKEND/api/assets/{asset}/subtitles`; `staticTracks` is its
    /// `tracks` array (JSON), if any. The backend timeout is long unless a test is about it, so a
    /// loaded machine does not turn an answer into a timeout.
    static func config(
        staticTracks: String? = nil, sourceHosts: String = #"["127.0.0.1"]"#, tracksTTL: Double = 60, fallbackTTL: Int = 5,
        allowPrivateNetworks: Bool = false, tracksSeconds: Double = 30
    ) -> String {
        """
        {
          "embedded": { "allow_hosts": [], "allow_private_networks": \(allowPrivateNetworks) },
          "mounts": { "origin": { "origin": "ORIGIN", "forward_headers": ["Cookie"], "inject_headers": { "X-Origin-Token": "${TOKEN}" } } },
          "cache": { "master_ttl_seconds": 0, "tracks_ttl_seconds": \(tracksTTL), "fallback_ttl_seconds": \(fallbackTTL) },
          "timeouts": { "tracks_seconds": \(tracksSeconds) },
          "subtitles": [
            { "name": "catalog", "masters": ["/origin/{asset}/master.m3u8"],
              "tracks_url": "BACKEND/api/assets/{asset}/subtitles",
              "tracks_headers": { "Authorization": "Bearer backend-token" },
              "source_hosts": \(sourceHosts)\(staticTracks.map { ",\n\"tracks\": \($0)" } ?? "") }
          ]
        }
        """
    }

    static let staticGerman = #"[{ "id": "de", "name": "Deutsch", "language": "de", "source": "SUBS/subs/static/de.vtt" }]"#

    /// The backend's answer for one asset: English and French on the subtitle source origin.
    static func answer(sources: String, asset: String, extra: String = "") -> String {
        #"{"tracks": [{"id": "en", "name": "English", "language": "en", "default": true, "source": "\#(sources)/subs/\#(asset)/en.vtt"},"#
            + #" {"id": "fr", "name": "Français", "language": "fr", "source": "\#(sources)/subs/\#(asset)/fr.vtt"}\#(extra)]}"#
    }

    static func json(_ text: String, status: Int = 200) -> TestOrigin.Behaviour {
        .raw(TestOrigin.response(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8)))
    }

    /// Runs `body` with a proxy configured by `configJSON` (`BACKEND` and `SUBS` filled in).
    static func withBackend(
        _ configJSON: String, backendURL: String, sources: SubtitleSourceOrigin, resolver: HostResolver = .system,
        _ body: (ProxyHarness) async throws -> Void
    ) async throws {
        let json = configJSON.replacingOccurrences(of: "BACKEND", with: backendURL).replacingOccurrences(of: "SUBS", with: sources.baseURL)
        do {
            try await withProxy(json, resolver: resolver, body)
        } catch {
            await sources.stop()
            throw error
        }
        await sources.stop()
    }

    /// The first WebVTT file of a rendition: its playlist, then the playlist's first segment.
    static func firstVTT(_ proxy: ProxyHarness, rendition: Substring) async throws -> RawResponse {
        let uri = try #require(renditionURI(rendition))
        let playlist = try await proxy.get(uri)
        #expect(playlist.status == 200)
        let segment = try #require(playlist.text.split(separator: "\n").first { !$0.hasPrefix("#") && $0.hasSuffix(".vtt") })
        let base = uri.split(separator: "/").dropLast().joined(separator: "/")
        return try await proxy.get("/" + base + "/" + segment)
    }

    @Test(arguments: ["vod-ts", "vod-fmp4"])
    func aTracksURLMasterListsTheBackendsTracksAndServesTheirCues(asset: String) async throws {
        let sources = try SubtitleSourceOrigin()
        let backend = try TestOrigin(routes: ["/api/assets/\(asset)/subtitles": Self.json(Self.answer(sources: sources.baseURL, asset: asset))])
        defer { backend.stop() }
        try await Self.withBackend(Self.config(staticTracks: Self.staticGerman), backendURL: backend.url(""), sources: sources) { proxy in
            let master = try await proxy.get("/origin/\(asset)/master.m3u8")
            #expect(master.status == 200)
            let renditions = subtitleRenditions(master)
            // The backend's answer replaces the static tracks.
            #expect(renditions.count == 2)
            #expect(renditions.contains { $0.contains("LANGUAGE=\"en\"") && $0.contains("DEFAULT=YES") })
            #expect(renditions.contains { $0.contains("LANGUAGE=\"fr\"") })
            #expect(!renditions.contains { $0.contains("LANGUAGE=\"de\"") })
            let english = try #require(renditions.first { $0.contains("LANGUAGE=\"en\"") })
            let vtt = try await Self.firstVTT(proxy, rendition: english)
            #expect(vtt.status == 200)
            #expect(vtt.text.contains("A test pattern appears."))
            #expect(sources.requests().contains { $0.target == "/subs/\(asset)/en.vtt" })
            // The subtitle requests were answered from the backend cache: one backend fetch in all.
            #expect(backend.requests(path: "/api/assets/\(asset)/subtitles").count == 1)
        }
    }

    @Test func theBackendsTracksAreTakenLiterallyWithoutCaptureSubstitution() async throws {
        let sources = try SubtitleSourceOrigin()
        let answer = #"{"tracks": [{"id": "en", "name": "English {asset}", "language": "en", "source": "\#(sources.baseURL)/subs/vod-ts/en.vtt"}]}"#
        let backend = try TestOrigin(routes: ["/api/assets/vod-ts/subtitles": Self.json(answer)])
        defer { backend.stop() }
        try await Self.withBackend(Self.config(), backendURL: backend.url(""), sources: sources) { proxy in
            let renditions = subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8"))
            #expect(renditions.count == 1)
            #expect(renditions.first?.contains(#"NAME="English {asset}""#) == true)
        }
    }

    @Test func aCaptureInTheTracksURLsQueryReachesTheBackendPercentEncodedNotAsExtraParameters() async throws {
        let sources = try SubtitleSourceOrigin()
        let backend = try TestOrigin(routes: ["/api/subtitles": Self.json(Self.answer(sources: sources.baseURL, asset: "vod-ts"))])
        defer { backend.stop() }
        let json = Self.config().replacingOccurrences(of: "BACKEND/api/assets/{asset}/subtitles", with: "BACKEND/api/subtitles?asset={asset}")
        try await Self.withBackend(json, backendURL: backend.url(""), sources: sources) { proxy in
            // The backend is asked only for a master the origin has.
            let master = try #require(FileManager.default.contents(atPath: Fixtures.directory.path + "/vod-ts/master.m3u8"))
            proxy.origin.setFault("/x&admin=true/master.m3u8", .body(Array(master), contentType: "application/vnd.apple.mpegurl"))
            _ = try await proxy.get("/origin/x&admin=true/master.m3u8")
            let seen = try #require(backend.requests().first)
            #expect(seen.target == "/api/subtitles?asset=x%26admin%3Dtrue")
        }
    }

    @Test func noClientOrMountHeaderReachesTheBackendOnlyItsTracksHeaders() async throws {
        let sources = try SubtitleSourceOrigin()
        let backend = try TestOrigin(routes: ["/api/assets/vod-ts/subtitles": Self.json(Self.answer(sources: sources.baseURL, asset: "vod-ts"))])
        defer { backend.stop() }
        try await Self.withBackend(Self.config(), backendURL: backend.url(""), sources: sources) { proxy in
            let master = try await proxy.get(
                "/origin/vod-ts/master.m3u8", headers: [("Cookie", "session=client-secret"), ("Authorization", "Basic client")])
            #expect(subtitleRenditions(master).count == 2)
            let seen = try #require(backend.requests().first)
            #expect(seen.headers["Authorization"] == "Bearer backend-token")
            #expect(seen.headers["Cookie"] == nil)
            #expect(seen.headers["X-Origin-Token"] == nil)
            // The mount's own origin still gets its fields.
            #expect(proxy.origin.lastHeaders("/vod-ts/master.m3u8")?["X-Origin-Token"] == "secret-token")
        }
    }

    /// A backend that fails in each named way: the behaviour, the metric's reason.
    static let failures: [(String, @Sendable () -> TestOrigin.Behaviour)] = [
        ("timeout", { .hang }),
        ("status", { json(#"{"error": "no such asset"}"#, status: 404) }),
        ("not_json", { json("<html>oops</html>") }),
        ("no_tracks", { json(#"{"subtitles": []}"#) }),
    ]

    @Test(arguments: [0, 1, 2, 3], [false, true])
    func aFailingBackendStillServesTheMasterWithTheStaticTracksOrNoneOneWarnLineAndTheMetric(
        failure: Int, withStaticTracks: Bool
    ) async throws {
        let (reason, behaviour) = Self.failures[failure]
        let sources = try SubtitleSourceOrigin()
        let backend = try TestOrigin(routes: ["/api/assets/vod-ts/subtitles": behaviour()])
        defer { backend.stop() }
        let config = Self.config(staticTracks: withStaticTracks ? Self.staticGerman : nil, tracksSeconds: reason == "timeout" ? 1 : 30)
        try await Self.withBackend(config, backendURL: backend.url(""), sources: sources) { proxy in
            for _ in 0..<2 {
                let master = try await proxy.get("/origin/vod-ts/master.m3u8")
                #expect(master.status == 200)
                #expect(master.text.contains("#EXT-X-STREAM-INF"))
                let renditions = subtitleRenditions(master)
                #expect(renditions.count == (withStaticTracks ? 1 : 0))
                #expect(renditions.allSatisfy { $0.contains("LANGUAGE=\"de\"") })
            }
            // The failure is kept for fallback_ttl_seconds: one fetch, one warn line, one count.
            #expect(proxy.logLines.filter { $0.contains("tracks backend failed") }.count == 1)
            #expect(proxy.logLines.contains { $0.contains("tracks backend failed") && $0.contains("\"reason\":\"\(reason)\"") })
            let metrics = try await proxy.get("/metrics").text
            #expect(metrics.contains("hls_proxy_tracks_backend_failures_total{reason=\"\(reason)\"} 1"))
            if withStaticTracks {
                let german = try #require(subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8")).first)
                #expect(try await Self.firstVTT(proxy, rendition: german).status == 200)
            }
        }
    }

    @Test func aBackendThatIsDownStillServesTheMasterWithItsStaticTracks() async throws {
        let sources = try SubtitleSourceOrigin()
        let closed = LoopbackPort.refusing
        try await Self.withBackend(Self.config(staticTracks: Self.staticGerman), backendURL: "http://127.0.0.1:\(closed)", sources: sources) { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(master.status == 200)
            let renditions = subtitleRenditions(master)
            #expect(renditions.count == 1)
            #expect(renditions.first?.contains("LANGUAGE=\"de\"") == true)
            #expect(proxy.logLines.filter { $0.contains("tracks backend failed") }.count == 1)
            let metrics = try await proxy.get("/metrics").text
            #expect(metrics.contains("hls_proxy_tracks_backend_failures_total{reason=\"unreachable\"} 1"))
        }
    }

    @Test func anInvalidTrackFromTheBackendIsDroppedAloneWithOneWarnLine() async throws {
        let sources = try SubtitleSourceOrigin()
        let invalid = #", {"id": "xx", "name": "Broken \"quote\"", "language": "xx", "source": "/subs/x.vtt"}"#
        let backend = try TestOrigin(routes: [
            "/api/assets/vod-ts/subtitles": Self.json(Self.answer(sources: sources.baseURL, asset: "vod-ts", extra: invalid)),
        ])
        defer { backend.stop() }
        try await Self.withBackend(Self.config(), backendURL: backend.url(""), sources: sources) { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(master.status == 200)
            let renditions = subtitleRenditions(master)
            #expect(renditions.count == 2)
            #expect(!renditions.contains { $0.contains("LANGUAGE=\"xx\"") })
            #expect(proxy.logLines.filter { $0.contains("tracks backend track dropped") }.count == 1)
            #expect(proxy.logLines.contains { $0.contains("tracks backend track dropped") && $0.contains("tracks[2]") })
            let metrics = try await proxy.get("/metrics").text
            #expect(metrics.contains("hls_proxy_tracks_backend_fetches_total 1"))
        }
    }

    @Test func concurrentFirstRequestsForOneAssetMakeOneBackendRequestAndOneProbePerOptionalTrack() async throws {
        let sources = try SubtitleSourceOrigin(delay: .milliseconds(300))
        let optional = #", {"id": "de", "name": "Deutsch", "language": "de", "optional": true, "source": "\#(sources.baseURL)/subs/vod-ts/de.vtt"}"#
        let body = Self.answer(sources: sources.baseURL, asset: "vod-ts", extra: optional)
        let backend = try TestOrigin(routes: [
            "/api/assets/vod-ts/subtitles": .delayed(
                TestOrigin.response(status: 200, headers: [("Content-Type", "application/json")], body: Array(body.utf8)), delay: .milliseconds(300)),
        ])
        defer { backend.stop() }
        try await Self.withBackend(Self.config(), backendURL: backend.url(""), sources: sources) { proxy in
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8")).count } }
                var counts: [Int] = []
                for try await count in group { counts.append(count) }
                return counts
            }
            // de.vtt is not a fixture: the probe finds it absent, so every master lists en and fr.
            #expect(counts == Array(repeating: 2, count: 8))
            #expect(backend.requests(path: "/api/assets/vod-ts/subtitles").count == 1)
            #expect(sources.requests(method: "HEAD") == [SubtitleSourceOrigin.Seen(method: "HEAD", target: "/subs/vod-ts/de.vtt")])
        }
    }

    @Test func anOptionalBackendTrackWhoseSourceExistsIsListed() async throws {
        let sources = try SubtitleSourceOrigin()
        let optional = #", {"id": "es", "name": "Español", "language": "es", "optional": true, "source": "\#(sources.baseURL)/subs/vod-ts/es.srt"}"#
        let backend = try TestOrigin(routes: [
            "/api/assets/vod-ts/subtitles": Self.json(Self.answer(sources: sources.baseURL, asset: "vod-ts", extra: optional)),
        ])
        defer { backend.stop() }
        try await Self.withBackend(Self.config(), backendURL: backend.url(""), sources: sources) { proxy in
            let renditions = subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8"))
            #expect(renditions.count == 3)
            #expect(renditions.contains { $0.contains("LANGUAGE=\"es\"") })
            #expect(sources.requests(method: "HEAD").count == 1)
        }
    }

    @Test func aBackendSourceWhoseHostLaterResolvesToAPrivateAddressIsRefusedAtFetchTime() async throws {
        let sources = try SubtitleSourceOrigin()
        let port = try #require(sources.baseURL.split(separator: ":").last.map(String.init))
        let lookups = LockedBox(0)
        // Public when the answer is read, loopback when the cues are fetched: a rebinding name.
        let resolver = HostResolver { host throws(HTTPClientError) in
            guard host == "subs.test" else { return try HostResolver.system.addresses(of: host) }
            let count = lookups.withLock { count -> Int in
                count += 1
                return count
            }
            return [IPAddress(count == 1 ? "203.0.113.7" : "127.0.0.1")].compactMap { $0 }
        }
        let backend = try TestOrigin(routes: [
            "/api/assets/vod-ts/subtitles": Self.json(Self.answer(sources: "http://subs.test:\(port)", asset: "vod-ts")),
        ])
        defer { backend.stop() }
        try await Self.withBackend(Self.config(sourceHosts: #"["subs.test"]"#), backendURL: backend.url(""), sources: sources, resolver: resolver) {
            proxy in
            let renditions = subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8"))
            #expect(renditions.count == 2)
            let english = try #require(renditions.first { $0.contains("LANGUAGE=\"en\"") })
            let vtt = try await Self.firstVTT(proxy, rendition: english)
            // Served as the empty fallback: the source was never asked, and the address is why.
            #expect(vtt.status == 200)
            #expect(!vtt.text.contains("A test pattern appears."))
            #expect(sources.requests().isEmpty)
            #expect(lookups.withLock { $0 } >= 2)
            #expect(proxy.logLines.contains { $0.contains("resolves to 127.0.0.1, a loopback, link-local or private address") })
        }
    }

    @Test func aBackendSourceConnectsToTheAddressesVettedAtFetchTime() async throws {
        let sources = try SubtitleSourceOrigin()
        let port = try #require(sources.baseURL.split(separator: ":").last.map(String.init))
        // Only the proxy's resolver knows this name: the cues arrive only if the fetch connects to what it vetted.
        let resolver = HostResolver { host throws(HTTPClientError) in
            guard host == "subs.test" else { return try HostResolver.system.addresses(of: host) }
            return [IPAddress("127.0.0.1")].compactMap { $0 }
        }
        let backend = try TestOrigin(routes: [
            "/api/assets/vod-ts/subtitles": Self.json(Self.answer(sources: "http://subs.test:\(port)", asset: "vod-ts")),
        ])
        defer { backend.stop() }
        let config = Self.config(sourceHosts: #"["subs.test"]"#, allowPrivateNetworks: true)
        try await Self.withBackend(config, backendURL: backend.url(""), sources: sources, resolver: resolver) { proxy in
            let renditions = subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8"))
            let english = try #require(renditions.first { $0.contains("LANGUAGE=\"en\"") })
            let vtt = try await Self.firstVTT(proxy, rendition: english)
            #expect(vtt.text.contains("A test pattern appears."))
            #expect(sources.requests().map(\.target) == ["/subs/vod-ts/en.vtt"])
        }
    }

    @Test(arguments: [false, true])
    func aRedirectOfABackendSourceIsFollowedOnlyToAListedHost(listed: Bool) async throws {
        let sources = try SubtitleSourceOrigin()
        let port = try #require(sources.baseURL.split(separator: ":").last.map(String.init))
        let resolver = HostResolver { host throws(HTTPClientError) in
            guard host == "other.test" else { return try HostResolver.system.addresses(of: host) }
            return [IPAddress("127.0.0.1")].compactMap { $0 }
        }
        let redirector = try TestOrigin(routes: ["/moved/en.vtt": TestOrigin.redirect(302, to: "http://other.test:\(port)/subs/vod-ts/en.vtt")])
        defer { redirector.stop() }
        let answer = #"{"tracks": [{"id": "en", "name": "English", "language": "en", "source": "\#(redirector.url("/moved/en.vtt"))"}]}"#
        let backend = try TestOrigin(routes: ["/api/assets/vod-ts/subtitles": Self.json(answer)])
        defer { backend.stop() }
        // Private addresses allowed, so only the host lists decide.
        let config = Self.config(sourceHosts: listed ? #"["127.0.0.1", "other.test"]"# : #"["127.0.0.1"]"#, allowPrivateNetworks: true)
        try await Self.withBackend(config, backendURL: backend.url(""), sources: sources, resolver: resolver) { proxy in
            let english = try #require(subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8")).first)
            let vtt = try await Self.firstVTT(proxy, rendition: english)
            #expect(vtt.status == 200)
            #expect(vtt.text.contains("A test pattern appears.") == listed)
            #expect(sources.requests().isEmpty == !listed)
            #expect(redirector.requests(path: "/moved/en.vtt").count == 1)
        }
    }

    @Test func aBackendSourceOffEveryHostListIsNeitherListedNorFetched() async throws {
        let sources = try SubtitleSourceOrigin()
        let backend = try TestOrigin(routes: [
            "/api/assets/vod-ts/subtitles": Self.json(Self.answer(sources: sources.baseURL, asset: "vod-ts")),
        ])
        defer { backend.stop() }
        try await Self.withBackend(Self.config(sourceHosts: #"["subs.example"]"#), backendURL: backend.url(""), sources: sources) { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(master.status == 200)
            #expect(subtitleRenditions(master).isEmpty)
            #expect(proxy.logLines.contains { $0.contains("tracks backend track dropped") && $0.contains("neither embedded.allow_hosts") })
            #expect(sources.requests().isEmpty)
        }
    }

    @Test func aSubtitleURLForATrackTheBackendNoLongerListsIsA404() async throws {
        let sources = try SubtitleSourceOrigin()
        let down = LockedBox(false)
        let good = TestOrigin.response(
            status: 200, headers: [("Content-Type", "application/json")], body: Array(Self.answer(sources: sources.baseURL, asset: "vod-ts").utf8))
        let missing = TestOrigin.response(status: 404, body: Array("gone\n".utf8))
        let backend = try TestOrigin(routes: ["/api/assets/vod-ts/subtitles": .computed { down.withLock { $0 } ? missing : good }])
        defer { backend.stop() }
        // Answers kept no time at all, so the subtitle request asks the backend again.
        try await Self.withBackend(Self.config(tracksTTL: 0, fallbackTTL: 0), backendURL: backend.url(""), sources: sources) { proxy in
            let renditions = subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8"))
            let english = try #require(renditions.first { $0.contains("LANGUAGE=\"en\"") })
            let uri = try #require(renditionURI(english))
            #expect(try await proxy.get(uri).status == 200)
            down.withLock { $0 = true }
            #expect(try await proxy.get(uri).status == 404)
            #expect(subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8")).isEmpty)
        }
    }
}
