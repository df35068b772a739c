import HTTPServer
import TestSupport
import Testing

/// One request the server must refuse, and the status it must refuse it with.
struct MalformedRequest: Sendable, CustomTestStringConvertible {
    var rule: String
    var bytes: [UInt8]
    var status: Int
    var testDescription: String { "\(rule) -> \(status)" }

    init(_ rule: String, _ text: String, _ status: Int) {
        self.init(rule, Array(text.utf8), status)
    }

    init(_ rule: String, _ bytes: [UInt8], _ status: Int) {
        self.rule = rule
        self.bytes = bytes
        self.status = status
    }
}

let host = "Host: test\r\n"

/// One row per rule (RFC 9112 strictness, limits, methods, versions, targets).
let malformedRequests: [MalformedRequest] = [
    .init("NUL in a header value", Array("GET / HTTP/1.1\r\n\(host)X-A: a".utf8) + [0] + Array("b\r\n\r\n".utf8), 400),
    .init("control byte in the request line", Array("GET /".utf8) + [1] + Array(" HTTP/1.1\r\n\(host)\r\n".utf8), 400),
    .init("DEL byte in a header value", Array("GET / HTTP/1.1\r\n\(host)X-A: a".utf8) + [0x7F] + Array("\r\n\r\n".utf8), 400),
    .init("obs-fold continuation line", "GET / HTTP/1.1\r\n\(host)X-A: a\r\n  folded\r\n\r\n", 400),
    .init("whitespace before the colon", "GET / HTTP/1.1\r\n\(host)X-A : a\r\n\r\n", 400),
    .init("invalid character in a header name", "GET / HTTP/1.1\r\n\(host)X[A]: a\r\n\r\n", 400),
    .init("header line without a colon", "GET / HTTP/1.1\r\n\(host)NoColonHere\r\n\r\n", 400),
    .init("bare CR inside a header line", "GET / HTTP/1.1\r\n\(host)X-A: a\rb\r\n\r\n", 400),
    .init("missing Host on HTTP/1.1", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", 400),
    .init("two Host headers", "GET / HTTP/1.1\r\n\(host)\(host)\r\n", 400),
    .init("Content-Length with Transfer-Encoding", "GET / HTTP/1.1\r\n\(host)Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc", 400),
    .init("conflicting Content-Lengths", "GET / HTTP/1.1\r\n\(host)Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
    .init("conflicting Content-Length list", "GET / HTTP/1.1\r\n\(host)Content-Length: 3, 4\r\n\r\nabcd", 400),
    .init("non-numeric Content-Length", "GET / HTTP/1.1\r\n\(host)Content-Length: 3x\r\n\r\nabc", 400),
    .init("negative Content-Length", "GET / HTTP/1.1\r\n\(host)Content-Length: -1\r\n\r\n", 400),
    .init("HTTP/2 connection preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400),
    .init("TLS ClientHello", [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03], 400),
    .init("bad percent escape %zz", "GET /a%zzb HTTP/1.1\r\n\(host)\r\n", 400),
    .init("truncated percent escape", "GET /a%4 HTTP/1.1\r\n\(host)\r\n", 400),
    .init("encoded NUL in the path", "GET /a%00b HTTP/1.1\r\n\(host)\r\n", 400),
    .init("decoded path not UTF-8", "GET /a%FFb HTTP/1.1\r\n\(host)\r\n", 400),
    .init("garbage version", "GET / HTTP/1.x\r\n\(host)\r\n", 400),
    .init("lowercase version name", "GET / http/1.1\r\n\(host)\r\n", 400),
    .init("missing version", "GET /\r\n\(host)\r\n", 400),
    .init("two spaces in the request line", "GET  / HTTP/1.1\r\n\(host)\r\n", 400),
    .init("asterisk target outside OPTIONS", "GET * HTTP/1.1\r\n\(host)\r\n", 400),
    .init("relative request target", "GET foo HTTP/1.1\r\n\(host)\r\n", 400),
    .init("Transfer-Encoding on HTTP/1.0", "GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    .init("HTTP/2.0 request line", "GET / HTTP/2.0\r\n\(host)\r\n", 505),
    .init("HTTP/0.9 request line", "GET / HTTP/0.9\r\n\(host)\r\n", 505),
    .init("HTTP/1.2 request line", "GET / HTTP/1.2\r\n\(host)\r\n", 505),
    .init("POST", "POST / HTTP/1.1\r\n\(host)Content-Length: 2\r\n\r\nhi", 405),
    .init("DELETE", "DELETE /x HTTP/1.1\r\n\(host)\r\n", 405),
    .init("CONNECT", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 405),
    .init("unknown method token", "BREW /pot HTTP/1.1\r\n\(host)\r\n", 501),
    .init("gzip then chunked request body", "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
    .init("chunked twice", "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501),
    .init("chunk size that is not hexadecimal", "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nzz\r\n\r\n", 400),
    .init("chunk size with a sign", "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n", 400),
    .init("chunk size line ended by a bare LF", "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n", 400),
    .init("chunk data longer than its size", "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n", 400),
    .init("chunk size past 64 bits", "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n", 413),
    .init("chunked body over the body limit", "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n100001\r\n", 413),
    .init("chunked trailer with a bare LF", "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: a\nb\r\n\r\n", 400),
    .init("control byte in a chunk extension", "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n1;a=\u{01}\r\nx\r\n0\r\n\r\n", 400),
    .init("request line over 8 KiB", "GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\n\(host)\r\n", 414),
    .init("more than 100 header fields", "GET / HTTP/1.1\r\n\(host)" + (0..<101).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431),
    .init("header section over 32 KiB", "GET / HTTP/1.1\r\n\(host)" + (0..<40).map { "X-\($0): \(String(repeating: "v", count: 1000))\r\n" }.joined() + "\r\n", 431),
    .init("Content-Length over 1 MiB", "GET / HTTP/1.1\r\n\(host)Content-Length: 1048577\r\n\r\n", 413),
    .init("Content-Length too big for any integer", "GET / HTTP/1.1\r\n\(host)Content-Length: 99999999999999999999999\r\n\r\n", 413),
]

@Suite struct MalformedRequestTests {
    @Test(arguments: malformedRequests)
    func malformedRequestGetsItsStatusAndCloseAndTheServerStillServes(_ row: MalformedRequest) async throws {
        try await withServer { server in
            let port = server.port
            let (response, closed, next) = try await onThread {
                let client = try RawSocketClient(port: port)
                try client.send(row.bytes)
                let response = try client.readResponse()
                let closed = try client.readsEndOfStream()
                return (response, closed, try freshRequestStatus(port: port))
            }
            #expect(response.status == row.status, "\(row.rule): \(response.statusLine) \(response.text)")
            #expect(response.header("Connection") == "close")
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(!response.body.isEmpty)
            #expect(closed, "server should close after refusing")
            #expect(next == 200)
            if row.status == 405 { #expect(response.header("Allow") == "GET, HEAD, OPTIONS") }
        }
    }

    @Test func malformedTableCoversAtLeastTwentyFiveRules() {
        #expect(malformedRequests.count >= 25)
        #expect(Set(malformedRequests.map(\.rule)).count == malformedRequests.count)
    }
}
