import HTTPServer
@testable import Proxy
import Testing

/// https goes through URLSession; without a test CA in the system store only failures can be
/// exercised here, which is where our own code (deadline race, error mapping) lives.
@Suite(.timeLimit(.minutes(1))) struct OriginClientHTTPSTests {
    @Test func httpsToAClosedPortIsUnreachable() async throws {
        let error = await #expect(throws: OriginError.self) {
            try await makeTestClient().fetch(OriginRequest(url: "https://127.0.0.1:\(TestOrigin.closedPort())/a.m3u8", maxBodyBytes: 100))
        }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }

    @Test func httpsToAServerThatNeverAnswersHitsOurDeadline() async throws {
        // The test origin waits for a request head the TLS ClientHello never completes: the handshake hangs.
        let origin = try TestOrigin(routes: [:])
        defer { origin.stop() }
        let client = makeTestClient(totalTimeout: .milliseconds(300))
        await #expect(throws: OriginError.timeout) {
            try await client.fetch(OriginRequest(url: "https://127.0.0.1:\(origin.port)/a.m3u8", maxBodyBytes: 100))
        }
    }

    @Test func cancellingAnHTTPSFetchReturnsCancelled() async throws {
        let origin = try TestOrigin(routes: [:])
        defer { origin.stop() }
        let client = makeTestClient(totalTimeout: .seconds(30))
        let fetch = Task { try await client.fetch(OriginRequest(url: "https://127.0.0.1:\(origin.port)/a", maxBodyBytes: 100)) }
        try await Task.sleep(for: .milliseconds(50))
        fetch.cancel()
        await #expect(throws: OriginError.cancelled) { try await fetch.value }
    }

    @Test func httpsURLsWithCredentialsAreRefused() async throws {
        await #expect(throws: OriginError.invalidRequest("bad or credential-carrying https URL")) {
            try await makeTestClient().fetch(OriginRequest(url: "https://user:pw@example.com/a", maxBodyBytes: 100))
        }
    }
}
