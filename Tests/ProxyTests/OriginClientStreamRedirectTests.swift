import HTTPServer
@testable import Proxy
import Testing

/// `OriginClient.stream` follows redirects under the same rules as `fetch`: the same statuses,
/// hop limit, loop check, `allowRedirect` per hop, http/https only, credentials kept to one origin.
@Suite(.timeLimit(.minutes(1))) struct OriginClientStreamRedirectTests {
    @Test(arguments: [301, 302, 303, 307, 308])
    func streamedRedirectsAreFollowedAndTheFinalURLKept(status: Int) async throws {
        let origin = try TestOrigin(routes: [
            "/live/seg1.ts": TestOrigin.redirect(status, to: "../cdn/v2/seg1.ts?sig=1"),
            "/cdn/v2/seg1.ts": .raw(TestOrigin.response(status: 200, body: Array("segment".utf8))),
        ])
        defer { origin.stop() }
        let stream = try await makeTestClient().stream(OriginRequest(url: origin.url("/live/seg1.ts"), maxBodyBytes: 100))
        #expect(stream.status == 200)
        #expect(stream.finalURL == origin.url("/cdn/v2/seg1.ts?sig=1"))
        #expect(try await Self.body(of: stream) == Array("segment".utf8))
        #expect(origin.requests(path: "/cdn/v2/seg1.ts").first?.target == "/cdn/v2/seg1.ts?sig=1")
    }

    @Test func aStreamedRedirectIsReturnedWhenNotFollowed() async throws {
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "/b")])
        defer { origin.stop() }
        var request = OriginRequest(url: origin.url("/a"), maxBodyBytes: 100)
        request.followRedirects = false
        let stream = try await makeTestClient().stream(request)
        #expect(stream.status == 302)
        #expect(stream.headers["Location"] == "/b")
        #expect(stream.finalURL == origin.url("/a"))
        #expect(origin.requests(path: "/b").isEmpty)
    }

    @Test func aStreamedRedirectLoopIsDetected() async throws {
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "/b"), "/b": TestOrigin.redirect(to: "/a")])
        defer { origin.stop() }
        await #expect(throws: OriginError.redirectLoop) {
            try await makeTestClient().stream(OriginRequest(url: origin.url("/a"), maxBodyBytes: 100))
        }
    }

    @Test func moreThanFiveHopsIsTooManyForAStream() async throws {
        var routes: [String: TestOrigin.Behaviour] = [:]
        for hop in 0..<6 { routes["/\(hop)"] = TestOrigin.redirect(to: "/\(hop + 1)") }
        routes["/6"] = .raw(TestOrigin.response(status: 200, body: Array("end".utf8)))
        let origin = try TestOrigin(routes: routes)
        defer { origin.stop() }
        let client = makeTestClient()
        await #expect(throws: OriginError.redirectLoop) {
            try await client.stream(OriginRequest(url: origin.url("/0"), maxBodyBytes: 100))
        }
        // The sixth target is never asked for.
        #expect(origin.requests(path: "/6").isEmpty)
        // Five hops (/1 ... /6) are allowed.
        let stream = try await client.stream(OriginRequest(url: origin.url("/1"), maxBodyBytes: 100))
        #expect(stream.finalURL == origin.url("/6"))
        #expect(try await Self.body(of: stream) == Array("end".utf8))
    }

    @Test func everyStreamedHopIsCheckedAgainstAllowRedirect() async throws {
        let other = try TestOrigin(routes: ["/elsewhere": .raw(TestOrigin.response(status: 200, body: Array("other".utf8)))])
        defer { other.stop() }
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "http://localhost:\(other.port)/elsewhere")])
        defer { origin.stop() }
        let client = makeTestClient()
        var refused = OriginRequest(url: origin.url("/a"), maxBodyBytes: 100)
        refused.allowRedirect = { $0.hasPrefix("http://127.0.0.1:") }
        await #expect(throws: OriginError.redirectNotAllowed) { try await client.stream(refused) }
        #expect(other.requests().isEmpty)

        let seenTargets = TargetLog()
        var allowed = OriginRequest(
            url: origin.url("/a"), headers: ["Authorization": "Bearer t", "Cookie": "c=1", "X-Key": "k"], maxBodyBytes: 100)
        allowed.allowRedirect = { seenTargets.append($0); return true }
        let stream = try await client.stream(allowed)
        #expect(try await Self.body(of: stream) == Array("other".utf8))
        #expect(stream.finalURL == "http://localhost:\(other.port)/elsewhere")
        #expect(seenTargets.all == ["http://localhost:\(other.port)/elsewhere"])
        // Credentials for the first origin stay there; other injected fields go on.
        #expect(origin.requests(path: "/a").last?.headers["Authorization"] == "Bearer t")
        let seen = try #require(other.requests().first)
        #expect(seen.headers["Authorization"] == nil)
        #expect(seen.headers["Cookie"] == nil)
        #expect(seen.headers["X-Key"] == "k")
    }

    @Test func streamedRedirectsToFileURLsAreNeverFollowed() async throws {
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "file:///etc/passwd")])
        defer { origin.stop() }
        await #expect(throws: OriginError.redirectNotAllowed) {
            try await makeTestClient().stream(OriginRequest(url: origin.url("/a"), maxBodyBytes: 100))
        }
    }

    @Test func onlyGetAndHeadAreStreamed() async throws {
        await #expect(throws: OriginError.invalidRequest("only GET and HEAD are fetched")) {
            try await makeTestClient().stream(OriginRequest(url: "http://127.0.0.1:1/a", method: .post, maxBodyBytes: 100))
        }
    }

    /// Every piece of the body, in order.
    static func body(of stream: OriginStream) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let piece = try await stream.next() { bytes += piece }
        return bytes
    }
}
