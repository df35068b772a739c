import Foundation
import HTTPServer
@testable import Proxy
import TestSupport
import Testing

/// Bodies and redirects over https follow the same rules as over http: chunked framing, gzip
/// decoding, the body cap, and the redirect policy across schemes.
@Suite(.timeLimit(.minutes(1))) struct OriginClientHTTPSBodyTests {
    @Test(arguments: OriginAsk.allCases)
    func aChunkedBodyOverHTTPSIsDechunked(ask: OriginAsk) async throws {
        let chunked = Array("5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n".utf8)
        let origin = try TLSTestOrigin(routes: [
            "/c": TestOrigin.response(status: 200, reason: "OK", headers: [("Transfer-Encoding", "chunked")], body: chunked),
        ])
        defer { origin.stop() }
        let answer = try await ask.answer(OriginClientHTTPSTests.trustingClient(), OriginRequest(url: origin.url("/c"), maxBodyBytes: 100))
        #expect(answer.body == Array("hello, world".utf8))
        #expect(answer.headers["Transfer-Encoding"] == nil)
    }

    @Test func aGzipBodyOverHTTPSIsDecoded() async throws {
        let origin = try TLSTestOrigin(routes: [
            "/s.vtt": TestOrigin.response(status: 200, reason: "OK", headers: [("Content-Encoding", "gzip")], body: OriginClientGzipTests.helloGzip),
        ])
        defer { origin.stop() }
        let response = try await OriginClientHTTPSTests.trustingClient().fetch(OriginRequest(url: origin.url("/s.vtt"), maxBodyBytes: 100))
        #expect(response.body == Array("WEBVTT\n\nhello hello hello hello\n".utf8))
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(origin.requests.first?.headers["Accept-Encoding"] == "gzip")
    }

    @Test(arguments: OriginAsk.allCases)
    func theBodyCapHoldsOverHTTPS(ask: OriginAsk) async throws {
        let declared = TestOrigin.response(status: 200, reason: "OK", body: [UInt8](repeating: 0x41, count: 5_000))
        let chunk = [UInt8](repeating: 0x42, count: 3_000)
        let chunked = Array("bb8\r\n".utf8) + chunk + Array("\r\nbb8\r\n".utf8) + chunk + Array("\r\n0\r\n\r\n".utf8)
        let origin = try TLSTestOrigin(routes: [
            "/declared": declared,
            "/chunked": TestOrigin.response(status: 200, reason: "OK", headers: [("Transfer-Encoding", "chunked")], body: chunked),
        ])
        defer { origin.stop() }
        let client = OriginClientHTTPSTests.trustingClient()
        for path in ["/declared", "/chunked"] {
            await #expect(throws: OriginError.tooLarge(limit: 4_000)) {
                try await ask.answer(client, OriginRequest(url: origin.url(path), maxBodyBytes: 4_000))
            }
        }
    }

    @Test(arguments: OriginAsk.allCases)
    func anHTTPSRedirectToHTTPSIsFollowed(ask: OriginAsk) async throws {
        let target = try TLSTestOrigin(routes: ["/cdn/seg.ts": TestOrigin.response(status: 200, reason: "OK", body: Array("moved".utf8))])
        defer { target.stop() }
        let origin = try TLSTestOrigin(routes: [
            "/seg.ts": TestOrigin.response(status: 302, reason: "Found", headers: [("Location", target.url("/cdn/seg.ts", host: "localhost"))], body: []),
        ])
        defer { origin.stop() }
        let request = OriginRequest(url: origin.url("/seg.ts"), headers: ["Authorization": "Bearer t"], maxBodyBytes: 100)
        let answer = try await ask.answer(OriginClientHTTPSTests.trustingClient(), request)
        #expect(answer.status == 200)
        #expect(answer.body == Array("moved".utf8))
        #expect(answer.finalURL == target.url("/cdn/seg.ts", host: "localhost"))
        // Another origin (another port): credentials stay behind.
        #expect(target.requests.first?.headers["Authorization"] == nil)
        #expect(origin.requests.first?.headers["Authorization"] == "Bearer t")
    }

    @Test(arguments: OriginAsk.allCases)
    func anHTTPSRedirectToHTTPIsFollowedOnlyWhereAllowed(ask: OriginAsk) async throws {
        let plain = try TestOrigin(routes: ["/seg.ts": .raw(TestOrigin.response(status: 200, body: Array("plain".utf8)))])
        defer { plain.stop() }
        let origin = try TLSTestOrigin(routes: [
            "/seg.ts": TestOrigin.response(status: 301, reason: "Moved", headers: [("Location", plain.url("/seg.ts"))], body: []),
        ])
        defer { origin.stop() }
        let client = OriginClientHTTPSTests.trustingClient()
        let answer = try await ask.answer(client, OriginRequest(url: origin.url("/seg.ts"), headers: ["Cookie": "c=1"], maxBodyBytes: 100))
        #expect(answer.body == Array("plain".utf8))
        #expect(answer.finalURL == plain.url("/seg.ts"))
        #expect(plain.requests(path: "/seg.ts").first?.headers["Cookie"] == nil)

        var refused = OriginRequest(url: origin.url("/seg.ts"), maxBodyBytes: 100)
        refused.allowRedirect = { $0.hasPrefix("https:") }
        await #expect(throws: OriginError.redirectNotAllowed) { try await ask.answer(client, refused) }
        #expect(plain.requests(path: "/seg.ts").count == 1, "the refused hop is never asked for")
    }
}
