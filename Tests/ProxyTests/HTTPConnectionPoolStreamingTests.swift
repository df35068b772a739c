import HTTPClient
import HTTPServer
@testable import Proxy
import TestSupport
import Testing

/// Streamed bodies give their connection back only when read to the end; https connections keep
/// their TLS session; the origin client reuses connections across fetches and streams.
@Suite(.timeLimit(.minutes(1))) struct HTTPConnectionPoolStreamingTests {
    static func stream(_ origin: KeepAliveOrigin, _ path: String = "/", pool: HTTPConnectionPool) async throws -> HTTPClientStreamingResponse {
        try await HTTPClient.stream(
            HTTPClientRequest(host: "127.0.0.1", port: origin.port, target: path),
            connectTimeout: .seconds(10), headTimeout: .seconds(30), idleTimeout: .seconds(30), bufferBytes: 64 * 1024, pool: pool)
    }

    /// Four MiB: far more than the stream's buffer and the sockets' buffers hold.
    static let bigBody = String(repeating: "0123456789abcdef", count: 1 << 18)

    @Test func aStreamedBodyReadToTheEndGivesItsConnectionBack() async throws {
        let origin = try KeepAliveOrigin { path, _ in .respond(KeepAliveOrigin.response(path == "/big" ? Self.bigBody : "small")) }
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        let response = try await Self.stream(origin, "/big", pool: pool)
        var total = 0
        while let piece = try await response.body.next() { total += piece.count }
        #expect(total == Self.bigBody.utf8.count)
        #expect(pool.idleCount == 1)
        let next = try await HTTPClient.send(
            HTTPClientRequest(host: "127.0.0.1", port: origin.port, target: "/"),
            connectTimeout: .seconds(10), deadline: .seconds(30), maxBodyBytes: 1 << 20, pool: pool)
        #expect(next.body == Array("small".utf8))
        #expect(origin.requestsPerConnection == [2])
    }

    @Test func anEmptyStreamedBodyFreesItsConnectionAtOnce() async throws {
        let origin = try KeepAliveOrigin(always: .respond(Array("HTTP/1.1 304 Not Modified\r\n\r\n".utf8)))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        let response = try await Self.stream(origin, pool: pool)
        #expect(response.bodyLength == 0)
        // Nobody reads the (empty) body; the connection is back anyway.
        #expect(pool.idleCount == 1)
        _ = try await Self.stream(origin, pool: pool)
        #expect(origin.requestsPerConnection == [2])
    }

    @Test(arguments: [false, true])
    func aStreamCancelledOrDroppedBeforeItsEndClosesItsConnection(dropped: Bool) async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response(Self.bigBody)))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        do {
            let response = try await Self.stream(origin, pool: pool)
            #expect(try await response.body.next() != nil)
            if !dropped { response.body.cancel() }
        }
        try await eventually { origin.openConnections == 0 }
        #expect(pool.idleCount == 0)
    }

    @Test func aSmallBodyAbandonedBeforeItsEndIsNotReusedEvenIfFullyReceived() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("tiny")))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        let response = try await Self.stream(origin, pool: pool)
        // The exchange has all four bytes; the consumer never asks for them.
        response.body.cancel()
        try await eventually { origin.openConnections == 0 }
        #expect(pool.idleCount == 0)
    }

    @Test func twoHTTPSFetchesMakeOneHandshakeOnOneConnection() async throws {
        let origin = try KeepAliveOrigin(tls: true, always: .respond(KeepAliveOrigin.response("secure")))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        let context = TLSContext(caFile: TLSTestOrigin.caFile)
        for _ in 0..<2 {
            let response = try await HTTPClient.send(
                HTTPClientRequest(host: "127.0.0.1", port: origin.port, target: "/", tls: context),
                connectTimeout: .seconds(10), deadline: .seconds(30), maxBodyBytes: 100, pool: pool)
            #expect(response.body == Array("secure".utf8))
        }
        // The origin runs one TLS accept per TCP connection.
        #expect(origin.acceptedConnections == 1)
        #expect(origin.requestsPerConnection == [2])
        // Another context means another trust decision: its requests never ride this connection.
        _ = try await HTTPClient.send(
            HTTPClientRequest(host: "127.0.0.1", port: origin.port, target: "/", tls: TLSContext(caFile: TLSTestOrigin.caFile)),
            connectTimeout: .seconds(10), deadline: .seconds(30), maxBodyBytes: 100, pool: pool)
        #expect(origin.acceptedConnections == 2)
    }

    @Test func anHTTPSConnectionTheOriginClosedIsReplaced() async throws {
        let origin = try KeepAliveOrigin(tls: true, always: .respond(KeepAliveOrigin.response("secure")))
        defer { origin.stop() }
        let client = OriginClientHTTPSTests.trustingClient()
        _ = try await client.fetch(OriginRequest(url: "https://127.0.0.1:\(origin.port)/a", maxBodyBytes: 100))
        origin.closeIdleConnections()
        try await eventually { origin.openConnections == 0 }
        let response = try await client.fetch(OriginRequest(url: "https://127.0.0.1:\(origin.port)/b", maxBodyBytes: 100))
        #expect(response.body == Array("secure".utf8))
        #expect(origin.requestsPerConnection == [1, 1])
    }

    @Test func theOriginClientReusesOneConnectionForFetchesAndStreams() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("#EXTM3U\n")))
        defer { origin.stop() }
        let client = OriginClient(configuration: OriginClient.Configuration())
        for path in ["/a.m3u8", "/b.m3u8"] {
            #expect(try await client.fetch(OriginRequest(url: "http://127.0.0.1:\(origin.port)\(path)", maxBodyBytes: 100)).status == 200)
        }
        let stream = try await client.stream(OriginRequest(url: "http://127.0.0.1:\(origin.port)/seg.ts", maxBodyBytes: 100))
        while try await stream.next() != nil {}
        #expect(try await client.fetch(OriginRequest(url: "http://127.0.0.1:\(origin.port)/c.m3u8", maxBodyBytes: 100)).status == 200)
        #expect(origin.requestsPerConnection == [4])
        #expect(origin.requests.allSatisfy { $0.headers["Connection"] == nil })
    }
}
