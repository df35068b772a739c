import Foundation
import TestSupport
import Testing

/// The bad-request corpus against the real proxy over real sockets: each row gets its status, and
/// after each the proxy still answers a normal request.
@Suite struct HardeningBadRequestTests {
    /// The standard proxy with a short header timeout, so a row that stalls fails fast.
    static let config = ProxyHarness.standardConfig.replacingOccurrences(
        of: #""timeouts": { "origin_seconds": 1 }"#, with: #""timeouts": { "origin_seconds": 1, "header_seconds": 3 }"#)

    static func send(_ row: BadRequestRow, port: Int) async throws -> (bytes: [UInt8], closed: Bool) {
        try await onThread {
            let socket = try RawSocketClient(port: port, timeout: .seconds(10))
            socket.sendIfOpen(row.bytes)
            if row.halfCloses { socket.shutdownWrite() }
            return socket.readUntilClose()
        }
    }

    static func check(_ row: BadRequestRow, proxy: ProxyHarness) async throws {
        let (bytes, closed) = try await send(row, port: proxy.port)
        #expect(closed, "\(row.name): the connection should be closed")
        let response = try TestClient.parse(bytes, method: "GET")
        #expect(response.status == row.status, "\(row.name): \(response.status) \(response.text.prefix(100))")
        #expect(statusLineCount(bytes) == 1, "\(row.name): exactly one response")
        #expect(response.header("Set-Cookie") == nil, "\(row.name): no header from the request may be echoed")
        let health = try await proxy.get("/healthz")
        #expect(health.status == 200, "\(row.name): the proxy must still serve")
    }

    @Test func corpusHasAtLeastSixtyDistinctRows() throws {
        let rows = badRequestTable + (try BadRequestFiles.rows())
        #expect(rows.count >= 60)
        #expect(Set(rows.map(\.name)).count == rows.count)
        #expect(try BadRequestFiles.rows().allSatisfy { $0.status > 0 })
    }

    @Test func everyTableRowGetsItsStatusAndTheProxyStillServes() async throws {
        try await withProxy(Self.config) { proxy in
            for row in badRequestTable { try await Self.check(row, proxy: proxy) }
        }
    }

    @Test func everyFileRowGetsItsStatusAndTheProxyStillServes() async throws {
        let rows = try BadRequestFiles.rows()
        #expect(rows.map(\.name).contains("tls-client-hello"))
        try await withProxy(Self.config) { proxy in
            for row in rows { try await Self.check(row, proxy: proxy) }
        }
    }

    @Test func aBodyOnAGetIsReadAsBodyNeverAsASecondRequest() async throws {
        let smuggled = "GET /metrics HTTP/1.1\r\nHost: proxy\r\n\r\n"
        let request = "GET /healthz HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\nContent-Length: \(smuggled.utf8.count)\r\n\r\n" + smuggled
        try await withProxy(Self.config) { proxy in
            let (bytes, closed) = try await Self.send(BadRequestRow("smuggle", request, 200), port: proxy.port)
            #expect(closed)
            #expect(statusLineCount(bytes) == 1)
            #expect(try TestClient.parse(bytes, method: "GET").text == "ok\n")
        }
    }

    @Test func aRequestLineSplitIntoOneByteWritesIsServed() async throws {
        // 76 writes with a pause after each can take seconds on a loaded machine (the whole suite runs in
        // parallel): the head deadline and the read wait are generous, since the split is the point.
        let config = ProxyHarness.standardConfig.replacingOccurrences(
            of: #""timeouts": { "origin_seconds": 10 }"#, with: #""timeouts": { "origin_seconds": 10, "header_seconds": 120 }"#)
        #expect(config != ProxyHarness.standardConfig)
        try await withProxy(config) { proxy in
            let port = proxy.port
            let response = try await onThread { () -> [UInt8] in
                let socket = try RawSocketClient(port: port, timeout: .seconds(60))
                for byte in Array("GET /files/vod-ts/master.m3u8 HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n\r\n".utf8) {
                    socket.sendIfOpen([byte])
                    usleep(500)  // spaced out so bytes arrive in separate reads: the split is the point
                }
                return socket.readUntilClose().bytes
            }
            let parsed = try TestClient.parse(response, method: "GET")
            #expect(parsed.status == 200)
            #expect(parsed.text.contains("#EXT-X-MEDIA:TYPE=SUBTITLES"))
        }
    }

    @Test func aPipelinedFloodIsAnsweredInOrderAndCompletely() async throws {
        try await withProxy(Self.config) { proxy in
            let port = proxy.port
            let count = 2000
            var flood: [UInt8] = []
            for index in 0..<count {
                let last = index == count - 1
                flood += Array("GET /healthz?n=\(index) HTTP/1.1\r\nHost: proxy\r\n\(last ? "Connection: close\r\n" : "")\r\n".utf8)
            }
            let payload = flood
            let (bytes, closed) = try await onThread { () -> ([UInt8], Bool) in
                let socket = try RawSocketClient(port: port, timeout: .seconds(10))
                // Send from a second thread: the server answers while we write, and both buffers fill.
                let writer = Thread { socket.sendIfOpen(payload) }
                writer.start()
                return socket.readUntilClose()
            }
            #expect(closed)
            #expect(statusLineCount(bytes) == count)
            #expect(try await proxy.get("/healthz").status == 200)
        }
    }

    @Test func aHalfCloseAfterACompleteRequestStillGetsTheAnswer() async throws {
        try await withProxy(Self.config) { proxy in
            let port = proxy.port
            let (bytes, closed) = try await onThread { () -> ([UInt8], Bool) in
                let socket = try RawSocketClient(port: port, timeout: .seconds(10))
                socket.sendIfOpen(Array("GET /healthz HTTP/1.1\r\nHost: proxy\r\n\r\n".utf8))
                socket.shutdownWrite()
                return socket.readUntilClose()
            }
            #expect(closed)
            #expect(try TestClient.parse(bytes, method: "GET").status == 200)
        }
    }

    @Test func aHalfCloseMidHeaderIsAnswered400AndClosedWithoutWaitingForTheTimeout() async throws {
        // A 60 s header timeout and a 10 s read timeout: only an answer on end of stream can pass.
        let config = ProxyHarness.standardConfig.replacingOccurrences(
            of: #""timeouts": { "origin_seconds": 1 }"#, with: #""timeouts": { "origin_seconds": 1, "header_seconds": 60 }"#)
        try await withProxy(config) { proxy in
            let port = proxy.port
            let (bytes, closed) = try await onThread { () -> ([UInt8], Bool) in
                let socket = try RawSocketClient(port: port, timeout: .seconds(10))
                socket.sendIfOpen(Array("GET /healthz HTTP/1.1\r\nHo".utf8))
                socket.shutdownWrite()
                return socket.readUntilClose()
            }
            #expect(closed)
            #expect(try TestClient.parse(bytes, method: "GET").status == 400)
        }
    }
}
