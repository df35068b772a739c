import HTTPClient
import HTTPServer
@testable import Proxy
import TestSupport
import Testing

/// TrackBackend against a real backend on a socket: the answers it reads, the failures it reports, the
/// sources it refuses, the fields it sends and how it shares and keeps fetches.
@Suite(.timeLimit(.minutes(1))) struct TrackBackendTests {
    /// A backend client for one set read from JSON, with its warn lines and metrics at hand. Its
    /// `tracks_seconds` is 30 unless a test gives its own: at the start of a full `swift test` on two
    /// slow cores the task pool is held for half a minute, and the default 3 s then failed every
    /// fetch here as a timeout (a fresh-clone CI run of 7403fe3: 75 issues in these two suites alone).
    struct Fixture {
        let backend: TrackBackend
        let set: SubtitleSet
        let metrics: ProxyMetrics
        let warnings: LockedBox<[String]>

        init(
            tracksURL: String, setFields: String = "", sourceHosts: String = #"["127.0.0.1"]"#, embedded: String = #"{"allow_hosts": ["cdn.example"]}"#, cache: String = "{}",
            limits: String = "{}", timeouts: String = #"{"tracks_seconds": 30}"#, environment: [String: String] = [:], client: OriginClient = makeTestClient(),
            resolver: HostResolver = .system, clock: CacheClock = .system
        ) throws {
            let json = #"""
                {"mounts": {"vod": {"origin": "http://127.0.0.1:9", "inject_headers": {"X-Mount-Secret": "mount-only"}}},
                 "embedded": \#(embedded), "cache": \#(cache), "limits": \#(limits), "timeouts": \#(timeouts),
                 "subtitles": [{"name": "catalog", "tracks_url": "\#(tracksURL)", "source_hosts": \#(sourceHosts)\#(setFields)}]}
                """#
            let config = try ProxyConfig.decode(Array(json.utf8), environment: environment)
            let warnings = LockedBox<[String]>([])
            let logger = ProxyLogger(level: .warn, accessSink: { _ in }, diagnosticSink: { line in warnings.withLock { $0.append(line) } })
            metrics = ProxyMetrics()
            backend = TrackBackend(config: config, origin: client, logger: logger, metrics: metrics, resolver: resolver, clock: clock)
            set = try #require(config.subtitleSets.first)
            self.warnings = warnings
        }

        func tracks(masterURL: String = "http://127.0.0.1:9/vod/a/master.m3u8") async -> TrackBackendResult {
            await backend.tracks(url: set.tracksURL ?? "", set: set, masterURL: masterURL)
        }
    }

    static func answer(_ json: String, status: Int = 200) -> TestOrigin.Behaviour {
        .raw(TestOrigin.response(status: status, headers: [("Content-Type", "application/json")], body: Array(json.utf8)))
    }

    static let english = #"{"name": "English", "language": "en", "source": "http://127.0.0.1:9/subs/en.vtt"}"#
    static let french = #"{"id": "fr", "name": "Français", "language": "fr", "default": true, "source": "http://127.0.0.1:9/subs/fr.srt"}"#

    static func tracks(_ result: TrackBackendResult) -> [TrackConfig] {
        if case .tracks(let tracks, _) = result { return tracks }
        return []
    }

    static func dropped(_ result: TrackBackendResult) -> Int? {
        if case .tracks(_, let dropped) = result { return dropped }
        return nil
    }

    static func reason(_ result: TrackBackendResult) -> String? {
        if case .failed(let reason) = result { return reason }
        return nil
    }

    // MARK: Answers

    @Test func aGoodAnswerGivesItsTracksExactlyAsTheConfigWouldRead() async throws {
        let origin = try TestOrigin(routes: ["/api/a/subtitles": Self.answer(#"{"tracks": [\#(Self.english), \#(Self.french)]}"#)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a/subtitles"))
        let result = await fixture.tracks()
        let tracks = Self.tracks(result)
        #expect(tracks.map(\.id) == ["en", "fr"])
        #expect(tracks.map(\.track.name) == ["English", "Français"])
        #expect(tracks.map(\.track.isDefault) == [false, true])
        // A default track is autoselectable when the answer does not say, as in the config file.
        #expect(tracks.map(\.track.autoselect) == [false, true])
        #expect(tracks.map(\.source) == ["http://127.0.0.1:9/subs/en.vtt", "http://127.0.0.1:9/subs/fr.srt"])
        #expect(Self.dropped(result) == 0)
        #expect(fixture.metrics.tracksBackendFetches(failedFor: nil) == 1)
        #expect(fixture.warnings.withLock { $0 }.isEmpty)
    }

    @Test func aRelativeSourceIsResolvedAgainstTheMaster() async throws {
        let origin = try TestOrigin(routes: [
            "/api/a": Self.answer(#"{"tracks": [{"name": "English", "language": "en", "source": "subs/en.vtt"}, {"name": "German", "language": "de", "source": "/top/de.vtt"}]}"#),
        ])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"))
        let tracks = Self.tracks(await fixture.tracks(masterURL: "http://127.0.0.1:9/vod/a/master.m3u8?token=x"))
        #expect(tracks.map(\.source) == ["http://127.0.0.1:9/vod/a/subs/en.vtt", "http://127.0.0.1:9/top/de.vtt"])
    }

    @Test func anEmptyTracksArrayIsAnAnswerWithNoTracks() async throws {
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(#"{"tracks": [], "asset": "a"}"#)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"))
        #expect(await fixture.tracks() == .tracks([], dropped: 0))
    }

    // MARK: Failures

    @Test func aBackendSlowerThanTheTracksTimeoutFailsAsTimeout() async throws {
        let origin = try TestOrigin(routes: ["/api/a": .hang])
        defer { origin.stop() }
        // The client's own total timeout is far longer: the tracks deadline is what ends the wait.
        let fixture = try Fixture(
            tracksURL: origin.url("/api/a"), timeouts: #"{"tracks_seconds": 0.3}"#, client: makeTestClient(totalTimeout: .seconds(60)))
        let reason = Self.reason(await fixture.tracks())
        #expect(reason?.hasPrefix("timeout:") == true)
        #expect(fixture.metrics.tracksBackendFetches(failedFor: "timeout") == 1)
        #expect(fixture.warnings.withLock { $0 }.count == 1)
    }

    @Test func aBackendSlowerThanTheClientTimeoutFailsAsTimeoutToo() async throws {
        let origin = try TestOrigin(routes: ["/api/a": .hang])
        defer { origin.stop() }
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), client: makeTestClient(totalTimeout: .milliseconds(300)))
        #expect(Self.reason(await fixture.tracks())?.hasPrefix("timeout:") == true)
    }

    @Test func aBackendThatRefusesConnectionsFailsAsUnreachable() async throws {
        let fixture = try Fixture(tracksURL: "http://127.0.0.1:\(LoopbackPort.refusing)/api/a")
        #expect(Self.reason(await fixture.tracks())?.hasPrefix("unreachable:") == true)
        #expect(fixture.metrics.tracksBackendFetches(failedFor: "unreachable") == 1)
    }

    @Test func aBackendThatAnswers404FailsAsStatus() async throws {
        let origin = try TestOrigin(routes: [:])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"))
        #expect(Self.reason(await fixture.tracks()) == "status: backend answered 404")
        #expect(fixture.metrics.tracksBackendFetches(failedFor: "status") == 1)
        let warning = try #require(fixture.warnings.withLock { $0 }.first)
        #expect(warning.contains(#""reason":"status""#))
        #expect(warning.contains(#""set":"catalog""#))
    }

    @Test func aRedirectIsNotFollowedSoTheBackendTokenStaysWithTheBackend() async throws {
        let other = try TestOrigin(routes: ["/elsewhere": Self.answer(#"{"tracks": []}"#)])
        let origin = try TestOrigin(routes: ["/api/a": TestOrigin.redirect(302, to: other.url("/elsewhere"))])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), setFields: #", "tracks_headers": {"Authorization": "Bearer b"}"#)
        #expect(Self.reason(await fixture.tracks()) == "status: backend answered 302")
        #expect(other.requests().isEmpty)
    }

    @Test(arguments: [
        ("<html>oops</html>", "not_json"),
        (#"{"tracks": [1, 2"#, "not_json"),
        (#"{"tracks": 3}"#, "no_tracks"),
        (#"{"subtitles": []}"#, "no_tracks"),
        (#"[{"name": "English"}]"#, "no_tracks"),
    ])
    func anUnreadableAnswerFailsWithItsReason(body: String, label: String) async throws {
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(body)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"))
        #expect(Self.reason(await fixture.tracks())?.hasPrefix("\(label):") == true)
        #expect(fixture.metrics.tracksBackendFetches(failedFor: label) == 1)
        #expect(fixture.metrics.tracksBackendFetches(failedFor: nil) == 0)
        #expect(fixture.warnings.withLock { $0 }.count == 1)
    }

    @Test func anAnswerLargerThanTheLimitFailsAsTooLarge() async throws {
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(#"{"tracks": [\#(Self.english), \#(Self.french)]}"#)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), limits: #"{"max_tracks_response_bytes": 64}"#)
        #expect(Self.reason(await fixture.tracks())?.hasPrefix("too_large:") == true)
        #expect(fixture.metrics.tracksBackendFetches(failedFor: "too_large") == 1)
    }

    @Test func theMetricsTextCountsFetchesAndFailuresByReason() async throws {
        let origin = try TestOrigin(routes: ["/ok": Self.answer(#"{"tracks": []}"#)])
        let good = try Fixture(tracksURL: origin.url("/ok"))
        _ = await good.tracks()
        let bad = try Fixture(tracksURL: origin.url("/missing"))
        _ = await bad.tracks()
        #expect(good.metrics.render(openConnections: 0, caches: []).contains("hls_proxy_tracks_backend_fetches_total 1\n"))
        #expect(bad.metrics.render(openConnections: 0, caches: []).contains("hls_proxy_tracks_backend_failures_total{reason=\"status\"} 1\n"))
    }

    // MARK: Invalid tracks

    @Test func anInvalidTrackIsDroppedAloneWithItsReason() async throws {
        let answer = #"""
            {"tracks": [
              \#(Self.english),
              {"name": "Klingon", "language": "not a tag!", "source": "http://127.0.0.1:9/tlh.vtt"},
              {"name": "Spanish", "language": "es", "source": "http://127.0.0.1:9/es.vtt", "colour": "red"},
              {"name": "English", "language": "en-GB", "source": "http://127.0.0.1:9/gb.vtt"},
              {"name": "Secret", "language": "sv", "source": "http://127.0.0.1:9/${HOME}.vtt"},
              \#(Self.french),
              {"name": "Second default", "language": "it", "default": true, "source": "http://127.0.0.1:9/it.vtt"}
            ]}
            """#
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(answer)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), environment: ["HOME": "/root"])
        let result = await fixture.tracks()
        #expect(Self.tracks(result).map(\.id) == ["en", "fr"])
        #expect(Self.dropped(result) == 5)
        let warnings = fixture.warnings.withLock { $0 }
        #expect(warnings.count == 5)
        #expect(warnings.contains { $0.contains("tracks[1].language") })
        #expect(warnings.contains { $0.contains("tracks[2].colour: unknown key") })
        #expect(warnings.contains { $0.contains("tracks[3].name") && $0.contains("unique") })
        // The proxy's environment is never read for a backend's answer.
        #expect(warnings.contains { $0.contains("tracks[4].source") && $0.contains("HOME is not set") })
        #expect(warnings.contains { $0.contains("tracks[6].default") && $0.contains("at most one default") })
        #expect(fixture.metrics.tracksBackendFetches(failedFor: nil) == 1)
    }

    @Test func aRepeatedIdIsDroppedAndOmittedIdsFollowTheLanguage() async throws {
        let answer = #"""
            {"tracks": [
              {"id": "main", "name": "A", "language": "en", "source": "http://127.0.0.1:9/a.vtt"},
              {"id": "main", "name": "B", "language": "fr", "source": "http://127.0.0.1:9/b.vtt"},
              {"name": "C", "language": "en", "source": "http://127.0.0.1:9/c.vtt"},
              {"name": "D", "language": "en", "source": "http://127.0.0.1:9/d.vtt"}
            ]}
            """#
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(answer)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"))
        let result = await fixture.tracks()
        #expect(Self.tracks(result).map(\.id) == ["main", "en", "en-2"])
        #expect(Self.dropped(result) == 1)
    }

    // MARK: Sources

    @Test func aSourceOnAHostNotAllowedIsDropped() async throws {
        let answer = #"{"tracks": [\#(Self.english), {"name": "Evil", "language": "de", "source": "http://attacker.example/de.vtt"}]}"#
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(answer)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"))
        let result = await fixture.tracks()
        #expect(Self.tracks(result).map(\.id) == ["en"])
        #expect(Self.dropped(result) == 1)
        // The refusal is kept for the tracks TTL: the next master drops it again without another warn line.
        #expect(await fixture.tracks(masterURL: "http://127.0.0.1:9/vod/b/master.m3u8") == result)
        let refusals = fixture.warnings.withLock { $0 }.filter { $0.contains("attacker.example is on neither embedded.allow_hosts nor the set's source_hosts") }
        #expect(refusals.count == 1)
    }

    @Test func tracksPastTheFirstHundredAreDroppedInOneWarnLine() async throws {
        let many = (0..<150).map { #"{"id": "t\#($0)", "name": "Track \#($0)", "language": "en", "source": "http://127.0.0.1:9/\#($0).vtt"}"# }
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(#"{"tracks": [\#(many.joined(separator: ","))]}"#)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"))
        let result = await fixture.tracks()
        #expect(Self.tracks(result).count == TrackBackend.maxTracks)
        #expect(Self.tracks(result).last?.id == "t99")
        #expect(Self.dropped(result) == 50)
        #expect(fixture.warnings.withLock { $0 }.count == 1)
    }

    @Test func aSourceThatIsNotHTTPIsDropped() async throws {
        let answer = #"{"tracks": [\#(Self.english), {"name": "File", "language": "de", "source": "de.vtt"}]}"#
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(answer)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"))
        let result = await fixture.tracks(masterURL: "file:///srv/vod/a/master.m3u8")
        #expect(Self.tracks(result).map(\.id) == ["en"])
    }

    @Test func aSourceHostResolvingToAPrivateAddressIsRefusedUnlessPrivateNetworksAreAllowed() async throws {
        let answer = #"{"tracks": [\#(Self.english), {"name": "Inside", "language": "de", "source": "https://subs.cdn.example/de.vtt"}]}"#
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(answer)])
        let resolver = HostResolver { host throws(HTTPClientError) in
            if let literal = IPAddress(host) { return [literal] }
            guard host == "subs.cdn.example", let inside = IPAddress("10.1.2.3") else { throw .dnsFailure("unknown") }
            return [inside]
        }
        let strict = try Fixture(tracksURL: origin.url("/api/a"), embedded: #"{"allow_hosts": ["*.cdn.example"]}"#, resolver: resolver)
        let refused = await strict.tracks()
        #expect(Self.tracks(refused).map(\.id) == ["en"])
        #expect(strict.warnings.withLock { $0 }.contains { $0.contains("resolves to 10.1.2.3, a loopback, link-local or private address") })
        let open = try Fixture(
            tracksURL: origin.url("/api/a"), embedded: #"{"allow_hosts": ["*.cdn.example"], "allow_private_networks": true}"#, resolver: resolver)
        #expect(Self.tracks(await open.tracks()).map(\.id) == ["en", "de"])
    }

    @Test func aSourceHostOnlyOnSourceHostsIsAllowed() async throws {
        let answer = #"{"tracks": [{"name": "German", "language": "de", "source": "https://vtt.partner.example/de.vtt"}]}"#
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(answer)])
        let resolver = HostResolver { _ throws(HTTPClientError) in IPAddress("93.184.216.34").map { [$0] } ?? [] }
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), sourceHosts: #"["vtt.partner.example"]"#, resolver: resolver)
        #expect(Self.tracks(await fixture.tracks()).map(\.source) == ["https://vtt.partner.example/de.vtt"])
    }

    // MARK: What is sent

    @Test func onlyTheTracksHeadersReachTheBackendNeverAMountsOrAClients() async throws {
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(#"{"tracks": []}"#)])
        let fixture = try Fixture(
            tracksURL: origin.url("/api/a"), setFields: #", "tracks_headers": {"X-Backend-Token": "${BACKEND_TOKEN}"}"#,
            environment: ["BACKEND_TOKEN": "t0ken"])
        _ = await fixture.tracks()
        let request = try #require(origin.requests(path: "/api/a").first)
        #expect(request.method == "GET")
        #expect(request.headers["X-Backend-Token"] == "t0ken")
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.headers["X-Mount-Secret"] == nil)
        let names = Set(request.headers.map { $0.name.lowercased() })
        #expect(names.isSubset(of: ["host", "user-agent", "accept", "accept-encoding", "connection", "x-backend-token"]))
    }

    // MARK: Sharing and caching

    @Test func concurrentFirstCallsMakeOneBackendRequest() async throws {
        let origin = try TestOrigin(routes: ["/api/a": .gated(TestOrigin.response(status: 200, body: Array(#"{"tracks": [\#(Self.english)]}"#.utf8)))])
        defer { origin.stop() }
        let fixture = try Fixture(tracksURL: origin.url("/api/a"))
        let results = try await withThrowingTaskGroup(of: TrackBackendResult.self) { group in
            for _ in 0..<8 { group.addTask { await fixture.tracks() } }
            // The backend answers only once the other seven callers wait on the first one's fetch.
            try await eventually { fixture.backend.cache.fetchesJoined >= 7 }
            origin.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { Self.tracks($0).map(\.id) == ["en"] })
        #expect(origin.requests(path: "/api/a").count == 1)
        #expect(fixture.metrics.tracksBackendFetches(failedFor: nil) == 1)
    }

    @Test func anAnswerIsCachedPerURLAndHeaderSet() async throws {
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(#"{"tracks": [\#(Self.english)]}"#)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), setFields: #", "tracks_headers": {"X-Tenant": "one"}"#)
        _ = await fixture.tracks()
        // Another master sharing the URL shares the answer; its own sources are resolved for it.
        _ = await fixture.tracks(masterURL: "http://127.0.0.1:9/vod/b/master.m3u8")
        #expect(origin.requests(path: "/api/a").count == 1)
        var otherTenant = fixture.set
        otherTenant.tracksHeaders = [Mount.Header(name: "X-Tenant", value: "two")]
        let other = await fixture.backend.tracks(url: origin.url("/api/a"), set: otherTenant, masterURL: "http://127.0.0.1:9/vod/a/master.m3u8")
        #expect(Self.tracks(other).map(\.id) == ["en"])
        #expect(origin.requests(path: "/api/a").map { $0.headers["X-Tenant"] } == ["one", "two"])
    }

    @Test func anAnswerIsFetchedAgainOnceTheTracksTTLHasPassed() async throws {
        let origin = try TestOrigin(routes: ["/api/a": Self.answer(#"{"tracks": []}"#)])
        let fixture = try Fixture(tracksURL: origin.url("/api/a"), cache: #"{"tracks_ttl_seconds": 0}"#)
        _ = await fixture.tracks()
        _ = await fixture.tracks()
        #expect(origin.requests(path: "/api/a").count == 2)
    }

    @Test func aFailureIsCachedForTheFallbackTTLSoADownBackendIsNotHammered() async throws {
        let origin = try TestOrigin(routes: [:])
        let kept = try Fixture(tracksURL: origin.url("/api/kept"), cache: #"{"fallback_ttl_seconds": 60}"#)
        for _ in 0..<3 { #expect(Self.reason(await kept.tracks()) != nil) }
        #expect(origin.requests(path: "/api/kept").count == 1)
        #expect(kept.warnings.withLock { $0 }.count == 1)
        let unkept = try Fixture(tracksURL: origin.url("/api/unkept"), cache: #"{"fallback_ttl_seconds": 0}"#)
        for _ in 0..<2 { _ = await unkept.tracks() }
        #expect(origin.requests(path: "/api/unkept").count == 2)
    }
}
