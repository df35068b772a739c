import Foundation
@testable import HTTPClient
@testable import HTTPServer
@testable import Proxy
import Synchronization
import TestSupport
import Testing

/// A redirect hop to a host that is not a mount origin is vetted by address, and that lookup runs on a
/// thread of its own: it counts against `limits.max_origin_exchanges` like the first hop's lookup and
/// every exchange, so an origin that redirects every request to a name whose DNS hangs cannot collect
/// one thread per cold request.
@Suite(.timeLimit(.minutes(1))) struct HardeningRedirectHopLimitTests {
    static let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8\n".utf8)

    /// Answers `slow.example` with 127.0.0.1 once `release()` is called, holding each lookup's thread
    /// until then; counts those lookups. Every other name as the system does.
    final class HangingResolver: Sendable {
        let lookups = Atomic<Int>(0)
        let released = Atomic<Bool>(false)

        func release() { released.store(true, ordering: .relaxed) }

        var resolver: HostResolver {
            HostResolver { [self] host throws(HTTPClientError) in
                guard host == "slow.example" else { return try HostResolver.system.addresses(of: host) }
                lookups.add(1, ordering: .relaxed)
                while !released.load(ordering: .relaxed) { Thread.sleep(forTimeInterval: 0.005) }
                return [IPAddress(bytes: [127, 0, 0, 1])].compactMap { $0 }
            }
        }
    }

    static func config(origin: String) -> String {
        """
        { "mounts": { "m": { "origin": "\(origin)" } },
          "embedded": { "allow_hosts": ["127.0.0.1"] },
          "subtitles": [ { "name": "s", "masters": ["/m/*.m3u8"],
            "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "/en.vtt", "mode": "single", "mpegts": 900000 } ] } ],
          "timeouts": { "origin_seconds": 20 }, "limits": { "max_origin_exchanges": 2 } }
        """
    }

    @Test func aRedirectHopsAddressLookupHoldsAnExchangeSlotSoRequestsPastTheCeilingAreShed() async throws {
        let port = Mutex(0)
        let origin = try TestOrigin(routes: [
            "/away.m3u8": .computed {
                TestOrigin.response(status: 302, headers: [("Location", "http://slow.example:\(port.withLock { $0 })/final.m3u8")], body: [])
            },
            "/final.m3u8": .raw(TestOrigin.response(status: 200, body: Self.master)),
            "/plain.m3u8": .raw(TestOrigin.response(status: 200, body: Self.master)),
        ])
        defer { origin.stop() }
        port.withLock { $0 = origin.port }
        let hanging = HangingResolver()
        defer { hanging.release() }
        try await withProxy(Self.config(origin: origin.url("")), resolver: hanging.resolver) { proxy in
            let slots = proxy.service.handler.origin.exchangeSlots
            let redirected = (1...2).map { n in Task { try await proxy.get("/m/away.m3u8?n=\(n)") } }
            try await eventually { hanging.lookups.load(ordering: .relaxed) == 2 }
            // Both hops' lookups hang, each on a thread of its own: both slots are theirs.
            try await eventually("in flight: \(slots.inFlight)") { slots.inFlight == 2 }
            let shed = try await proxy.get("/m/plain.m3u8?n=3")
            HardeningOriginExchangeLimitTests.expectShed(shed)
            hanging.release()
            for request in redirected {
                let response = try await request.value
                #expect(response.status == 200)
                #expect(response.text.contains("TYPE=SUBTITLES"))
            }
            try await eventually { slots.inFlight == 0 }
            #expect(try await proxy.get("/m/plain.m3u8?n=3").status == 200)
        }
        // The shed request never reached the origin.
        #expect(origin.requests(path: "/plain.m3u8").count == 1)
    }

    @Test func aRedirectHopWhoseAddressCheckFindsNoSlotIsShedNotRefused() async throws {
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "http://elsewhere.example/b")])
        defer { origin.stop() }
        var request = OriginRequest(url: origin.url("/a"), maxBodyBytes: 100)
        request.redirectAddresses = { _ in .shed(limit: 7) }
        await #expect(throws: OriginError.overloaded(limit: 7)) { try await makeTestClient().fetch(request) }
    }
}
