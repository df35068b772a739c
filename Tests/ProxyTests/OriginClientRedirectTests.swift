import HTTPServer
@testable import Proxy
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct OriginClientRedirectTests {
    @Test(arguments: [301, 302, 303, 307, 308])
    func redirectsAreFollowedAndTheFinalURLKept(status: Int) async throws {
        let origin = try TestOrigin(routes: [
            "/live/master.m3u8": TestOrigin.redirect(status, to: "../cdn/v2/master.m3u8?sig=1"),
            "/cdn/v2/master.m3u8": .raw(TestOrigin.response(status: 200, body: Array("#EXTM3U\n".utf8))),
        ])
        defer { origin.stop() }
        let response = try await makeTestClient().fetch(OriginRequest(url: origin.url("/live/master.m3u8"), maxBodyBytes: 100))
        #expect(response.status == 200)
        #expect(response.body == Array("#EXTM3U\n".utf8))
        #expect(response.finalURL == origin.url("/cdn/v2/master.m3u8?sig=1"))
        #expect(origin.requests(path: "/cdn/v2/master.m3u8").first?.target == "/cdn/v2/master.m3u8?sig=1")
    }

    @Test func redirectsAreReturnedWhenNotFollowed() async throws {
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "/b")])
        defer { origin.stop() }
        var request = OriginRequest(url: origin.url("/a"), maxBodyBytes: 100)
        request.followRedirects = false
        let response = try await makeTestClient().fetch(request)
        #expect(response.status == 302)
        #expect(response.headers["Location"] == "/b")
        #expect(response.finalURL == origin.url("/a"))
    }

    @Test func aRedirectLoopIsDetected() async throws {
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "/b"), "/b": TestOrigin.redirect(to: "/a")])
        defer { origin.stop() }
        await #expect(throws: OriginError.redirectLoop) {
            try await makeTestClient().fetch(OriginRequest(url: origin.url("/a"), maxBodyBytes: 100))
        }
    }

    @Test func moreThanFiveHopsIsTooMany() async throws {
        var routes: [String: TestOrigin.Behaviour] = [:]
        for hop in 0..<6 { routes["/\(hop)"] = TestOrigin.redirect(to: "/\(hop + 1)") }
        routes["/6"] = .raw(TestOrigin.response(status: 200, body: []))
        routes["/5x"] = .raw(TestOrigin.response(status: 200, body: []))
        let origin = try TestOrigin(routes: routes)
        defer { origin.stop() }
        let client = makeTestClient()
        await #expect(throws: OriginError.redirectLoop) {
            try await client.fetch(OriginRequest(url: origin.url("/0"), maxBodyBytes: 100))
        }
        // Five hops (/1 ... /6) are allowed.
        let response = try await client.fetch(OriginRequest(url: origin.url("/1"), maxBodyBytes: 100))
        #expect(response.finalURL == origin.url("/6"))
    }

    @Test func everyHopIsCheckedAgainstAllowRedirect() async throws {
        let other = try TestOrigin(routes: ["/elsewhere": .raw(TestOrigin.response(status: 200, body: Array("other".utf8)))])
        defer { other.stop() }
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "http://localhost:\(other.port)/elsewhere")])
        defer { origin.stop() }
        let client = makeTestClient()
        var refused = OriginRequest(url: origin.url("/a"), maxBodyBytes: 100)
        refused.allowRedirect = { $0.hasPrefix("http://127.0.0.1:") }
        await #expect(throws: OriginError.redirectNotAllowed) { try await client.fetch(refused) }
        #expect(other.requests().isEmpty)

        let seenTargets = TargetLog()
        var allowed = OriginRequest(url: origin.url("/a"), headers: ["Authorization": "Bearer t", "X-Key": "k"], maxBodyBytes: 100)
        allowed.allowRedirect = { seenTargets.append($0); return true }
        let response = try await client.fetch(allowed)
        #expect(response.body == Array("other".utf8))
        #expect(response.finalURL == "http://localhost:\(other.port)/elsewhere")
        #expect(seenTargets.all == ["http://localhost:\(other.port)/elsewhere"])
        // Every field given for the first origin stays there, credentials or not.
        let seen = try #require(other.requests().first)
        #expect(seen.headers["Authorization"] == nil)
        #expect(seen.headers["X-Key"] == nil)
        #expect(seen.headers["Host"] == "localhost:\(other.port)")
    }

    @Test func fieldsForOneOriginAreRebuiltPerHopAndReturnWithARedirectBack() async throws {
        let home = try TestOrigin(routes: ["/final": .raw(TestOrigin.response(status: 200, body: Array("home".utf8)))])
        defer { home.stop() }
        let away = try TestOrigin(routes: ["/bounce": TestOrigin.redirect(to: home.url("/final"))])
        defer { away.stop() }
        let start = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: away.url("/bounce"))])
        defer { start.stop() }
        var request = OriginRequest(url: start.url("/a"), headers: ["X-Api-Key": "k"], maxBodyBytes: 100)
        request.headersOrigin = home.url("/")
        request.everyHopHeaders = ["Range": "bytes=0-1"]
        let response = try await makeTestClient().fetch(request)
        #expect(response.body == Array("home".utf8))
        // The start URL is not on the fields' origin either: only the shared fields go there and to the bounce.
        for seen in start.requests() + away.requests() {
            #expect(seen.headers["X-Api-Key"] == nil)
            #expect(seen.headers["Range"] == "bytes=0-1")
        }
        let back = try #require(home.requests(path: "/final").first)
        #expect(back.headers["X-Api-Key"] == "k")
        #expect(back.headers["Range"] == "bytes=0-1")
    }

    @Test func redirectsToFileURLsAreNeverFollowed() async throws {
        let origin = try TestOrigin(routes: ["/a": TestOrigin.redirect(to: "file:///etc/passwd")])
        defer { origin.stop() }
        await #expect(throws: OriginError.redirectNotAllowed) {
            try await makeTestClient().fetch(OriginRequest(url: origin.url("/a"), maxBodyBytes: 100))
        }
    }
}

/// Collects URLs from a @Sendable callback.
final class TargetLog: Sendable {
    private let targets = Mutex<[String]>([])
    func append(_ target: String) { targets.withLock { $0.append(target) } }
    var all: [String] { targets.withLock { $0 } }
}
