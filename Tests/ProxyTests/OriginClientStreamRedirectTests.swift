import HTTPServer
@testable import HTTPWire
@testable import Proxy
import TestSupport
import Testing

/// `OriginClient.stream` follows redirects under the same rules as `fetch` (the same statuses, the
/// five-hop limit, the loop check, `allowRedirect` per hop, http/https only, credentials kept to one
/// origin): each case runs both ways and expects the same answer. None of them is about a deadline, so
/// the client's is long enough for a loaded machine.
@Suite(.timeLimit(.minutes(1))) struct OriginClientStreamRedirectTests {
    @Test(arguments: OriginAsk.allCases, [301, 302, 303, 307, 308])
    func aRedirectIsFollowedToTheFinalURLBothWays(ask: OriginAsk, status: Int) async throws {
        let origin = try TestOrigin(routes: [
            "/live/seg1.ts": TestOrigin.redirect(status, to: "../cdn/v2/seg1.ts?sig=1"),
            "/cdn/v2/seg1.ts": .raw(TestOrigin.response(status: 200, body: Array("segment".utf8))),
        ])
        defer { origin.stop() }
        let answer = try await ask.answer(makeTestClient(totalTimeout: .seconds(30)), OriginRequest(url: origin.url("/live/seg1.ts"), maxBodyBytes: 100))
        #expect(answer.status == 200)
        #expect(answer.finalURL == origin.url("/cdn/v2/seg1.ts?sig=1"))
        #expect(answer.body == Array("segment".utf8))
        #expect(origin.requests(path: "/cdn/v2/seg1.ts").map(\.target) == ["/cdn/v2/seg1.ts?sig=1"])
    }

    @Test(arguments: OriginAsk.allCases)
    func aRedirectNotToBeFollowedIsTheAnswer(ask: OriginAsk) async throws {
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "/b")])
        defer { origin.stop() }
        var request = OriginRequest(url: origin.url("/a"), maxBodyBytes: 100)
        request.followRedirects = false
        let answer = try await ask.answer(makeTestClient(totalTimeout: .seconds(30)), request)
        #expect(answer.status == 302)
        #expect(answer.headers["Location"] == "/b")
        #expect(answer.finalURL == origin.url("/a"))
        #expect(origin.requests(path: "/b").isEmpty)
    }

    @Test(arguments: OriginAsk.allCases)
    func fiveHopsAreFollowedAndASixthOrALoopIsRefused(ask: OriginAsk) async throws {
        var routes: [String: TestOrigin.Behaviour] = ["/loop/a": TestOrigin.redirect(to: "/loop/b"), "/loop/b": TestOrigin.redirect(to: "/loop/a")]
        for hop in 0..<6 { routes["/\(hop)"] = TestOrigin.redirect(to: "/\(hop + 1)") }
        routes["/6"] = .raw(TestOrigin.response(status: 200, body: Array("end".utf8)))
        let origin = try TestOrigin(routes: routes)
        defer { origin.stop() }
        let client = makeTestClient(totalTimeout: .seconds(30))
        await #expect(throws: OriginError.redirectLoop) { try await ask.answer(client, OriginRequest(url: origin.url("/loop/a"), maxBodyBytes: 100)) }
        await #expect(throws: OriginError.redirectLoop) { try await ask.answer(client, OriginRequest(url: origin.url("/0"), maxBodyBytes: 100)) }
        #expect(origin.requests(path: "/6").isEmpty, "the sixth target is never asked for")
        let answer = try await ask.answer(client, OriginRequest(url: origin.url("/1"), maxBodyBytes: 100))
        #expect(answer.finalURL == origin.url("/6"))
        #expect(answer.body == Array("end".utf8))
    }

    @Test(arguments: OriginAsk.allCases)
    func aHopRefusedByAllowRedirectIsNeverAskedFor(ask: OriginAsk) async throws {
        let other = try TestOrigin(routes: [:])
        defer { other.stop() }
        let origin = try TestOrigin(routes: [
            "/away": TestOrigin.redirect(to: "http://localhost:\(other.port)/elsewhere"),
            "/file": TestOrigin.redirect(to: "file:///etc/passwd"),
        ])
        defer { origin.stop() }
        var refused = OriginRequest(url: origin.url("/away"), maxBodyBytes: 100)
        refused.allowRedirect = { $0.hasPrefix("http://127.0.0.1:") }
        await #expect(throws: OriginError.redirectNotAllowed) { try await ask.answer(makeTestClient(totalTimeout: .seconds(30)), refused) }
        #expect(other.requests().isEmpty)
        // file:// targets are refused even when allowRedirect would let anything through.
        await #expect(throws: OriginError.redirectNotAllowed) {
            try await ask.answer(makeTestClient(totalTimeout: .seconds(30)), OriginRequest(url: origin.url("/file"), maxBodyBytes: 100))
        }
    }

    @Test(arguments: OriginAsk.allCases)
    func fieldsForTheFirstOriginStayThereWhileSharedFieldsFollow(ask: OriginAsk) async throws {
        let other = try TestOrigin(routes: ["/elsewhere": .raw(TestOrigin.response(status: 200, body: Array("other".utf8)))])
        defer { other.stop() }
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "http://localhost:\(other.port)/elsewhere")])
        defer { origin.stop() }
        let seenTargets = TargetLog()
        var request = OriginRequest(
            url: origin.url("/a"), headers: ["Authorization": "Bearer t", "Cookie": "c=1", "X-Key": "k"], maxBodyBytes: 100)
        request.everyHopHeaders = ["Range": "bytes=0-4"]
        request.allowRedirect = { seenTargets.append($0); return true }
        let answer = try await ask.answer(makeTestClient(totalTimeout: .seconds(30)), request)
        #expect(answer.body == Array("other".utf8))
        #expect(seenTargets.all == ["http://localhost:\(other.port)/elsewhere"])
        #expect(origin.requests(path: "/a").first?.headers["Authorization"] == "Bearer t")
        let seen = try #require(other.requests().first)
        #expect(seen.headers["Authorization"] == nil)
        #expect(seen.headers["Cookie"] == nil)
        #expect(seen.headers["X-Key"] == nil)
        #expect(seen.headers["Range"] == "bytes=0-4")
    }

    @Test(arguments: OriginAsk.allCases)
    func onlyGetAndHeadAreAskedFor(ask: OriginAsk) async throws {
        await #expect(throws: OriginError.invalidRequest("only GET and HEAD are fetched")) {
            try await ask.answer(makeTestClient(totalTimeout: .seconds(30)), OriginRequest(url: "http://127.0.0.1:1/a", method: .post, maxBodyBytes: 100))
        }
    }
}

/// The two ways of asking an origin, which share one redirect-following core.
enum OriginAsk: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case fetch, stream

    var testDescription: String { rawValue }

    /// What came back, the body read to its end.
    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var finalURL: String
        var body: [UInt8]
    }

    /// Asks `client` for `request` this way.
    func answer(_ client: OriginClient, _ request: OriginRequest) async throws -> Answer {
        switch self {
        case .fetch:
            let response = try await client.fetch(request)
            return Answer(status: response.status, headers: response.headers, finalURL: response.finalURL, body: response.body)
        case .stream:
            let stream = try await client.stream(request)
            var body: [UInt8] = []
            while let piece = try await stream.next() { body += piece }
            return Answer(status: stream.status, headers: stream.headers, finalURL: stream.finalURL, body: body)
        }
    }
}
