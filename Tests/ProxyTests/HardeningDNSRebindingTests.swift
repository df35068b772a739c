import Foundation
@testable import HTTPClient
@testable import HTTPServer
import Synchronization
import TestSupport
import Testing

/// DNS rebinding: a name is resolved to check it against the SSRF policy; the connect must go to the
/// addresses that were checked, never to whatever a second lookup answers. A test resolver plays the
/// rebinding DNS server: `localhost` first answers 127.0.0.2 (listed, so permitted), then 127.0.0.1
/// (refused). Two origins share one port: the permitted one on 127.0.0.2, the refused one on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct HardeningDNSRebindingTests {
    static let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8\n".utf8)

    /// Answers `localhost` with 127.0.0.2 on odd-numbered lookups and 127.0.0.1 on even ones; every
    /// other name as the system does. Counts its lookups of `localhost`.
    final class FlippingResolver: Sendable {
        let lookups = Atomic<Int>(0)

        var resolver: HostResolver {
            HostResolver { [self] host throws(HTTPClientError) in
                guard host == "localhost" else { return try HostResolver.system.addresses(of: host) }
                let count = lookups.add(1, ordering: .relaxed).newValue
                return [IPAddress(bytes: [127, 0, 0, count % 2 == 1 ? 2 : 1])].compactMap { $0 }
            }
        }
    }

    /// The permitted origin on 127.0.0.2 and the refused one on 127.0.0.1, on the same port.
    static func makeOrigins() throws -> (permitted: TestOrigin, refused: TestOrigin) {
        let routes: [String: TestOrigin.Behaviour] = [
            "/master.m3u8": .raw(TestOrigin.response(status: 200, body: master)),
        ]
        return try onSharedPort { port in
            let permitted = try TestOrigin(routes: routes, address: "127.0.0.2", port: port)
            do {
                return (permitted, try TestOrigin(routes: routes, address: "127.0.0.1", port: permitted.port))
            } catch {
                permitted.stop()
                throw error
            }
        }
    }

    /// Runs `make` until it binds both addresses: another test may take the free port 127.0.0.2 was
    /// given on 127.0.0.1 in between, so a fresh port is tried then.
    static func onSharedPort<Pair>(_ make: (Int) throws -> Pair) throws -> Pair {
        var lastError: (any Error)?
        for _ in 0..<20 {
            do { return try make(0) } catch { lastError = error }
        }
        throw lastError ?? TestOriginError.setup("no shared port")
    }

    static func config(mountOrigin: String? = nil) -> String {
        let mounts = mountOrigin.map { #""m": { "origin": "\#($0)" }"# } ?? ""
        return """
            { "mounts": { \(mounts) }, "embedded": { "allow_hosts": ["localhost", "127.0.0.2"] },
              "subtitles": [ { "name": "s", "masters": ["/http/*", "/m/*"],
                "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "/none.vtt" } ] } ],
              "timeouts": { "origin_seconds": 5 } }
            """
    }

    @Test func anEmbeddedFetchConnectsToTheAddressItCheckedNotToARebindingAnswer() async throws {
        let (permitted, refused) = try Self.makeOrigins()
        defer { permitted.stop(); refused.stop() }
        let flipping = FlippingResolver()
        try await withProxy(Self.config(), resolver: flipping.resolver) { proxy in
            var statuses: [Int] = []
            for attempt in 0..<20 {
                // A query per attempt: no answer comes from the master cache.
                statuses.append(try await proxy.get("/http/localhost:\(permitted.port)/master.m3u8?n=\(attempt)").status)
            }
            // Each fetch looks the name up once: the checks that saw 127.0.0.1 refuse, the others pass.
            #expect(statuses.filter { $0 == 200 }.count == 10, "\(statuses)")
            #expect(statuses.filter { $0 == 403 }.count == 10, "\(statuses)")
        }
        #expect(flipping.lookups.load(ordering: .relaxed) == 20)
        #expect(permitted.requests(path: "/master.m3u8").count == 10)
        #expect(refused.requests().count == 0, "the refused address was reached")
    }

    @Test func aRedirectHopConnectsToTheAddressItCheckedNotToARebindingAnswer() async throws {
        let (permitted, refused) = try Self.makeOrigins()
        defer { permitted.stop(); refused.stop() }
        let mount = try TestOrigin(routes: [
            "/master.m3u8": TestOrigin.redirect(to: "http://localhost:\(permitted.port)/master.m3u8"),
        ])
        defer { mount.stop() }
        let flipping = FlippingResolver()
        try await withProxy(Self.config(mountOrigin: mount.url("")), resolver: flipping.resolver) { proxy in
            var statuses: [Int] = []
            for attempt in 0..<20 {
                statuses.append(try await proxy.get("/m/master.m3u8?n=\(attempt)").status)
            }
            #expect(statuses.filter { $0 == 200 }.count == 10, "\(statuses)")
            #expect(statuses.filter { $0 == 502 }.count == 10, "\(statuses)")
        }
        #expect(permitted.requests(path: "/master.m3u8").count == 10)
        #expect(refused.requests().count == 0, "the refused address was reached")
    }

    @Test func aPooledConnectionToOneAddressIsNotReusedForTheSameNameNowResolvingToAnother() async throws {
        let (first, second) = try Self.onSharedPort { port in
            let first = try KeepAliveOrigin(address: "127.0.0.1", port: port, always: .respond(KeepAliveOrigin.response("first")))
            do {
                return (first, try KeepAliveOrigin(address: "127.0.0.2", port: first.port, always: .respond(KeepAliveOrigin.response("second"))))
            } catch {
                first.stop()
                throw error
            }
        }
        defer { first.stop(); second.stop() }
        let pool = HTTPConnectionPool()
        func get(via address: String) async throws -> String {
            var request = HTTPClientRequest(host: "localhost", port: first.port, target: "/")
            request.addresses = [try #require(IPAddress(address))]
            let response = try await HTTPClient.send(request, connectTimeout: .seconds(10), deadline: .seconds(30), maxBodyBytes: 100, pool: pool)
            return String(decoding: response.body, as: UTF8.self)
        }
        #expect(try await get(via: "127.0.0.1") == "first")
        #expect(pool.idleCount == 1)
        // Same host name and port, now vetted at another address: a new connection goes there.
        #expect(try await get(via: "127.0.0.2") == "second")
        #expect(first.requests.count == 1)
        #expect(second.requests.count == 1)
        // Each address keeps its own connection, reused for its own address only.
        #expect(try await get(via: "127.0.0.1") == "first")
        #expect(first.acceptedConnections == 1)
        #expect(first.requestsPerConnection == [2])
        #expect(pool.idleCount == 2)
    }

    @Test func aVettedHTTPSConnectionGoesToTheCheckedAddressAndStillVerifiesTheHostName() async throws {
        let origin = try TLSTestOrigin(routes: ["/": TestOrigin.response(status: 200, body: Array("secure".utf8))])
        defer { origin.stop() }
        let context = TLSContext(caFile: TLSTestOrigin.caFile)
        let loopback = try #require(IPAddress("127.0.0.1"))
        // The name is only for SNI and the certificate: the connect goes to the vetted address.
        var request = HTTPClientRequest(host: "localhost", port: origin.port, target: "/", tls: context)
        request.addresses = [loopback]
        let response = try await HTTPClient.send(request, connectTimeout: .seconds(10), deadline: .seconds(30), maxBodyBytes: 100)
        #expect(response.body == Array("secure".utf8))
        #expect(origin.serverNames.last == "localhost")
        // A name the certificate does not carry fails, whatever address it was vetted at.
        var other = HTTPClientRequest(host: "other.example", port: origin.port, target: "/", tls: context)
        other.addresses = [loopback]
        await #expect {
            _ = try await HTTPClient.send(other, connectTimeout: .seconds(10), deadline: .seconds(30), maxBodyBytes: 100)
        } throws: { error in
            guard case .tlsHandshakeFailed = error as? HTTPClientError else { return false }
            return true
        }
    }
}
