import Foundation
@testable import HTTPClient
@testable import HTTPServer
@testable import Proxy
import Synchronization
import TestSupport
import Testing

/// Origin fetches are bounded: each exchange holds a thread and two descriptors until it ends, so a
/// hanging origin must not collect one per cold request. Past `limits.max_origin_exchanges` a request
/// is shed at once with 503, `Retry-After: 1` and no caching; identical fetches still coalesce, and
/// once the origin answers again, so does the proxy.
@Suite(.timeLimit(.minutes(1))) struct HardeningOriginExchangeLimitTests {
    static let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8\n".utf8)
    static let limit = 4

    static func config(origin: String, limit: Int? = HardeningOriginExchangeLimitTests.limit) -> String {
        let limits = limit.map { #", "limits": { "max_origin_exchanges": \#($0) }"# } ?? ""
        return """
            { "mounts": { "m": { "origin": "\(origin)", "segments": "proxy" } },
              "subtitles": [ { "name": "s", "masters": ["/m/*.m3u8"],
                "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "/en.vtt", "mode": "single" } ] } ],
              "timeouts": { "origin_seconds": 20 }\(limits) }
            """
    }

    /// An origin whose every answer waits for `release()`: a hanging origin that can be let go.
    static func makeGatedOrigin() throws -> TestOrigin {
        try TestOrigin(routes: [
            "/master.m3u8": .gated(TestOrigin.response(status: 200, body: master)),
            "/v.m3u8": .gated(TestOrigin.response(status: 200, body: Array("#EXTM3U\n#EXTINF:4,\ns.ts\n#EXT-X-ENDLIST\n".utf8))),
            "/seg.ts": .gated(TestOrigin.response(status: 200, body: [UInt8](repeating: 0x47, count: 188))),
            "/en.vtt": .gated(TestOrigin.response(status: 200, body: Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n".utf8))),
        ])
    }

    static func subtitleFile(master: String) -> String {
        let encoded = Data(master.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "/_hls-proxy/v1/s/en/\(encoded)/0.vtt"
    }

    static func metric(_ name: String, in text: String) -> Int? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    static func expectShed(_ response: RawResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 503, sourceLocation: sourceLocation)
        #expect(response.header("Retry-After") == "1", sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
        #expect(response.text.contains("too many origin fetches in flight"), "\(response.text)", sourceLocation: sourceLocation)
    }

    @Test func coldRequestsPastTheExchangeLimitAreShedAtOnceWhileTheOriginHangs() async throws {
        let origin = try Self.makeGatedOrigin()
        defer { origin.stop() }
        try await withProxy(Self.config(origin: origin.url(""))) { proxy in
            // Fill every slot with distinct cold masters that hang at the origin.
            let hanging = (0..<Self.limit).map { index in
                Task { try await proxy.get("/m/master.m3u8?n=\(index)") }
            }
            try await eventually { origin.requests().count == Self.limit }
            // An identical fetch joins one in flight instead of taking a slot (or being shed).
            let joined = Task { try await proxy.get("/m/master.m3u8?n=0") }
            try await eventually { proxy.service.handler.origin.coalescer.waitingCount == Self.limit + 1 }

            // Distinct cold requests past the limit, of every kind that fetches: shed while the others still hang.
            for index in 0..<12 {
                Self.expectShed(try await proxy.get("/m/master.m3u8?extra=\(index)"))
            }
            Self.expectShed(try await proxy.get("/m/seg.ts?extra=1"))
            // A subtitle file over the cap is not an empty track: load shedding is not a broken source.
            let subtitle = try await proxy.get(Self.subtitleFile(master: "/m/master.m3u8?sub=1"))
            Self.expectShed(subtitle)
            #expect(!subtitle.text.hasPrefix("WEBVTT"))

            // No exchange (and so no thread or origin connection) was started for any of them.
            #expect(origin.requests().count == Self.limit)
            let metrics = try await proxy.get("/metrics").text
            #expect(Self.metric("hls_proxy_origin_exchanges", in: metrics) == Self.limit)
            #expect(Self.metric("hls_proxy_origin_exchanges_limit", in: metrics) == Self.limit)
            #expect((Self.metric("hls_proxy_origin_shed_total", in: metrics) ?? 0) >= 14)
            #expect(!metrics.contains("hls_proxy_subtitle_fallbacks_total{"))

            // Released, the origin answers the hanging ones and the joined one, and new requests get through.
            origin.release()
            for task in hanging { #expect(try await task.value.status == 200) }
            #expect(try await joined.value.status == 200)
            #expect(origin.requests(path: "/master.m3u8").count == Self.limit)
            try await eventually { proxy.service.handler.origin.exchangeSlots.inFlight == 0 }
            let after = try await proxy.get("/m/master.m3u8?extra=0")
            #expect(after.status == 200)
            #expect(after.text.contains("TYPE=SUBTITLES"))
            // The shed answer was not cached: the same subtitle URL now gets its cues.
            let subtitleAfter = try await proxy.get(Self.subtitleFile(master: "/m/master.m3u8?sub=1"))
            #expect(subtitleAfter.status == 200)
            #expect(subtitleAfter.text.contains("hi"))
            #expect(try await proxy.get("/m/seg.ts?extra=1").status == 200)
        }
    }

    /// A buffered exchange gives its slot back before its caller resumes, so fetches one after another
    /// through a single slot are never refused by the one before (a master fetch, then its variant).
    @Test func fetchesOneAfterAnotherThroughOneSlotAreNeverRefused() async throws {
        let origin = try TestOrigin(routes: ["/a": .raw(TestOrigin.response(status: 200, body: Array("a".utf8)))])
        defer { origin.stop() }
        let slots = HTTPExchangeSlots(limit: 1)
        for _ in 0..<300 {
            let response = try await HTTPClient.send(
                HTTPClientRequest(host: "127.0.0.1", port: origin.port, target: "/a"), connectTimeout: .seconds(5), deadline: .seconds(10),
                maxBodyBytes: 1 << 16, pool: nil, slots: slots)
            #expect(response.status == 200)
        }
        #expect(slots.refused == 0)
    }

    @Test func aStreamedSegmentHoldsItsSlotUntilItsBodyIsDone() async throws {
        let origin = try Self.makeGatedOrigin()
        defer { origin.stop() }
        try await withProxy(Self.config(origin: origin.url(""), limit: 1)) { proxy in
            let streaming = Task { try await proxy.get("/m/seg.ts?n=1") }
            try await eventually { origin.requests().count == 1 }
            Self.expectShed(try await proxy.get("/m/seg.ts?n=2"))
            origin.release()
            #expect(try await streaming.value.body.count == 188)
            try await eventually { proxy.service.handler.origin.exchangeSlots.inFlight == 0 }
            #expect(try await proxy.get("/m/seg.ts?n=2").status == 200)
        }
    }

    @Test func anAddressCheckLookupTakesASlotAndIsShedWhenNoneIsFree() async throws {
        let slots = HTTPExchangeSlots(limit: 1)
        let lookups = Mutex(0)
        let resolver = HostResolver { _ in
            lookups.withLock { $0 += 1 }
            return [IPAddress(bytes: [192, 0, 2, 1])].compactMap { $0 }
        }
        #expect(try await resolver.resolve("a.example", slots: slots).count == 1)
        #expect(slots.inFlight == 0)
        #expect(slots.acquire())
        await #expect(throws: HTTPClientError.tooManyExchanges(limit: 1)) { try await resolver.resolve("b.example", slots: slots) }
        #expect(lookups.withLock { $0 } == 1)
        slots.release()
    }

    @Test func theDefaultCeilingIsAQuarterOfTheDescriptorLimitBetween16And1024() {
        #expect(OriginClient.defaultMaxExchanges(descriptorLimit: 1024) == 256)
        #expect(OriginClient.defaultMaxExchanges(descriptorLimit: 40) == 16)
        #expect(OriginClient.defaultMaxExchanges(descriptorLimit: 1_048_576) == 1024)
        #expect(OriginClient.defaultMaxExchanges(descriptorLimit: nil) == 1024)
        let derived = ProxyConfig.Limits()
        #expect(derived.maxOriginExchanges == nil)
        #expect(derived.effectiveMaxOriginExchanges == OriginClient.defaultMaxExchanges(descriptorLimit: HTTPExchangeSlots.descriptorLimit))
        #expect(derived.originExchangesSummary.contains("derived"))
    }

    @Test func maxOriginExchangesIsDecodedAndValidated() throws {
        let set = try ProxyConfig.decode(Array(#"{"limits": {"max_origin_exchanges": 64}}"#.utf8), environment: [:])
        #expect(set.limits.maxOriginExchanges == 64)
        #expect(set.limits.effectiveMaxOriginExchanges == 64)
        #expect(set.limits.originExchangesSummary == "origin exchanges: at most 64 in flight (limits.max_origin_exchanges); more get 503")
        for bad in ["0", "-3", "\"many\""] {
            #expect(throws: ConfigError.self) {
                try ProxyConfig.decode(Array(#"{"limits": {"max_origin_exchanges": \#(bad)}}"#.utf8), environment: [:])
            }
        }
    }
}
