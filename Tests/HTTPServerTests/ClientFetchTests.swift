import HTTPClient
import HTTPServer
import TestSupport
import Testing

/// The client fetching from this server in-process: both ends of a large body in one test.
@Suite struct ClientFetchTests {
    @Test func aStreamingFetchDeliversTheWholeBodyAsItArrives() async throws {
        try await withServer { server in
            let response = try await HTTPClient.stream(
                HTTPClientRequest(host: "127.0.0.1", port: server.port, target: "/big"),
                // Generous: the handler runs on the shared task pool, which a loaded parallel suite can
                // keep busy for seconds; this test is about the body, not about time.
                connectTimeout: .seconds(10), headTimeout: .seconds(30), idleTimeout: .seconds(30))
            #expect(response.status == 200)
            #expect(response.bodyLength == 16 << 20)
            var total = 0
            var pieces = 0
            var allA = true
            while let piece = try await response.body.next() {
                total += piece.count
                pieces += 1
                allA = allA && piece.allSatisfy { $0 == 65 }
            }
            #expect(total == 16 << 20)
            #expect(pieces > 1)
            #expect(allA)
        }
    }
}
