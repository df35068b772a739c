import HTTPServer
@testable import Proxy
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct OriginClientCoalescingTests {
    @Test func concurrentIdenticalFetchesShareOneOriginRequest() async throws {
        let body = Array("WEBVTT\n\n".utf8)
        let origin = try TestOrigin(routes: ["/slow.vtt": .gated(TestOrigin.response(status: 200, body: body))])
        defer { origin.stop() }
        let client = makeTestClient()
        let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 {
                group.addTask { try await client.fetch(OriginRequest(url: origin.url("/slow.vtt"), maxBodyBytes: 100)).body }
            }
            // The origin answers only once all eight callers are waiting on the fetch.
            try await eventually { client.coalescer.waitingCount >= 8 }
            origin.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies.count == 8)
        #expect(bodies.allSatisfy { $0 == body })
        #expect(origin.requests(path: "/slow.vtt").count == 1)
        #expect(client.coalescer.inFlightCount == 0)
    }

    @Test func fetchesWithDifferentHeadersAreNotShared() async throws {
        let origin = try TestOrigin(routes: ["/slow": .gated(TestOrigin.response(status: 200, body: []))])
        defer { origin.stop() }
        let client = makeTestClient()
        async let a = client.fetch(OriginRequest(url: origin.url("/slow"), headers: ["Cookie": "a"], maxBodyBytes: 10))
        async let b = client.fetch(OriginRequest(url: origin.url("/slow"), headers: ["Cookie": "b"], maxBodyBytes: 10))
        try await eventually { client.coalescer.waitingCount >= 2 }
        origin.release()
        _ = try await (a, b)
        #expect(origin.requests(path: "/slow").count == 2)
    }

    @Test func aCancelledCallerDoesNotCancelTheSharedFetch() async throws {
        let body = Array("shared".utf8)
        let origin = try TestOrigin(routes: ["/slow": .gated(TestOrigin.response(status: 200, body: body))])
        defer { origin.stop() }
        let client = makeTestClient()
        let request = OriginRequest(url: origin.url("/slow"), maxBodyBytes: 100)
        let first = Task { try await client.fetch(request) }
        let second = Task { try await client.fetch(request) }
        try await eventually { client.coalescer.waitingCount >= 2 }
        first.cancel()
        await #expect(throws: OriginError.cancelled) { try await first.value }
        origin.release()
        let response = try await second.value
        #expect(response.body == body)
        #expect(origin.requests(path: "/slow").count == 1)
    }

    @Test func aJoinedCallerStillAppliesItsOwnRedirectPolicy() async throws {
        let origin = try TestOrigin(routes: [
            "/a": .gated(TestOrigin.response(status: 302, headers: [("Location", "/b")], body: [])),
            "/b": .raw(TestOrigin.response(status: 200, body: [])),
        ])
        defer { origin.stop() }
        let client = makeTestClient()
        let permissive = OriginRequest(url: origin.url("/a"), maxBodyBytes: 10)
        var strict = permissive
        strict.allowRedirect = { _ in false }
        let first = Task { try await client.fetch(permissive) }
        try await eventually { client.coalescer.waitingCount >= 1 }
        let second = Task { try await client.fetch(strict) }
        try await eventually { client.coalescer.waitingCount >= 2 }
        origin.release()
        #expect(try await first.value.status == 200)
        await #expect(throws: OriginError.redirectNotAllowed) { try await second.value }
        #expect(origin.requests(path: "/a").count == 1)
    }

    @Test func aJoinedCallerIsNotBoundByTheFirstCallersRefusal() async throws {
        let origin = try TestOrigin(routes: [
            "/a": .gated(TestOrigin.response(status: 302, headers: [("Location", "/b")], body: [])),
            "/b": .raw(TestOrigin.response(status: 200, body: Array("b".utf8))),
        ])
        defer { origin.stop() }
        let client = makeTestClient()
        let permissive = OriginRequest(url: origin.url("/a"), maxBodyBytes: 10)
        var strict = permissive
        strict.allowRedirect = { _ in false }
        let first = Task { try await client.fetch(strict) }
        try await eventually { client.coalescer.waitingCount >= 1 }
        let second = Task { try await client.fetch(permissive) }
        try await eventually { client.coalescer.waitingCount >= 2 }
        origin.release()
        await #expect(throws: OriginError.redirectNotAllowed) { try await first.value }
        #expect(try await second.value.body == Array("b".utf8))
    }
}
