import Glibc
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Several event loops on one port: connections spread over their threads, one connection cap and one
/// open-connection count across them, and a stop that ends them all.
@Suite(.timeLimit(.minutes(1))) struct EventLoopsTests {
    /// Answers with the id of the thread that ran the immediate handler.
    static let threadEcho: HTTPImmediateHandler = { _ in
        HTTPResponse(status: .ok, bytes: Array(String(UInt(bitPattern: Int(bitPattern: UInt(pthread_self())))).utf8))
    }

    @Test func connectionsSpreadOverEveryLoopAndAreCountedTogether() async throws {
        try await withServer({ $0.eventLoops = 2 }, immediateHandler: Self.threadEcho) { server in
            let port = server.port
            let (clients, threads) = try await onThread { () -> ([RawSocketClient], Set<String>) in
                var clients: [RawSocketClient] = []
                var threads = Set<String>()
                for _ in 0..<40 {
                    let client = try RawSocketClient(port: port)
                    try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                    threads.insert(String(decoding: try client.readResponse().body, as: UTF8.self))
                    clients.append(client)
                }
                return (clients, threads)
            }
            // The kernel hashes each new connection to one of the two sockets: 40 all landing on one
            // would be a 1 in 2^39 chance.
            #expect(threads.count == 2)
            try await eventually { server.openConnections == 40 }
            withExtendedLifetime(clients) {}
        }
    }

    @Test func theConnectionCapHoldsAcrossLoops() async throws {
        try await withServer({ $0.eventLoops = 2; $0.maxConnections = 3 }, immediateHandler: Self.threadEcho) { server in
            let port = server.port
            let statuses = try await onThread { () -> [Int] in
                var clients: [RawSocketClient] = []
                var statuses: [Int] = []
                for _ in 0..<6 {
                    let client = try RawSocketClient(port: port)
                    try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                    statuses.append(try client.readResponse().status)
                    clients.append(client)
                }
                return statuses
            }
            #expect(statuses == [200, 200, 200, 503, 503, 503])
        }
    }

    @Test func stopEndsEveryLoopAndFreesThePort() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoops = 3
        let server = HTTPServer(configuration: configuration, handler: { _ in HTTPResponse(status: .ok) })
        try server.start()
        let port = server.port
        #expect(try await onThread { try freshRequestStatus(port: port) } == 200)
        await server.stop(gracePeriod: .seconds(1))
        #expect(!server.isAcceptingConnections)
        #expect(throws: (any Error).self) { try RawSocketClient(port: port) }
        // The port can be bound again at once by a new server.
        configuration.port = port
        let again = HTTPServer(configuration: configuration, handler: { _ in HTTPResponse(status: .ok) })
        try again.start()
        #expect(try await onThread { try freshRequestStatus(port: port) } == 200)
        await again.stop(gracePeriod: .seconds(1))
    }
}
