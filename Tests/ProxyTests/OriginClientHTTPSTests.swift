import Foundation
import HTTPServer
@testable import Proxy
import TestSupport
import Testing

/// https goes through the same HTTP/1.1 client as http, over OpenSSL: real handshakes against an
/// in-process origin with the test certificates (Tests/Fixtures/tls), asked both ways (whole body
/// and streamed).
@Suite(.timeLimit(.minutes(1))) struct OriginClientHTTPSTests {
    /// A client trusting the test CA.
    static func trustingClient(totalTimeout: Duration = .seconds(10)) -> OriginClient {
        var configuration = OriginClient.Configuration()
        configuration.connectTimeout = .seconds(5)
        configuration.totalTimeout = totalTimeout
        configuration.caFile = TLSTestOrigin.caFile
        return OriginClient(configuration: configuration)
    }

    /// The reason of an `.unreachable` error, or a recorded issue.
    static func unreachableReason(_ error: OriginError?) -> String {
        guard case .unreachable(let why) = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return ""
        }
        return why
    }

    @Test(arguments: OriginAsk.allCases)
    func anHTTPSOriginAnswersWithStatusHeadersAndBody(ask: OriginAsk) async throws {
        // Many 16 KiB TLS records, no two neighbours alike, so a lost or repeated record shows.
        let big = (0..<400_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 10) }
        let origin = try TLSTestOrigin(routes: [
            "/a.m3u8": TestOrigin.response(status: 200, reason: "OK", headers: [("X-Origin", "yes")], body: Array("#EXTM3U\n".utf8)),
            "/big.ts": TestOrigin.response(status: 200, reason: "OK", body: big),
        ])
        defer { origin.stop() }
        let client = Self.trustingClient()
        let answer = try await ask.answer(client, OriginRequest(url: origin.url("/a.m3u8?token=1"), maxBodyBytes: 100))
        #expect(answer.status == 200)
        #expect(answer.headers["X-Origin"] == "yes")
        #expect(answer.body == Array("#EXTM3U\n".utf8))
        #expect(answer.finalURL == origin.url("/a.m3u8?token=1"))
        let seen = try #require(origin.requests.first)
        #expect(seen.target == "/a.m3u8?token=1")
        // RFC 9110 §7.2: the port is in Host because it is not https's default 443.
        #expect(seen.headers["Host"] == "127.0.0.1:\(origin.port)")
        // RFC 6066 §3: no SNI for an IP literal.
        #expect(origin.serverNames.first == .some(nil))
        // A body of many TLS records arrives whole and in order.
        let large = try await ask.answer(client, OriginRequest(url: origin.url("/big.ts"), maxBodyBytes: 500_000))
        #expect(large.body == big)
    }

    @Test func aHostNameIsVerifiedAgainstTheCertificateAndSentAsSNIAndInTheHostField() async throws {
        let origin = try TLSTestOrigin(routes: ["/a": TestOrigin.response(status: 200, reason: "OK", body: Array("named".utf8))])
        defer { origin.stop() }
        let response = try await Self.trustingClient().fetch(OriginRequest(url: origin.url("/a", host: "localhost"), maxBodyBytes: 100))
        #expect(response.body == Array("named".utf8))
        #expect(origin.requests.first?.headers["Host"] == "localhost:\(origin.port)")
        #expect(origin.serverNames == ["localhost"])
    }

    @Test func anIPv6LiteralIsVerifiedAgainstTheCertificatesAddresses() async throws {
        let origin = try TLSTestOrigin(routes: ["/a": TestOrigin.response(status: 200, reason: "OK", body: Array("six".utf8))], ipv6: true)
        defer { origin.stop() }
        let response = try await Self.trustingClient().fetch(OriginRequest(url: origin.url("/a", host: "[::1]"), maxBodyBytes: 100))
        #expect(response.body == Array("six".utf8))
        #expect(origin.requests.first?.headers["Host"] == "[::1]:\(origin.port)")
    }

    @Test(arguments: OriginAsk.allCases)
    func aCertificateFromAnUnknownCAIsRefused(ask: OriginAsk) async throws {
        let origin = try TLSTestOrigin(routes: ["/a": TestOrigin.response(status: 200, body: [])], certificate: .untrusted)
        defer { origin.stop() }
        let error = await #expect(throws: OriginError.self) {
            try await ask.answer(Self.trustingClient(), OriginRequest(url: origin.url("/a"), maxBodyBytes: 100))
        }
        #expect(Self.unreachableReason(error) == "TLS handshake failed: certificate verify failed (unable to get local issuer certificate)")
        #expect(origin.requests.isEmpty, "no request goes out over an unverified connection")
    }

    @Test func withoutTheCAFileTheTestCAIsNotTrusted() async throws {
        let origin = try TLSTestOrigin(routes: ["/a": TestOrigin.response(status: 200, body: [])])
        defer { origin.stop() }
        let error = await #expect(throws: OriginError.self) {
            try await makeTestClient().fetch(OriginRequest(url: origin.url("/a"), maxBodyBytes: 100))
        }
        #expect(Self.unreachableReason(error).contains("certificate verify failed"))
    }

    @Test(arguments: ["127.0.0.1", "localhost"])
    func aCertificateForAnotherNameIsRefused(host: String) async throws {
        let origin = try TLSTestOrigin(routes: ["/a": TestOrigin.response(status: 200, body: [])], certificate: .wrongHost)
        defer { origin.stop() }
        let error = await #expect(throws: OriginError.self) {
            try await Self.trustingClient().fetch(OriginRequest(url: origin.url("/a", host: host), maxBodyBytes: 100))
        }
        // OpenSSL's X509_verify_cert_error_string texts for X509_V_ERR_IP_ADDRESS_MISMATCH and _HOSTNAME_MISMATCH.
        let expected = host == "localhost" ? "hostname mismatch" : "IP address mismatch"
        #expect(Self.unreachableReason(error) == "TLS handshake failed: certificate verify failed (\(expected))")
    }

    @Test func anExpiredCertificateIsRefused() async throws {
        let origin = try TLSTestOrigin(routes: ["/a": TestOrigin.response(status: 200, body: [])], certificate: .expired)
        defer { origin.stop() }
        let error = await #expect(throws: OriginError.self) {
            try await Self.trustingClient().fetch(OriginRequest(url: origin.url("/a"), maxBodyBytes: 100))
        }
        #expect(Self.unreachableReason(error) == "TLS handshake failed: certificate verify failed (certificate has expired)")
    }

    @Test(arguments: OriginAsk.allCases)
    func aPlainHTTPServerOnAnHTTPSURLIsAHandshakeFailureNotAHang(ask: OriginAsk) async throws {
        let origin = try TLSTestOrigin(routes: [:], speaksTLS: false)
        defer { origin.stop() }
        let error = await #expect(throws: OriginError.self) {
            try await ask.answer(Self.trustingClient(totalTimeout: .seconds(30)), OriginRequest(url: origin.url("/a"), maxBodyBytes: 100))
        }
        // OpenSSL reads "HTTP/1.1 400" as a TLS record header whose version bytes are "TP".
        #expect(Self.unreachableReason(error) == "TLS handshake failed: wrong version number")
    }

    @Test(arguments: OriginAsk.allCases)
    func aServerThatNeverCompletesTheHandshakeHitsOurDeadline(ask: OriginAsk) async throws {
        // The plain test origin waits for a request head that the ClientHello never completes.
        let silent = try TestOrigin(routes: [:])
        defer { silent.stop() }
        await #expect(throws: OriginError.timeout) {
            try await ask.answer(Self.trustingClient(totalTimeout: .milliseconds(300)), OriginRequest(url: "https://127.0.0.1:\(silent.port)/a", maxBodyBytes: 100))
        }
    }

    @Test(arguments: OriginAsk.allCases)
    func cancellingDuringTheHandshakeGivesCancelled(ask: OriginAsk) async throws {
        let silent = try TestOrigin(routes: [:])
        defer { silent.stop() }
        let client = Self.trustingClient(totalTimeout: .seconds(30))
        let asking = Task { try await ask.answer(client, OriginRequest(url: "https://127.0.0.1:\(silent.port)/a", maxBodyBytes: 100)) }
        // The ClientHello has reached the origin, which never answers it: the client is inside the
        // handshake, so the cancel lands there and not before the exchange started.
        try await eventually("no ClientHello reached the origin") { silent.bytesReceived > 0 }
        asking.cancel()
        await #expect(throws: OriginError.cancelled) { try await asking.value }
    }

    @Test(arguments: OriginAsk.allCases)
    func httpsToAClosedPortIsUnreachable(ask: OriginAsk) async throws {
        let error = await #expect(throws: OriginError.self) {
            try await ask.answer(Self.trustingClient(), OriginRequest(url: "https://127.0.0.1:\(LoopbackPort.refusing)/a", maxBodyBytes: 100))
        }
        #expect(Self.unreachableReason(error).hasPrefix("connect: "))
    }

    @Test(arguments: OriginAsk.allCases)
    func httpsURLsWithCredentialsAreRefused(ask: OriginAsk) async throws {
        await #expect(throws: OriginError.invalidRequest("bad or credential-carrying authority")) {
            try await ask.answer(Self.trustingClient(), OriginRequest(url: "https://user:pw@example.com/a", maxBodyBytes: 100))
        }
    }

    @Test func anUnreadableCAFileFailsEveryHTTPSFetchWithItsName() async throws {
        var configuration = OriginClient.Configuration()
        configuration.caFile = "/nonexistent/ca.pem"
        let client = OriginClient(configuration: configuration)
        let origin = try TLSTestOrigin(routes: ["/a": TestOrigin.response(status: 200, body: [])])
        defer { origin.stop() }
        let error = await #expect(throws: OriginError.self) {
            try await client.fetch(OriginRequest(url: origin.url("/a"), maxBodyBytes: 100))
        }
        #expect(Self.unreachableReason(error).hasPrefix("the CA file /nonexistent/ca.pem could not be loaded: "))
    }
}
