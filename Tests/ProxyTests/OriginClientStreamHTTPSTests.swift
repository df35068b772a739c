import HTTPServer
@testable import Proxy
import Testing

/// Streamed https shares the whole-body fetch's request building and deadline race; without a test
/// CA in the system store only failures can be exercised, as in `OriginClientHTTPSTests`.
@Suite(.timeLimit(.minutes(1))) struct OriginClientStreamHTTPSTests {
    @Test func aStreamOverHTTPSToAClosedPortIsUnreachable() async throws {
        let error = await #expect(throws: OriginError.self) {
            try await makeTestClient().stream(OriginRequest(url: "https://127.0.0.1:\(TestOrigin.closedPort())/a.ts", maxBodyBytes: 100))
        }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }

    @Test func aStreamOverHTTPSWhoseHeadNeverComesHitsOurDeadline() async throws {
        // The test origin waits for a request head the TLS ClientHello never completes: the handshake hangs.
        let origin = try TestOrigin(routes: [:])
        defer { origin.stop() }
        let client = makeTestClient(totalTimeout: .milliseconds(300))
        await #expect(throws: OriginError.timeout) {
            try await client.stream(OriginRequest(url: "https://127.0.0.1:\(origin.port)/a.ts", maxBodyBytes: 100))
        }
    }

    @Test func cancellingAStreamOverHTTPSBeforeItsHeadReturnsCancelled() async throws {
        let origin = try TestOrigin(routes: [:])
        defer { origin.stop() }
        let client = makeTestClient(totalTimeout: .seconds(30))
        let stream = Task { try await client.stream(OriginRequest(url: "https://127.0.0.1:\(origin.port)/a.ts", maxBodyBytes: 100)) }
        try await Task.sleep(for: .milliseconds(50))
        stream.cancel()
        await #expect(throws: OriginError.cancelled) { try await stream.value }
    }

    @Test func httpsStreamURLsWithCredentialsAreRefused() async throws {
        await #expect(throws: OriginError.invalidRequest("bad or credential-carrying https URL")) {
            try await makeTestClient().stream(OriginRequest(url: "https://user:pw@example.com/a.ts", maxBodyBytes: 100))
        }
    }
}
