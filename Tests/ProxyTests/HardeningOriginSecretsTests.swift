import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// A mount's injected and forwarded fields go only to its own origin (same scheme, host and port),
/// wherever the origin redirects the proxy: for masters, streamed pass-through segments and subtitle
/// sources alike. Origin A redirects to origin B (another port, so another origin); B records what it got.
@Suite(.timeLimit(.minutes(1))) struct HardeningOriginSecretsTests {
    static let master = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8\n".utf8)
    static let cue = Array("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello\n".utf8)
    static let segment = [UInt8](repeating: 0x47, count: 1880)
    static let clientFields = [("Cookie", "viewer=42"), ("X-Client-Token", "client-secret")]
    static let secrets = ["api-secret", "Bearer auth-secret", "viewer=42", "client-secret"]

    static func config(origin: String) -> String {
        """
        { "mounts": { "m": { "origin": "\(origin)", "segments": "proxy",
              "inject_headers": { "X-Api-Key": "api-secret", "Authorization": "Bearer auth-secret" },
              "forward_headers": ["Cookie", "X-Client-Token"] } },
          "embedded": { "allow_hosts": ["127.0.0.1", "[::1]"] },
          "subtitles": [ { "name": "s", "masters": ["/m/*.m3u8"],
            "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "/subs/en.vtt",
                          "mode": "single", "mpegts": 900000 } ] } ],
          "timeouts": { "origin_seconds": 5 } }
        """
    }

    /// Origin B: the targets of A's redirects, recording every request.
    static func makeOtherOrigin() throws -> TestOrigin {
        try TestOrigin(routes: [
            "/master.m3u8": .raw(TestOrigin.response(status: 200, headers: [("Content-Type", "application/vnd.apple.mpegurl")], body: master)),
            "/seg.ts": .raw(TestOrigin.response(status: 200, headers: [("Content-Type", "video/mp2t")], body: segment)),
            "/en.vtt": .raw(TestOrigin.response(status: 200, headers: [("Content-Type", "text/vtt")], body: cue)),
        ])
    }

    /// Origin A, the mount's: every path redirects to B.
    static func makeMountOrigin(redirectingTo other: TestOrigin) throws -> TestOrigin {
        try TestOrigin(routes: [
            "/master.m3u8": TestOrigin.redirect(to: other.url("/master.m3u8")),
            "/seg.ts": TestOrigin.redirect(to: other.url("/seg.ts")),
            "/subs/en.vtt": TestOrigin.redirect(to: other.url("/en.vtt")),
        ])
    }

    static func expectNoSecrets(in requests: [TestOrigin.RecordedRequest], sourceLocation: SourceLocation = #_sourceLocation) {
        for request in requests {
            for field in request.headers {
                #expect(!secrets.contains(field.value), "\(request.target) got \(field.name)", sourceLocation: sourceLocation)
            }
            #expect(request.headers["X-Api-Key"] == nil && request.headers["Authorization"] == nil, sourceLocation: sourceLocation)
            #expect(request.headers["Cookie"] == nil && request.headers["X-Client-Token"] == nil, sourceLocation: sourceLocation)
        }
    }

    @Test func injectedAndForwardedSecretsDoNotFollowAMasterRedirectToAnotherOrigin() async throws {
        let other = try Self.makeOtherOrigin()
        defer { other.stop() }
        let origin = try Self.makeMountOrigin(redirectingTo: other)
        defer { origin.stop() }
        try await withProxy(Self.config(origin: origin.url(""))) { proxy in
            let response = try await proxy.get("/m/master.m3u8", headers: Self.clientFields)
            #expect(response.status == 200)
            #expect(response.text.contains("TYPE=SUBTITLES"))
        }
        // The mount's origin got them; the other origin got the request, without any of them.
        #expect(origin.requests(path: "/master.m3u8").first?.headers["X-Api-Key"] == "api-secret")
        #expect(origin.requests(path: "/master.m3u8").first?.headers["Cookie"] == "viewer=42")
        #expect(!other.requests(path: "/master.m3u8").isEmpty)
        Self.expectNoSecrets(in: other.requests())
    }

    @Test func injectedAndForwardedSecretsDoNotFollowAStreamedSegmentRedirectToAnotherOrigin() async throws {
        let other = try Self.makeOtherOrigin()
        defer { other.stop() }
        let origin = try Self.makeMountOrigin(redirectingTo: other)
        defer { origin.stop() }
        try await withProxy(Self.config(origin: origin.url(""))) { proxy in
            let response = try await proxy.get("/m/seg.ts", headers: Self.clientFields + [("Range", "bytes=0-187")])
            #expect(response.status == 206)
            #expect(response.body == Array(Self.segment.prefix(188)))
        }
        #expect(origin.requests(path: "/seg.ts").first?.headers["Authorization"] == "Bearer auth-secret")
        let seen = try #require(other.requests(path: "/seg.ts").first)
        // Range carries nothing private and still follows the redirect.
        #expect(seen.headers["Range"] == "bytes=0-187")
        Self.expectNoSecrets(in: other.requests())
    }

    @Test func injectedAndForwardedSecretsDoNotFollowASubtitleSourceRedirectToAnotherOrigin() async throws {
        let other = try Self.makeOtherOrigin()
        defer { other.stop() }
        let origin = try Self.makeMountOrigin(redirectingTo: other)
        defer { origin.stop() }
        try await withProxy(Self.config(origin: origin.url(""))) { proxy in
            let master = Data("/m/master.m3u8".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let response = try await proxy.get("/_hls-proxy/v1/s/en/\(master)/0.vtt", headers: Self.clientFields)
            #expect(response.status == 200)
            #expect(response.text.contains("hello"))
        }
        #expect(origin.requests(path: "/subs/en.vtt").first?.headers["X-Api-Key"] == "api-secret")
        #expect(!other.requests(path: "/en.vtt").isEmpty)
        Self.expectNoSecrets(in: other.requests())
    }

    @Test func aRedirectBackToTheMountsOriginCarriesItsFieldsAgain() async throws {
        // One listener, two origins: `localhost:P` is not the same origin as `127.0.0.1:P` (RFC 6454).
        let port = Mutex(0)
        let origin = try TestOrigin(routes: [
            "/master.m3u8": .computed { TestOrigin.response(status: 302, headers: [("Location", "http://localhost:\(port.withLock { $0 })/bounce.m3u8")], body: []) },
            "/bounce.m3u8": .computed { TestOrigin.response(status: 302, headers: [("Location", "http://127.0.0.1:\(port.withLock { $0 })/final.m3u8")], body: []) },
            "/final.m3u8": .raw(TestOrigin.response(status: 200, body: Self.master)),
        ])
        defer { origin.stop() }
        port.withLock { $0 = origin.port }
        try await withProxy(Self.config(origin: origin.url(""))) { proxy in
            let response = try await proxy.get("/m/master.m3u8", headers: Self.clientFields)
            #expect(response.status == 200)
        }
        let bounce = try #require(origin.requests(path: "/bounce.m3u8").first)
        #expect(bounce.headers["Host"] == "localhost:\(origin.port)")
        Self.expectNoSecrets(in: [bounce])
        let back = try #require(origin.requests(path: "/final.m3u8").first)
        #expect(back.headers["X-Api-Key"] == "api-secret")
        #expect(back.headers["Authorization"] == "Bearer auth-secret")
        #expect(back.headers["Cookie"] == "viewer=42")
    }
}
