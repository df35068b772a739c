import HTTPServer
@testable import Proxy
import Testing

/// Streamed and whole-body https share request building and the deadline race. Without a test CA
/// in the system store only failures can be exercised; each must map to the same error both ways.
@Suite(.timeLimit(.minutes(1))) struct OriginClientStreamHTTPSTests {
    @Test(arguments: OriginAsk.allCases)
    func httpsFailuresMapToTheSameErrorsStreamedOrWhole(ask: OriginAsk) async throws {
        let refused = await #expect(throws: OriginError.self) {
            try await ask.answer(makeTestClient(), OriginRequest(url: "https://127.0.0.1:\(TestOrigin.closedPort())/a.ts", maxBodyBytes: 100))
        }
        if case .unreachable = refused {} else { Issue.record("a closed port gave \(String(describing: refused))") }

        await #expect(throws: OriginError.invalidRequest("bad or credential-carrying https URL")) {
            try await ask.answer(makeTestClient(), OriginRequest(url: "https://user:pw@example.com/a.ts", maxBodyBytes: 100))
        }

        // The test origin waits for a request head the TLS ClientHello never completes: the handshake hangs.
        let silent = try TestOrigin(routes: [:])
        defer { silent.stop() }
        await #expect(throws: OriginError.timeout) {
            try await ask.answer(makeTestClient(totalTimeout: .milliseconds(300)), OriginRequest(url: "https://127.0.0.1:\(silent.port)/a.ts", maxBodyBytes: 100))
        }
    }

    @Test(arguments: OriginAsk.allCases)
    func cancellingBeforeTheHTTPSHeadGivesCancelled(ask: OriginAsk) async throws {
        let silent = try TestOrigin(routes: [:])
        defer { silent.stop() }
        let client = makeTestClient(totalTimeout: .seconds(30))
        let asking = Task { try await ask.answer(client, OriginRequest(url: "https://127.0.0.1:\(silent.port)/a.ts", maxBodyBytes: 100)) }
        try await Task.sleep(for: .milliseconds(50))
        asking.cancel()
        await #expect(throws: OriginError.cancelled) { try await asking.value }
    }
}
