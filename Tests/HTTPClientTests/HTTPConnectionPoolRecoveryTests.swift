import Glibc
@testable import HTTPClient
import HTTPWire
import TestSupport
import Testing

/// Idle connections the origin closed, requests caught by a close, and the pool's bounds.
@Suite(.timeLimit(.minutes(1))) struct HTTPConnectionPoolRecoveryTests {
    typealias Pooled = HTTPConnectionPoolTests

    @Test func anIdleConnectionTheOriginClosedIsNoticedAndReplaced() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("fresh")))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        _ = try await Pooled.get(origin, pool: pool)
        origin.closeIdleConnections()
        try await eventually { origin.openConnections == 0 }
        #expect(try await Pooled.get(origin, pool: pool).body == Array("fresh".utf8))
        #expect(origin.requestsPerConnection == [1, 1])
    }

    @Test func anIdleSocketWithSomethingToReadIsNotReused() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("x")))
        defer { origin.stop() }
        let cancellation = HTTPClientCancellation()
        let connection = try HTTPClientConnection.open(
            host: "127.0.0.1", port: origin.port, connectDeadline: .now() + .seconds(10), deadline: .now() + .seconds(30),
            cancellation: cancellation)
        defer {
            connection.close()
            cancellation.close()
        }
        #expect(connection.isOpenAndQuiet())
        try connection.send(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        // The answer is unread: a connection in that state must not carry the next request.
        try await eventually { !connection.isOpenAndQuiet() }
        connection.close()
        #expect(!connection.isOpenAndQuiet())
    }

    @Test func aReusedConnectionClosedUnderTheRequestIsRetriedOnceOnANewOne() async throws {
        // The origin reads the second request on connection 0 and closes without a byte of answer.
        let origin = try KeepAliveOrigin { _, place in
            place.connection == 0 && place.request == 1 ? .closeWithoutAnswer : .respond(KeepAliveOrigin.response("ok"))
        }
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        _ = try await Pooled.get(origin, "/first", pool: pool)
        #expect(try await Pooled.get(origin, "/second", pool: pool).body == Array("ok".utf8))
        #expect(origin.requestsPerConnection == [2, 1])
        #expect(origin.requests.map(\.target) == ["/first", "/second", "/second"])
    }

    @Test func aNewConnectionClosedUnderTheRequestIsNotRetried() async throws {
        let origin = try KeepAliveOrigin(always: .closeWithoutAnswer)
        defer { origin.stop() }
        await #expect(throws: HTTPClientError.connectionLost("closed before a response")) {
            try await Pooled.get(origin, pool: HTTPConnectionPool())
        }
        #expect(origin.acceptedConnections == 1)
    }

    @Test func theRetryIsMadeOnlyOnce() async throws {
        // Every request after the first closes its connection unanswered: the reused one, then the retry's.
        let origin = try KeepAliveOrigin { _, place in
            place.connection == 0 && place.request == 0 ? .respond(KeepAliveOrigin.response("ok")) : .closeWithoutAnswer
        }
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        _ = try await Pooled.get(origin, pool: pool)
        await #expect(throws: HTTPClientError.connectionLost("closed before a response")) { try await Pooled.get(origin, pool: pool) }
        #expect(origin.requestsPerConnection == [2, 1])
    }

    @Test func aCloseAfterPartOfTheAnswerIsNotRetried() async throws {
        let origin = try KeepAliveOrigin { _, place in
            place.request == 0 ? .respond(KeepAliveOrigin.response("ok")) : .respondAndClose(Array("HTTP/1.1 200 OK\r\nContent-".utf8))
        }
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        _ = try await Pooled.get(origin, pool: pool)
        await #expect(throws: HTTPClientError.malformedResponse("closed inside the head")) { try await Pooled.get(origin, pool: pool) }
        #expect(origin.acceptedConnections == 1)
    }

    @Test func atMostMaxIdlePerHostConnectionsStayIdle() async throws {
        let origin = try KeepAliveOrigin(always: .gated(KeepAliveOrigin.response("x")))
        defer { origin.stop() }
        let pool = HTTPConnectionPool(maxIdlePerHost: 2)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<5 {
                group.addTask { _ = try await Pooled.get(origin, "/\(index)", pool: pool) }
            }
            // All five are in flight on five connections before any answer goes out.
            try await eventually { origin.requests.count == 5 }
            origin.release()
            try await group.waitForAll()
        }
        #expect(origin.acceptedConnections == 5)
        #expect(pool.idleCount == 2)
        try await eventually { origin.openConnections == 2 }
    }

    @Test func atMostMaxIdleConnectionsStayIdleInAll() async throws {
        let first = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("1")))
        let second = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("2")))
        defer {
            first.stop()
            second.stop()
        }
        let pool = HTTPConnectionPool(maxIdle: 1)
        _ = try await Pooled.get(first, pool: pool)
        _ = try await Pooled.get(second, pool: pool)
        #expect(pool.idleCount == 1)
        // The older idle connection (to the first origin) made room for the newer one.
        try await eventually { first.openConnections == 0 }
        #expect(second.openConnections == 1)
        pool.closeIdle()
        #expect(pool.idleCount == 0)
        try await eventually { second.openConnections == 0 }
    }

    @Test func aConnectionIdleLongerThanTheTimeoutIsClosedNotReused() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("x")))
        defer { origin.stop() }
        let pool = HTTPConnectionPool(idleTimeout: .milliseconds(1))
        _ = try await Pooled.get(origin, pool: pool)
        // Time passing is the point: the connection must sit idle past the 1 ms timeout.
        try await Task.sleep(for: .milliseconds(20))
        _ = try await Pooled.get(origin, pool: pool)
        #expect(origin.requestsPerConnection == [1, 1])
        try await eventually { origin.openConnections == 1 }
    }

    @Test func connectionsAreNotSharedAcrossEndpoints() async throws {
        let origin = try KeepAliveOrigin(always: .respond(KeepAliveOrigin.response("x")))
        defer { origin.stop() }
        let pool = HTTPConnectionPool()
        _ = try await Pooled.get(origin, pool: pool)
        // Same socket address, another name: a different endpoint (its Host and, for https, its certificate check).
        _ = try await HTTPClient.send(
            HTTPClientRequest(host: "localhost", port: origin.port, target: "/"),
            connectTimeout: .seconds(10), deadline: .seconds(30), maxBodyBytes: 100, pool: pool)
        #expect(origin.acceptedConnections == 2)
        #expect(pool.idleCount == 2)
    }

    @Test func aBrokenPipeSignalRaisedWhileClosingOffTheExchangeThreadIsDropped() {
        // An https connection closed by a stream's consumer or the pool's owner sends close_notify
        // with write(2) on that thread; a peer that reset raises SIGPIPE there.
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &before)
        HTTPClientThread.withoutBrokenPipeSignal {
            raise(SIGPIPE)
            var pending = sigset_t()
            sigpending(&pending)
            #expect(sigismember(&pending, SIGPIPE) == 1)
        }
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)
        var after = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &after)
        #expect(sigismember(&after, SIGPIPE) == sigismember(&before, SIGPIPE))
    }
}
