import Glibc
@testable import HTTPClient
@testable import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Handlers returning `.stream` bodies: framing, HEAD, backpressure's other half (the client leaving).
@Suite(.timeLimit(.minutes(2))) struct StreamedBodyTests {
    /// Byte i of a test body.
    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }

    /// A producer writing `pieces` pieces of `size` bytes of the pattern.
    static func producer(pieces: Int, size: Int, ran: TestCounter? = nil) -> @Sendable (HTTPBodyWriter) async throws -> Void {
        { writer in
            ran?.increment()
            let body = pattern(pieces * size)
            for index in 0..<pieces { try await writer.write(Array(body[(index * size)..<((index + 1) * size)])) }
        }
    }

    @Test func aStreamOfKnownLengthGoesOutWithContentLengthAndKeepsTheConnection() async throws {
        let handler: HTTPHandler = { _ in
            HTTPResponse(status: .ok, body: .stream(length: 300_000, producer: Self.producer(pieces: 3, size: 100_000)))
        }
        try await withServer(handler: handler) { server in
            let port = server.port
            let (first, second) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n")
                let first = try client.readResponse()
                try client.send("GET /b HTTP/1.1\r\nHost: t\r\n\r\n")
                return (first, try client.readResponse())
            }
            #expect(first.header("Content-Length") == "300000")
            #expect(first.header("Transfer-Encoding") == nil)
            #expect(first.body == Self.pattern(300_000))
            #expect(second.body == Self.pattern(300_000))
        }
    }

    @Test func aStreamOfUnknownLengthIsChunkedForHTTP11() async throws {
        let handler: HTTPHandler = { _ in
            HTTPResponse(status: .ok, body: .stream(length: nil, producer: Self.producer(pieces: 5, size: 70_001)))
        }
        try await withServer(handler: handler) { server in
            let response = try await HTTPClient.send(
                HTTPClientRequest(host: "127.0.0.1", port: server.port, target: "/"),
                connectTimeout: .seconds(2), deadline: .seconds(50), maxBodyBytes: 1 << 20)
            #expect(response.headers["Transfer-Encoding"] == "chunked")
            #expect(response.headers["Content-Length"] == nil)
            #expect(response.body == Self.pattern(5 * 70_001))
        }
    }

    @Test func aStreamOfUnknownLengthEndsWithTheConnectionForHTTP10() async throws {
        let handler: HTTPHandler = { _ in
            HTTPResponse(status: .ok, body: .stream(length: nil, producer: Self.producer(pieces: 2, size: 1000)))
        }
        try await withServer(handler: handler) { server in
            let port = server.port
            let raw = try await onThread { () -> [UInt8] in
                let client = try RawSocketClient(port: port)
                try client.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                var received: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let n = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    received += chunk[0..<n]
                }
                return received
            }
            let end = try #require(raw.firstRange(of: [13, 10, 13, 10]))
            let head = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
            #expect(head.contains("Connection: close"))
            #expect(!head.contains("Transfer-Encoding"))
            #expect(!head.contains("Content-Length"))
            #expect(Array(raw[end.upperBound...]) == Self.pattern(2000))
        }
    }

    @Test func headNeverRunsTheProducer() async throws {
        let ran = TestCounter()
        let handler: HTTPHandler = { _ in
            HTTPResponse(status: .ok, body: .stream(length: 5000, producer: Self.producer(pieces: 1, size: 5000, ran: ran)))
        }
        try await withServer(handler: handler) { server in
            let port = server.port
            let response = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("HEAD / HTTP/1.1\r\nHost: t\r\n\r\n")
                return try client.readResponse(isHead: true)
            }
            #expect(response.header("Content-Length") == "5000")
            #expect(ran.value == 0)
        }
    }

    @Test func aClientThatLeavesMakesTheProducersWriteThrow() async throws {
        let threw = TestCounter()
        let handler: HTTPHandler = { _ in
            HTTPResponse(status: .ok, body: .stream(length: nil, producer: { writer in
                do {
                    while true { try await writer.write([UInt8](repeating: 1, count: 65_536)) }
                } catch {
                    threw.increment()
                    throw error
                }
            }))
        }
        try await withServer(handler: handler) { server in
            let port = server.port
            try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                _ = try client.readResponse()
                client.close()
            }
            try await eventually { threw.value > 0 }
        }
    }

    @Test func aProducerThatFailsOrFallsShortClosesTheConnectionMidBody() async throws {
        let handler: HTTPHandler = { request in
            HTTPResponse(status: .ok, body: .stream(length: 10_000, producer: { writer in
                try await writer.write(Self.pattern(4000))
                if request.path == "/fail" { throw PlainError() }
            }))
        }
        try await withServer(handler: handler) { server in
            let port = server.port
            for path in ["/fail", "/short"] {
                let outcome = try await onThread { () -> String in
                    let client = try RawSocketClient(port: port)
                    try client.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
                    return client.responseOutcome()
                }
                #expect(outcome == "connection closed inside the body")
            }
        }
    }
}

/// A counter that closures can share.
final class TestCounter: Sendable {
    private let count = Atomic<Int>(0)

    func increment() { count.add(1, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}
