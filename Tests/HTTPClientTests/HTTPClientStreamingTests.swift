@testable import HTTPClient
@testable import HTTPWire
import TestSupport
import Testing

@Suite struct HTTPClientStreamingTests {
    @Test(arguments: [1, 5, 4096])
    func streamedChunkedBodiesArriveWholeInPieces(pieceSize: Int) throws {
        let wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n6\r\npedia \r\n0\r\n\r\n"
        var reader = HTTPResponseReader(source: CannedByteSource(wire, pieceSize: pieceSize))
        let head = try reader.readHead()
        var pieces: [[UInt8]] = []
        try reader.streamBody(HTTPBodyFraming.of(method: .get, status: head.status, headers: head.headers)) { piece in
            pieces.append(Array(piece))
        }
        #expect(String(decoding: pieces.flatMap { $0 }, as: UTF8.self) == "Wikipedia ")
        #expect(pieces.allSatisfy { !$0.isEmpty })
        // One byte per read means one piece per body byte: nothing waits for the whole body.
        if pieceSize == 1 { #expect(pieces.count == 10) }
    }

    @Test func aStreamedBodyPastTheLimitStopsBeforeTheExcess() throws {
        var reader = HTTPResponseReader(source: CannedByteSource("HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 50), pieceSize: 7))
        _ = try reader.readHead()
        var received = 0
        #expect(throws: HTTPClientError.bodyTooLarge(limit: 20)) {
            try reader.streamBody(.untilClose, limit: 20) { received += $0.count }
        }
        #expect(received <= 20)
    }

    @Test func aSlowConsumerHoldsTheOriginBack() async throws {
        let origin = try TestOrigin(routes: ["/": .firehose(bodyBytes: 200 << 20)])
        defer { origin.stop() }
        let response = try await HTTPClient.stream(
            HTTPClientRequest(host: "127.0.0.1", port: origin.port, target: "/"),
            connectTimeout: .seconds(2), headTimeout: .seconds(5), idleTimeout: .seconds(5), bufferBytes: 128 * 1024)
        _ = try await response.body.next()
        // The consumer reads nothing more: the client stops reading the socket once its buffer is full.
        try await eventually { response.body.channel.isProducerWaiting }
        // Timed on purpose: the kernel's socket buffers fill after that, with no event to wait for.
        try await Task.sleep(for: .milliseconds(300))
        let stalledAt = origin.bodyBytesSent
        // Timed on purpose: "the origin sends nothing more" can only be watched over a stretch of time.
        try await Task.sleep(for: .milliseconds(200))
        #expect(stalledAt < 32 << 20)
        #expect(origin.bodyBytesSent == stalledAt)
        response.body.cancel()
        try await eventually { origin.finishedConnections == 1 }
    }

    @Test func cancellingTheBodyClosesTheOriginConnection() async throws {
        let origin = try TestOrigin(routes: ["/": .firehose(bodyBytes: 200 << 20)])
        defer { origin.stop() }
        let response = try await HTTPClient.stream(
            HTTPClientRequest(host: "127.0.0.1", port: origin.port, target: "/"),
            connectTimeout: .seconds(2), headTimeout: .seconds(5), idleTimeout: .seconds(5))
        #expect(try await response.body.next() != nil)
        response.body.cancel()
        await #expect(throws: HTTPClientError.cancelled) { try await response.body.next() }
        try await eventually { origin.connectionsClosedByClient == 1 }
        #expect(origin.bodyBytesSent < 200 << 20)
    }

    @Test func droppingTheBodyStreamAlsoClosesTheOriginConnection() async throws {
        let origin = try TestOrigin(routes: ["/": .firehose(bodyBytes: 200 << 20)])
        defer { origin.stop() }
        do {
            let response = try await HTTPClient.stream(
                HTTPClientRequest(host: "127.0.0.1", port: origin.port, target: "/"),
                connectTimeout: .seconds(2), headTimeout: .seconds(5), idleTimeout: .seconds(5))
            #expect(try await response.body.next() != nil)
        }
        try await eventually { origin.connectionsClosedByClient == 1 }
    }
}
