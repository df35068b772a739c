import HTTPServer
@testable import HTTPWire
@testable import Proxy
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct OriginClientTests {
    @Test func plainHTTPReturnsStatusHeadersAndBody() async throws {
        let body = Array("#EXTM3U\n#EXT-X-VERSION:3\n".utf8)
        let origin = try TestOrigin(routes: [
            "/master.m3u8": .raw(TestOrigin.response(status: 200, reason: "OK", headers: [("Content-Type", "application/vnd.apple.mpegurl")], body: body)),
        ])
        defer { origin.stop() }
        let response = try await makeTestClient().fetch(OriginRequest(url: origin.url("/master.m3u8?token=a%2Fb"), maxBodyBytes: 1024))
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(response.headers["content-type"] == "application/vnd.apple.mpegurl")
        #expect(response.headers["Connection"] == nil)
        #expect(response.finalURL == origin.url("/master.m3u8?token=a%2Fb"))
        let seen = try #require(origin.requests().first)
        #expect(seen.method == "GET")
        #expect(seen.target == "/master.m3u8?token=a%2Fb")
        #expect(seen.headers["Host"] == "127.0.0.1:\(origin.port)")
        #expect(seen.headers["User-Agent"] == "hls-subtitle-proxy/\(ProxyVersion.number)")
        #expect(seen.headers["Accept-Encoding"] == (OriginHTTPExchanges.acceptsGzip ? "gzip" : "identity"))
    }

    @Test func injectedHeadersAreSentAndHopByHopOnesAreNot() async throws {
        let origin = try TestOrigin(routes: ["/a": .raw(TestOrigin.response(status: 200, body: []))])
        defer { origin.stop() }
        let headers: HTTPHeaders = ["Authorization": "Bearer secret", "X-Custom": "1", "Connection": "upgrade", "Host": "evil.example"]
        _ = try await makeTestClient().fetch(OriginRequest(url: origin.url("/a"), headers: headers, maxBodyBytes: 10))
        let seen = try #require(origin.requests().first)
        #expect(seen.headers["Authorization"] == "Bearer secret")
        #expect(seen.headers["X-Custom"] == "1")
        #expect(seen.headers["Host"] == "127.0.0.1:\(origin.port)")
        // The caller's Connection field is not forwarded; the pooled connection needs none of its own.
        #expect(seen.headers.values("Connection") == [])
    }

    @Test(arguments: [404, 500, 403])
    func errorStatusesArePassedThroughAsResponses(status: Int) async throws {
        let origin = try TestOrigin(routes: ["/x": .raw(TestOrigin.response(status: status, body: Array("nope".utf8)))])
        defer { origin.stop() }
        let response = try await makeTestClient().fetch(OriginRequest(url: origin.url("/x"), maxBodyBytes: 100))
        #expect(response.status == status)
        #expect(response.body == Array("nope".utf8))
    }

    @Test func chunkedBodiesAreReassembledAndTheCodingDropped() async throws {
        let wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n"
        let origin = try TestOrigin(routes: ["/c": .raw(Array(wire.utf8))])
        defer { origin.stop() }
        let response = try await makeTestClient().fetch(OriginRequest(url: origin.url("/c"), maxBodyBytes: 100))
        #expect(response.body == Array("hello, world".utf8))
        #expect(response.headers["Transfer-Encoding"] == nil)
    }

    @Test func headersWithoutASpaceAfterTheColonAreRead() async throws {
        let wire = "HTTP/1.1 200 OK\r\nX-A:b\r\nContent-Type:text/vtt \r\nContent-Length:2\r\n\r\nok"
        let origin = try TestOrigin(routes: ["/h": .raw(Array(wire.utf8))])
        defer { origin.stop() }
        let response = try await makeTestClient().fetch(OriginRequest(url: origin.url("/h"), maxBodyBytes: 100))
        #expect(response.headers["X-A"] == "b")
        #expect(response.headers["Content-Type"] == "text/vtt")
        #expect(response.body == Array("ok".utf8))
    }

    @Test func aStatusLineWithoutAReasonPhraseIsAccepted() async throws {
        let origin = try TestOrigin(routes: ["/r": .raw(Array("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok".utf8))])
        defer { origin.stop() }
        let response = try await makeTestClient().fetch(OriginRequest(url: origin.url("/r"), maxBodyBytes: 100))
        #expect(response.status == 200)
        #expect(response.body == Array("ok".utf8))
    }

    @Test func aBodyRunningToTheCloseIsRead() async throws {
        let origin = try TestOrigin(routes: ["/u": .raw(Array("HTTP/1.0 200 OK\r\n\r\nuntil close".utf8))])
        defer { origin.stop() }
        let response = try await makeTestClient().fetch(OriginRequest(url: origin.url("/u"), maxBodyBytes: 100))
        #expect(response.body == Array("until close".utf8))
    }

    @Test func headRequestsGetHeadersAndNoBody() async throws {
        let origin = try TestOrigin(routes: ["/seg.ts": .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 188000\r\n\r\n".utf8))])
        defer { origin.stop() }
        let response = try await makeTestClient().fetch(OriginRequest(url: origin.url("/seg.ts"), method: .head, maxBodyBytes: 10))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Length"] == "188000")
        #expect(origin.requests().first?.method == "HEAD")
    }

    @Test func anIPv6LiteralOriginIsReached() async throws {
        guard let origin = try? TestOrigin(routes: ["/v6": .raw(TestOrigin.response(status: 200, body: Array("six".utf8)))], ipv6: true) else {
            return // No IPv6 loopback on this machine; nothing to test.
        }
        defer { origin.stop() }
        let response = try await makeTestClient().fetch(OriginRequest(url: "http://[::1]:\(origin.port)/v6", maxBodyBytes: 10))
        #expect(response.body == Array("six".utf8))
        #expect(origin.requests().first?.headers["Host"] == "[::1]:\(origin.port)")
    }

    @Test func unsupportedSchemesAndMethodsAreRefused() async throws {
        let client = makeTestClient()
        await #expect(throws: OriginError.invalidRequest("unsupported URL scheme")) {
            try await client.fetch(OriginRequest(url: "ftp://example.com/a", maxBodyBytes: 10))
        }
        await #expect(throws: OriginError.invalidRequest("only GET and HEAD are fetched")) {
            try await client.fetch(OriginRequest(url: "http://127.0.0.1:1/a", method: .post, maxBodyBytes: 10))
        }
    }
}
