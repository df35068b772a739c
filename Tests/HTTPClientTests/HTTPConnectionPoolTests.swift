@testable import HTTPClient
@testable import HTTPWire
import TestSupport
import Testing

/// When the client reuses a pooled connection and when it must not (RFC 9112 §9.3), judged by what a
/// real keep-alive origin saw: TCP connections accepted and requests on each.
@Suite(.timeLimit(.minutes(1))) struct HTTPConnectionPoolTests {
    /// A GET through `pool` with generous limits (a loaded machine can be slow; nothing here is timed).
    static func get(
        _ origin: KeepAliveOrigin, _ path: String = "/", method: HTTPMethod = .get, pool: HTTPConnectionPool?,
        maxBodyBytes: Int = 1 << 20
    ) async throws(HTTPClientError) -> HTTPClientResponse {
        try await HTTPClient.send(
            HTTPClientRequest(method: method, host: "127.0.0.1", port: origin.port, target: path),
            connectTimeout: .seconds(10), deadline: .seconds(30), maxBodyBytes: maxBodyBytes, pool: pool)
    }

    @Test func twoSequentialFetchesShareOneConnection() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("hello")))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        let first = try await Self.get(origin, "/a", pool: pool)
        let second = try await Self.get(origin, "/b", pool: pool)
        #expect(first.body == Array("hello".utf8))
        #expect(second.body == Array("hello".utf8))
        #expect(origin.acceptedConnections == 1)
        #expect(origin.requestsPerConnection == [2])
        #expect(pool.idleCount == 1)
    }

    @Test func aPooledRequestDoesNotAskForTheClose() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("x")))
        defer { origin.stop() }
        _ = try await Self.get(origin, pool: HTTPConnectionPool())
        _ = try await Self.get(origin, pool: nil)
        #expect(origin.requests.map { $0.headers["Connection"] } == [nil, "close"])
        let head = try HTTPClient.makeRequestHead(HTTPClientRequest(host: "h", target: "/"), keepAlive: true)
        #expect(String(decoding: head, as: UTF8.self) == "GET / HTTP/1.1\r\nHost: h\r\n\r\n")
    }

    @Test func withoutAPoolEveryFetchOpensItsOwnConnection() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("x")))
        defer { origin.stop() }
        _ = try await Self.get(origin, pool: nil)
        _ = try await Self.get(origin, pool: nil)
        #expect(origin.acceptedConnections == 2)
    }

    @Test func chunkedBodiesWithTrailersAndBodylessAnswersLeaveTheConnectionReusable() async throws {
        let chunked = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n".utf8)
        let origin = try KeepAliveOrigin { path, _ in
            switch path {
            case "/chunked": return .respond(chunked)
            case "/empty": return .respond(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))
            // A HEAD answer: the length of the body a GET would get, and no body.
            default: return .respond(Array("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n".utf8))
            }
        }
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        #expect(try await Self.get(origin, "/chunked", pool: pool).body == Array("abc".utf8))
        #expect(try await Self.get(origin, "/empty", pool: pool).status == 204)
        // RFC 9112 §6.3: a HEAD answer has no body whatever its Content-Length says.
        #expect(try await Self.get(origin, "/head", method: .head, pool: pool).body.isEmpty)
        #expect(try await Self.get(origin, "/chunked", pool: pool).body == Array("abc".utf8))
        #expect(origin.requestsPerConnection == [4])
    }

    @Test func anHTTP10AnswerKeepsItsConnectionOnlyWithExplicitKeepAlive() async throws {
        let plain = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("x", version: "HTTP/1.0")))
        defer { plain.stop() }
        let pool = HTTPConnectionPool()
        _ = try await Self.get(plain, pool: pool)
        #expect(pool.idleCount == 0)
        _ = try await Self.get(plain, pool: pool)
        #expect(plain.acceptedConnections == 2)

        let kept = try KeepAliveOrigin(always: .respond(
            KeepAliveOrigin.response("x", version: "HTTP/1.0", fields: [("Connection", "Keep-Alive")])))
        defer { kept.stop() }
        _ = try await Self.get(kept, pool: pool)
        _ = try await Self.get(kept, pool: pool)
        #expect(kept.acceptedConnections == 1)
    }

    @Test func aConnectionCloseAnswerIsNeverReusedEvenIfTheOriginKeepsTheSocketOpen() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("x", fields: [("Connection", "close")])))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        _ = try await Self.get(origin, pool: pool)
        #expect(pool.idleCount == 0)
        _ = try await Self.get(origin, pool: pool)
        #expect(origin.acceptedConnections == 2)
        // The client closed both: the origin sees no connection left open.
        try await eventually { origin.openConnections == 0 }
    }

    @Test func aBodyReadToTheCloseLeavesNothingInThePool() async throws {
        let origin = try KeepAliveOrigin(always: .respondAndClose(Array("HTTP/1.1 200 OK\r\n\r\nuntil the close".utf8)))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        #expect(try await Self.get(origin, pool: pool).body == Array("until the close".utf8))
        #expect(pool.idleCount == 0)
    }

    @Test func bytesBeyondTheResponseMakeTheConnectionUnusable() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("ab") + Array("HTTP/1.1 200 stray".utf8)))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        #expect(try await Self.get(origin, pool: pool).body == Array("ab".utf8))
        #expect(try await Self.get(origin, pool: pool).body == Array("ab".utf8))
        #expect(origin.acceptedConnections == 2)
    }

    @Test(arguments: [false, true])
    func aBodyOverTheCapClosesTheConnection(chunked: Bool) async throws {
        let body = String(repeating: "z", count: 100)
        let answer = chunked
            ? Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n\(body)\r\n0\r\n\r\n".utf8)
            : KeepAliveOrigin.response(body)
        let origin = try KeepAliveOrigin { path, _ in path == "/big" ? .respond(answer) : .respond(KeepAliveOrigin.response("ok")) }
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        await #expect(throws: HTTPClientError.bodyTooLarge(limit: 10)) { try await Self.get(origin, "/big", pool: pool, maxBodyBytes: 10) }
        #expect(pool.idleCount == 0)
        #expect(try await Self.get(origin, "/small", pool: pool).body == Array("ok".utf8))
        #expect(origin.acceptedConnections == 2)
    }

    @Test func aCancelledFetchClosesItsConnection() async throws {
        let origin = try KeepAliveOrigin(always: .gated(KeepAliveOrigin.response("late")))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        let fetch = Task { try await Self.get(origin, pool: pool) }
        try await eventually { origin.requests.count == 1 }
        fetch.cancel()
        await #expect(throws: HTTPClientError.cancelled) { try await fetch.value }
        #expect(pool.idleCount == 0)
        // The late answer goes into a socket the client closed; the origin's next read sees the close.
        origin.release()
        try await eventually { origin.openConnections == 0 }
        #expect(origin.requests.count == 1)
    }

    @Test func theNewestIdleConnectionIsReusedFirst() async throws {
        // Connection 0 answers its first request late, so it goes back to the pool after connection 1.
        let origin = try KeepAliveOrigin { _, place in
            place.connection == 0 && place.request == 0 ? .gated(KeepAliveOrigin.response("slow")) : .respond(KeepAliveOrigin.response("quick"))
        }
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        let slow = Task { try await Self.get(origin, pool: pool) }
        try await eventually { origin.requests.count == 1 }
        _ = try await Self.get(origin, pool: pool)
        origin.release()
        _ = try await slow.value
        #expect(pool.idleCount == 2)
        _ = try await Self.get(origin, pool: pool)
        #expect(origin.requestsPerConnection == [2, 1])
    }
}
