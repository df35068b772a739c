import Glibc
@testable import HTTPServer
import TestSupport
import Synchronization
import Testing

/// An event loop whose `epoll_wait` fails stops loudly: a log line naming the errno, every connection
/// closed, and the server's wait reporting the failure.
@Suite struct EventLoopFailureTests {
    @Test func aFailingEpollWaitIsLoggedClosesConnectionsAndStopsTheServerWithAnError() async throws {
        let lines = Mutex<[String]>([])
        let fields = Mutex<[[String]]>([])
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.log = HTTPServerLog { severity, message, metadata in
            guard severity == .error else { return }
            lines.withLock { $0.append(message) }
            fields.withLock { $0.append(metadata.flatMap { [$0.0, $0.1] }) }
        }
        let server = HTTPServer(configuration: configuration, handler: echoHandler)
        try server.start()
        let port = server.port
        let client = try await onThread { () -> RawSocketClient in
            let client = try RawSocketClient(port: port)
            try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = try client.readResponse()
            return client
        }
        // Over the loop's epoll descriptor goes one that is not an epoll instance: the loop's next
        // epoll_wait fails with EINVAL. The wait in progress goes on until the next request wakes it.
        let loop = try #require(server.eventLoops.first)
        let notEpoll = open("/dev/null", O_RDONLY | O_CLOEXEC)
        #expect(notEpoll >= 0)
        #expect(dup2(notEpoll, loop.epoll.fd) == loop.epoll.fd)
        _ = close(notEpoll)
        let closed = try await onThread { () -> Bool in
            try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = try? client.readResponse()
            return try client.readsEndOfStream()
        }
        let failure = await server.waitUntilStopped()
        #expect(closed, "the open connection was closed when the loop stopped")
        #expect(failure?.operation == "epoll_wait")
        #expect(failure?.errorNumber == EINVAL)
        #expect(lines.withLock { $0 } == ["epoll_wait failed: Invalid argument (EINVAL); the event loop stops"])
        #expect(fields.withLock { $0 } == [["call", "epoll_wait", "errno", "EINVAL"]])
        #expect(!server.isAcceptingConnections)
    }

    @Test func anUnexpectedAcceptErrorIsLoggedOncePerErrnoAndPausesAccepting() throws {
        let lines = Mutex<[String]>([])
        let fields = Mutex<[[String]]>([])
        var configuration = HTTPServerConfiguration()
        configuration.log = HTTPServerLog { severity, message, metadata in
            guard severity == .warning else { return }
            lines.withLock { $0.append(message) }
            fields.withLock { $0.append(metadata.flatMap { [$0.0, $0.1] }) }
        }
        let (listener, _) = try Socket.makeListener(host: "127.0.0.1", port: 0)
        // A loop that is never started, so this thread may drive it; its listener is swapped for a
        // pipe, on which accept fails with ENOTSOCK, an errno the accept loop does not expect.
        let loop = EventLoop(try EventLoopThread(configuration: configuration, listener: listener, tally: ConnectionTally(),
                                                 handler: echoHandler, immediateHandler: nil, onStopped: {}))
        var pipeEnds: [Int32] = [-1, -1]
        #expect(pipe(&pipeEnds) == 0)
        listener.close()
        loop.acceptor.listener = Socket(fd: pipeEnds[0])
        defer {
            _ = close(pipeEnds[1])
            loop.release()
        }
        loop.acceptor.acceptConnections()
        #expect(loop.acceptor.isPaused)
        loop.acceptor.acceptConnections()
        #expect(loop.acceptor.isPaused)
        #expect(lines.withLock { $0 } == ["accept4 failed: Socket operation on non-socket (ENOTSOCK); accepting pauses until the next timer tick"])
        #expect(fields.withLock { $0 } == [["call", "accept4", "errno", "ENOTSOCK"]])
    }

    @Test func aRequestedStopReportsNoFailure() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, handler: echoHandler)
        try server.start()
        await server.stop(gracePeriod: .seconds(1))
        let failure = await server.waitUntilStopped()
        #expect(failure == nil)
    }
}
