import Foundation
import TestSupport
import Testing

/// Requests the HTTP server refuses before routing are logged and counted like any other response,
/// under route `rejected`, and carry the CORS fields a browser needs to read the error.
@Suite struct HardeningRejectedRequestTests {
    static let config = #"{ "mounts": {}, "timeouts": { "header_seconds": 1 } }"#
    static let origin = "Origin: https://player.example\r\n"

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var status: Int
        var testDescription: String { "\(name) -> \(status)" }
        init(_ name: String, _ text: String, _ status: Int) {
            self.name = name
            self.bytes = Array(text.utf8)
            self.status = status
        }
    }

    static let rows: [Row] = [
        Row("no Host", "GET /healthz HTTP/1.1\r\n\(origin)\r\n", 400),
        Row("head never finished", "GET /healthz HTTP/1.1\r\nHost: x\r\n\(origin)X-Slow: a", 408),
        Row("body over the limit", "GET /healthz HTTP/1.1\r\nHost: x\r\n\(origin)Content-Length: 2000000\r\n\r\n", 413),
        Row("request line of 9000 bytes", "GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        Row("header section of 40 KB", "GET /healthz HTTP/1.1\r\nHost: x\r\n\(origin)X-Big: \(String(repeating: "b", count: 40_000))\r\n\r\n", 431),
        Row("unknown method", "PROPFIND /healthz HTTP/1.1\r\nHost: x\r\n\(origin)\r\n", 501),
        Row("HTTP/3.0", "GET /healthz HTTP/3.0\r\nHost: x\r\n\(origin)\r\n", 505),
    ]

    /// Sends the bytes and reads until the proxy closes.
    static func send(_ bytes: [UInt8], port: Int) async throws -> [UInt8] {
        try await onThread {
            let socket = try RawSocketClient(port: port, timeout: .seconds(10))
            socket.sendIfOpen(bytes)
            return socket.readUntilClose().bytes
        }
    }

    static func accessLines(_ proxy: ProxyHarness) -> [String] {
        proxy.logLines.filter { $0.contains(#""route":"rejected""#) }
    }

    @Test(arguments: rows)
    func aRejectedRequestIsLoggedCountedAndReadableFromABrowser(_ row: Row) async throws {
        try await withProxy(Self.config) { proxy in
            let response = try TestClient.parse(try await Self.send(row.bytes, port: proxy.port), method: "GET")
            #expect(response.status == row.status)
            #expect(response.header("X-HLS-Proxy-Route") == "rejected")
            #expect(response.header("Access-Control-Allow-Origin") == "*")
            let lines = Self.accessLines(proxy)
            #expect(lines.count == 1, "\(proxy.logLines)")
            #expect(lines.first?.contains(#""status":\#(row.status)"#) == true, "\(lines)")
            let metrics = try await proxy.get("/metrics")
            #expect(metrics.text.contains(#"hls_proxy_requests_total{route="rejected",status="\#(row.status)"} 1"#), "\(metrics.text)")
        }
    }

    @Test func aRejectedRequestLogsItsMethodAndPathWithoutTheQuery() async throws {
        try await withProxy(Self.config) { proxy in
            _ = try await Self.send(Array("GET /a/b?token=secret HTTP/1.1\r\n\r\n".utf8), port: proxy.port)
            let line = try #require(Self.accessLines(proxy).first)
            #expect(line.contains(#""method":"GET","path":"/a/b","route":"rejected","status":400"#), "\(line)")
            #expect(!line.contains("secret"))
        }
    }

    @Test func aRejectedRequestFromAnAllowedOriginGetsThatOriginBack() async throws {
        let config = #"{ "mounts": {}, "cors": { "allow_origins": ["https://player.example"] } }"#
        try await withProxy(config) { proxy in
            let allowed = try TestClient.parse(try await Self.send(Array("GET /healthz HTTP/1.1\r\n\(Self.origin)\r\n".utf8), port: proxy.port), method: "GET")
            #expect(allowed.status == 400)
            #expect(allowed.header("Access-Control-Allow-Origin") == "https://player.example")
            #expect(allowed.header("Vary") == "Origin")
            let other = try TestClient.parse(
                try await Self.send(Array("GET /healthz HTTP/1.1\r\nOrigin: https://evil.example\r\n\r\n".utf8), port: proxy.port), method: "GET")
            #expect(other.status == 400)
            #expect(other.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func aConnectionOverTheCapIsLoggedCountedAndReadableFromABrowser() async throws {
        let config = #"{ "mounts": {}, "limits": { "max_connections": 1 } }"#
        try await withProxy(config) { proxy in
            let port = proxy.port
            let refused = try await onThread { () -> [UInt8] in
                // The one connection allowed is held open (answered, kept alive) while a second arrives.
                let holder = try RawSocketClient(port: port, timeout: .seconds(10))
                holder.sendIfOpen(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                _ = holder.read(atLeast: 1)
                let second = try RawSocketClient(port: port, timeout: .seconds(10))
                return second.readUntilClose().bytes
            }
            let response = try TestClient.parse(refused, method: "GET")
            #expect(response.status == 503)
            #expect(response.header("X-HLS-Proxy-Route") == "rejected")
            #expect(response.header("Access-Control-Allow-Origin") == "*")
            let line = try #require(Self.accessLines(proxy).first)
            #expect(line.contains(#""method":"-","path":"-","route":"rejected","status":503"#), "\(line)")
            // The holder is closed by now, but the loop may not have seen its close yet: a /metrics
            // connection arriving before that is itself refused with 503 and counted, so the count
            // expected is the first refusal plus every refusal /metrics got on its way in.
            var refusals = 1
            var metrics = try await proxy.get("/metrics")
            try await eventually("/metrics kept answering \(metrics.status)") {
                if metrics.status == 503 { refusals += 1 }
                if metrics.status != 200 { metrics = try await proxy.get("/metrics") }
                return metrics.status == 200
            }
            #expect(metrics.text.contains(#"hls_proxy_requests_total{route="rejected",status="503"} \#(refusals)"#), "\(metrics.text)")
        }
    }
}
