import Foundation
import TestSupport
import Testing

/// Framing edge cases over raw sockets against the real proxy: bare CR, a client that half-closes
/// mid-head, the exact header-size limit, and Range numbers too large for 64 bits.
@Suite struct HardeningRequestFramingTests {
    /// A header timeout far longer than any read below waits, so a 408 can never pass for the answer.
    static let config = """
        { "mounts": { "files": { "origin": "FIXTURES" } }, "timeouts": { "header_seconds": 60 } }
        """

    /// Sends `bytes` (then half-closes when asked) and reads until the proxy closes or 10 s pass.
    static func exchange(_ port: Int, _ bytes: [UInt8], halfClose: Bool = false) async throws -> (status: Int?, closed: Bool) {
        try await onThread {
            let socket = try RawSocketClient(port: port, timeout: .seconds(10))
            socket.sendIfOpen(bytes)
            if halfClose { socket.shutdownWrite() }
            let (received, closed) = socket.readUntilClose()
            return ((try? TestClient.parse(received, method: "GET"))?.status, closed)
        }
    }

    @Test func aBareCRInTheRequestLineGets400AtOnceInsteadOfWaitingForAnLF() async throws {
        try await withProxy(Self.config) { proxy in
            let result = try await Self.exchange(proxy.port, Array("GET / HTTP/1.1\rHost: x\r\r".utf8))
            #expect(result.status == 400)
            #expect(result.closed)
        }
    }

    @Test func aBareCRThenAHalfCloseGets400RatherThanNothing() async throws {
        try await withProxy(Self.config) { proxy in
            let result = try await Self.exchange(proxy.port, Array("GET / HTTP/1.1\rHost: x\r\r".utf8), halfClose: true)
            #expect(result.status == 400)
        }
    }

    @Test func aClientThatHalfClosesAfterAPartialHeadGets400RatherThanNothing() async throws {
        try await withProxy(Self.config) { proxy in
            let result = try await Self.exchange(proxy.port, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8), halfClose: true)
            #expect(result.status == 400)
            #expect(result.closed)
        }
    }

    @Test func aClientThatHalfClosesWithinADeclaredBodyGets400RatherThanNothing() async throws {
        try await withProxy(Self.config) { proxy in
            let head = "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc"
            let result = try await Self.exchange(proxy.port, Array(head.utf8), halfClose: true)
            #expect(result.status == 400)
        }
    }

    @Test func aHeaderSectionOfExactly32KiBIsServedAndOneByteMoreGets431() async throws {
        try await withProxy(Self.config) { proxy in
            let requestLine = "GET /healthz HTTP/1.1\r\n"
            let fixed = "Host: x\r\nConnection: close\r\nX-Pad: \r\n\r\n".utf8.count
            func head(headerBytes: Int) -> [UInt8] {
                Array((requestLine + "Host: x\r\nConnection: close\r\nX-Pad: \(String(repeating: "p", count: headerBytes - fixed))\r\n\r\n").utf8)
            }
            let exact = head(headerBytes: 32_768)
            #expect(exact.count - requestLine.utf8.count == 32_768)
            let served = try await Self.exchange(proxy.port, exact)
            let refused = try await Self.exchange(proxy.port, head(headerBytes: 32_769))
            #expect(served.status == 200)
            #expect(refused.status == 431)
        }
    }

    @Test func aRangeWhoseLastBytePositionExceeds64BitsIsClampedTo206() async throws {
        try await withProxy(Self.config) { proxy in
            let whole = try await proxy.get("/files/vod-ts/master.m3u8")
            #expect(whole.status == 200)
            let length = whole.body.count
            for last in ["9223372036854775807", "9223372036854775808", "99999999999999999999999999999999"] {
                let response = try await proxy.get("/files/vod-ts/master.m3u8", headers: [("Range", "bytes=0-\(last)")])
                #expect(response.status == 206, "bytes=0-\(last)")
                #expect(response.header("Content-Range") == "bytes 0-\(length - 1)/\(length)")
                #expect(response.body == whole.body)
            }
            // A first-byte-pos that large is past the end: 416, not an overflow.
            let beyond = try await proxy.get("/files/vod-ts/master.m3u8", headers: [("Range", "bytes=99999999999999999999999-")])
            #expect(beyond.status == 416)
            // A suffix longer than the body is the whole body.
            let suffix = try await proxy.get("/files/vod-ts/master.m3u8", headers: [("Range", "bytes=-99999999999999999999999")])
            #expect(suffix.status == 206)
            #expect(suffix.body == whole.body)
        }
    }
}
