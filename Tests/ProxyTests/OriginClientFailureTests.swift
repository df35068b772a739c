import HTTPServer
@testable import Proxy
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct OriginClientFailureTests {
    @Test func aRefusedConnectionIsUnreachable() async throws {
        let client = makeTestClient()
        let error = await #expect(throws: OriginError.self) {
            try await client.fetch(OriginRequest(url: "http://127.0.0.1:\(LoopbackPort.refusing)/a", maxBodyBytes: 10))
        }
        guard case .unreachable(let reason) = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("refused"))
        #expect(error?.status == .badGateway)
    }

    @Test func anOriginThatAcceptsAndHangsTimesOut() async throws {
        let origin = try TestOrigin(routes: ["/hang": .hang])
        defer { origin.stop() }
        let client = makeTestClient(totalTimeout: .milliseconds(300))
        let error = await #expect(throws: OriginError.timeout) {
            try await client.fetch(OriginRequest(url: origin.url("/hang"), maxBodyBytes: 10))
        }
        #expect(error?.status == .gatewayTimeout)
    }

    @Test func aSlowDripPastTheTotalDeadlineTimesOut() async throws {
        let origin = try TestOrigin(routes: ["/drip": .drip(TestOrigin.response(status: 200, body: Array("slow body".utf8)), interval: .milliseconds(200))])
        defer { origin.stop() }
        let client = makeTestClient(totalTimeout: .milliseconds(300))
        await #expect(throws: OriginError.timeout) {
            try await client.fetch(OriginRequest(url: origin.url("/drip"), maxBodyBytes: 100))
        }
    }

    @Test func aBodyShorterThanContentLengthIsABadResponse() async throws {
        let origin = try TestOrigin(routes: ["/t": .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this".utf8))])
        defer { origin.stop() }
        await #expect(throws: OriginError.badResponse("body cut short by connection close")) {
            try await makeTestClient().fetch(OriginRequest(url: origin.url("/t"), maxBodyBytes: 1000))
        }
    }

    @Test func aChunkedBodyCutShortIsABadResponse() async throws {
        let origin = try TestOrigin(routes: ["/t": .raw(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nshort".utf8))])
        defer { origin.stop() }
        await #expect(throws: OriginError.badResponse("body cut short by connection close")) {
            try await makeTestClient().fetch(OriginRequest(url: origin.url("/t"), maxBodyBytes: 1000))
        }
    }

    @Test func aDeclaredLengthOverTheCapIsRefusedWithoutReadingIt() async throws {
        // Claims 1 TB and sends a few bytes: the client must refuse on the claim, not allocate or wait.
        let origin = try TestOrigin(routes: ["/big": .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\nabc".utf8))])
        defer { origin.stop() }
        let error = await #expect(throws: OriginError.tooLarge(limit: 1024)) {
            try await makeTestClient().fetch(OriginRequest(url: origin.url("/big"), maxBodyBytes: 1024))
        }
        #expect(error?.status == .badGateway)
    }

    @Test func oversizeChunkedAndCloseDelimitedBodiesAreRefused() async throws {
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 5000)
        let chunked = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1388\r\n".utf8) + payload + Array("\r\n0\r\n\r\n".utf8)
        let untilClose = Array("HTTP/1.1 200 OK\r\n\r\n".utf8) + payload
        let origin = try TestOrigin(routes: ["/chunked": .raw(chunked), "/close": .raw(untilClose)])
        defer { origin.stop() }
        let client = makeTestClient()
        await #expect(throws: OriginError.tooLarge(limit: 4096)) {
            try await client.fetch(OriginRequest(url: origin.url("/chunked"), maxBodyBytes: 4096))
        }
        await #expect(throws: OriginError.tooLarge(limit: 4096)) {
            try await client.fetch(OriginRequest(url: origin.url("/close"), maxBodyBytes: 4096))
        }
        // Exactly at the cap is fine.
        let exact = try await client.fetch(OriginRequest(url: origin.url("/chunked"), maxBodyBytes: 5000))
        #expect(exact.body.count == 5000)
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
        "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\nx\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX\r\n0\r\n\r\n",
        "ICY 200 OK\r\n\r\n",
        "HTTP/1.1 2OO OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
    ])
    func malformedResponsesAreBadResponses(wire: String) async throws {
        let origin = try TestOrigin(routes: ["/m": .raw(Array(wire.utf8))])
        defer { origin.stop() }
        let error = await #expect(throws: OriginError.self) {
            try await makeTestClient().fetch(OriginRequest(url: origin.url("/m"), maxBodyBytes: 1000))
        }
        guard case .badResponse = error else {
            Issue.record("expected badResponse, got \(String(describing: error))")
            return
        }
    }

    @Test func anOriginClosingWithoutAnswerIsUnreachable() async throws {
        let origin = try TestOrigin(routes: ["/empty": .raw([])])
        defer { origin.stop() }
        let error = await #expect(throws: OriginError.self) {
            try await makeTestClient().fetch(OriginRequest(url: origin.url("/empty"), maxBodyBytes: 10))
        }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }

    @Test func cancellingTheOnlyCallerClosesTheOriginConnection() async throws {
        let origin = try TestOrigin(routes: ["/hang": .hang])
        defer { origin.stop() }
        let client = makeTestClient(totalTimeout: .seconds(30))
        let fetch = Task { try await client.fetch(OriginRequest(url: origin.url("/hang"), maxBodyBytes: 10)) }
        try await eventually { !origin.requests(path: "/hang").isEmpty }
        fetch.cancel()
        await #expect(throws: OriginError.cancelled) { try await fetch.value }
        // The socket is closed, not left to the 30 s deadline: the origin sees the close.
        try await eventually { origin.connectionsClosedByClient > 0 }
        #expect(origin.connectionsClosedByClient == 1)
    }

    @Test func errorReasonsAreOneLineAndCarryNoHeaderValues() {
        let errors: [OriginError] = [.unreachable("connect: Connection refused (errno 111)"), .timeout, .tooLarge(limit: 5),
                                     .badResponse("bad Content-Length"), .redirectLoop, .redirectNotAllowed,
                                     .notFoundFile, .forbiddenFile, .invalidRequest("bad host"), .cancelled]
        #expect(errors.map(\.status.code) == [502, 504, 502, 502, 502, 502, 404, 403, 502, 499])
        for error in errors {
            #expect(!error.reason.contains("\n"))
        }
    }
}
