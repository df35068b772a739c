import Foundation
@testable import HTTPClient
import TestSupport
import Testing

/// What a streamed exchange costs in descriptors: the exchange ceiling (HTTPExchangeSlots) counts two
/// per exchange, the socket and the cancellation eventfd, so a held body must hold nothing more.
@Suite struct HTTPClientDescriptorTests {
    /// This process's open descriptors other than sockets, and how many of them are eventfds
    /// (/proc/self/fd's links). Sockets are left out: suites running meanwhile open hundreds.
    private static func descriptors() -> (all: Int, eventfds: Int) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let links = names.map { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) ?? "" }
        return (links.filter { !$0.hasPrefix("socket:") }.count, links.filter { $0.contains("eventfd") }.count)
    }

    /// Other suites open and close descriptors meanwhile, so each bound is waited for (it holds once
    /// their transient descriptors are gone) rather than read once.
    @Test func streamsInFlightAndHeldAfterCancellingHoldOnlyTheSocketAndTheCancellationEventfd() async throws {
        let streams = 10
        let origin = try TestOrigin(routes: ["/": .firehose(bodyBytes: 200 << 20)])
        defer { origin.stop() }
        let before = Self.descriptors()
        var bodies: [HTTPClientBodyStream] = []
        for _ in 0..<streams {
            let response = try await HTTPClient.stream(
                HTTPClientRequest(host: "127.0.0.1", port: origin.port, target: "/"),
                connectTimeout: .seconds(2), headTimeout: .seconds(5), idleTimeout: .seconds(5), bufferBytes: 64 * 1024)
            #expect(try await response.body.next() != nil)
            bodies.append(response.body)
        }
        // Every exchange thread blocks on a full buffer: the waits the wakeup serves are all in use.
        try await eventually { bodies.allSatisfy { $0.channel.isProducerWaiting } }
        // Per stream, besides sockets: the cancellation eventfd; a wakeup eventfd (or any other
        // descriptor) would make it two, so the bound is fewer than two per stream (room for what other
        // suites open meanwhile).
        try await eventually("in flight: \(Self.descriptors()) against \(before) before") {
            let now = Self.descriptors()
            return now.eventfds - before.eventfds < 2 * streams && now.all - before.all < 2 * streams
        }
        for body in bodies { body.cancel() }
        try await eventually { origin.connectionsClosedByClient == streams }
        // The bodies are still held: each exchange is over, so nothing of it stays open (a wakeup eventfd
        // per held body would leave `streams` of them; fewer leaves room for what other suites open).
        try await eventually("held after cancelling: \(Self.descriptors()) against \(before) before") {
            let now = Self.descriptors()
            return now.eventfds - before.eventfds < streams && now.all - before.all < streams
        }
        withExtendedLifetime(bodies) {}
    }
}
