import Foundation
@testable import HTTPClient
import TestSupport
import Testing

/// What a streamed exchange costs in descriptors: the exchange ceiling (HTTPExchangeSlots) counts two
/// per exchange, the socket and the cancellation eventfd, so a held body must hold nothing more.
@Suite struct HTTPClientDescriptorTests {
    /// How many of this process's open descriptors are eventfds (/proc/self/fd's links). Only those
    /// are counted: suites running meanwhile open hundreds of sockets and files at once.
    private static func eventfds() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.filter { name in
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) ?? "").contains("eventfd")
        }.count
    }

    /// Other suites open and close descriptors meanwhile, so each bound is waited for (it holds once
    /// their transient descriptors are gone) rather than read once.
    @Test func streamsInFlightAndHeldAfterCancellingHoldNoEventfdButTheCancellationOne() async throws {
        let streams = 10
        let origin = try TestOrigin(routes: ["/": .firehose(bodyBytes: 200 << 20)])
        defer { origin.stop() }
        let before = Self.eventfds()
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
        // Per stream, one eventfd: the cancellation's; a wakeup eventfd would make it two, so the bound
        // is fewer than two per stream (room for what other suites open meanwhile).
        try await eventually("in flight: \(Self.eventfds()) eventfds against \(before) before") {
            Self.eventfds() - before < 2 * streams
        }
        for body in bodies { body.cancel() }
        try await eventually { origin.connectionsClosedByClient == streams }
        // The bodies are still held: each exchange is over, so nothing of it stays open (a wakeup eventfd
        // per held body would leave `streams` of them; fewer leaves room for what other suites open).
        try await eventually("held after cancelling: \(Self.eventfds()) eventfds against \(before) before") {
            Self.eventfds() - before < streams
        }
        withExtendedLifetime(bodies) {}
    }
}
