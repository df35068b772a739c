import Foundation
import TestSupport
import Testing

/// One hostile or malformed request for the proxy and the status it must get. A row that half-closes
/// ends its side after the bytes: the request can never complete, and the client still reads why.
struct BadRequestRow: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var status: Int
    var halfCloses = false
    var testDescription: String { "\(name) -> \(status)" }

    init(_ name: String, _ text: String, _ status: Int, halfCloses: Bool = false) {
        self.init(name, Array(text.utf8), status)
        self.halfCloses = halfCloses
    }

    init(_ name: String, _ bytes: [UInt8], _ status: Int) {
        self.name = name
        self.bytes = bytes
        self.status = status
    }
}

private let host = "Host: proxy\r\n"
private let close = "Connection: close\r\n"

/// Request line, headers and hostile targets, from a client the proxy cannot trust.
let badRequestTable: [BadRequestRow] = [
    // Oversize line and headers (HTTPServerConfiguration defaults: 8 KiB line, 32 KiB / 100 fields).
    .init("request line of 8200 bytes", "GET /\(String(repeating: "a", count: 8200)) HTTP/1.1\r\n\(host)\r\n", 414),
    .init("request line of 1 MiB", "GET /\(String(repeating: "a", count: 1 << 20)) HTTP/1.1\r\n\(host)\r\n", 414),
    .init("one header of 40 KiB", "GET /healthz HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "b", count: 40_000))\r\n\r\n", 431),
    .init("101 header fields", "GET /healthz HTTP/1.1\r\n\(host)" + (0..<101).map { "X-\($0): v\r\n" }.joined() + "\r\n", 431),
    .init("5000 tiny header fields", "GET /healthz HTTP/1.1\r\n\(host)" + String(repeating: "A: b\r\n", count: 5000) + "\r\n", 431),
    .init("header name of 33 KiB with no colon", "GET /healthz HTTP/1.1\r\n\(host)\(String(repeating: "N", count: 33_000))\r\n\r\n", 431),
    .init("endless empty-looking header lines", "GET /healthz HTTP/1.1\r\n\(host)" + String(repeating: " \r\n", count: 200) + "\r\n", 431),
    // NUL and control bytes.
    .init("NUL as the first byte", [0] + Array("GET /healthz HTTP/1.1\r\n\(host)\r\n".utf8), 400),
    .init("NUL in the method", Array("GE".utf8) + [0] + Array("T /healthz HTTP/1.1\r\n\(host)\r\n".utf8), 400),
    .init("NUL in the target", Array("GET /health".utf8) + [0] + Array("z HTTP/1.1\r\n\(host)\r\n".utf8), 400),
    .init("NUL in a header name", Array("GET /healthz HTTP/1.1\r\n\(host)X-".utf8) + [0] + Array(": v\r\n\r\n".utf8), 400),
    .init("ESC in a header value", Array("GET /healthz HTTP/1.1\r\n\(host)X-A: ".utf8) + [0x1B] + Array("[31m\r\n\r\n".utf8), 400),
    .init("vertical tab in the request line", Array("GET".utf8) + [0x0B] + Array("/healthz HTTP/1.1\r\n\(host)\r\n".utf8), 400),
    .init("form feed in a header value", Array("GET /healthz HTTP/1.1\r\n\(host)X-A: a".utf8) + [0x0C] + Array("\r\n\r\n".utf8), 400),
    .init("DEL in the target", Array("GET /healthz".utf8) + [0x7F] + Array(" HTTP/1.1\r\n\(host)\r\n".utf8), 400),
    .init("bare CR ending the request line", "GET /healthz HTTP/1.1\r\(host)\r\n", 400),
    .init("bare CR in the target", "GET /a\rb HTTP/1.1\r\n\(host)\r\n", 400),
    .init("tab instead of space in the request line", "GET\t/healthz HTTP/1.1\r\n\(host)\r\n", 400),
    .init("raw UTF-8 in the target", "GET /origin/caf\u{E9}.m3u8 HTTP/1.1\r\n\(host)\r\n", 400),
    .init("raw space in the target", "GET /a b HTTP/1.1\r\n\(host)\r\n", 400),
    // Bad methods and versions.
    .init("lowercase method", "get /healthz HTTP/1.1\r\n\(host)\r\n", 501),
    .init("method with a slash", "GE/T /healthz HTTP/1.1\r\n\(host)\r\n", 400),
    .init("empty method", " /healthz HTTP/1.1\r\n\(host)\r\n", 400),
    .init("PUT", "PUT /origin/x HTTP/1.1\r\n\(host)Content-Length: 1\r\n\r\nx", 405),
    .init("PATCH", "PATCH /origin/x HTTP/1.1\r\n\(host)\r\n", 405),
    .init("TRACE", "TRACE / HTTP/1.1\r\n\(host)\r\n", 405),
    .init("PROPFIND", "PROPFIND / HTTP/1.1\r\n\(host)\r\n", 501),
    .init("method of 5000 letters", "\(String(repeating: "G", count: 5000)) / HTTP/1.1\r\n\(host)\r\n", 501),
    .init("HTTP/3.0", "GET /healthz HTTP/3.0\r\n\(host)\r\n", 505),
    .init("HTTP/1.10", "GET /healthz HTTP/1.10\r\n\(host)\r\n", 400),
    .init("HTTP/ with no digits", "GET /healthz HTTP/\r\n\(host)\r\n", 400),
    .init("HTTPS/1.1", "GET /healthz HTTPS/1.1\r\n\(host)\r\n", 400),
    .init("trailing space after the version", "GET /healthz HTTP/1.1 \r\n\(host)\r\n", 400),
    .init("four request-line parts", "GET /healthz extra HTTP/1.1\r\n\(host)\r\n", 400),
    .init("HTTP/0.9 simple request", "GET /healthz\r\n\r\n", 400),
    // Request smuggling pairs.
    .init("CL then TE chunked", "GET /healthz HTTP/1.1\r\n\(host)Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    .init("TE chunked then CL", "GET /healthz HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400),
    // RFC 9110 §8.6: identical repeated values may be accepted as one; the framing is unambiguous.
    .init("duplicate equal Content-Length", "GET /healthz HTTP/1.1\r\n\(host)\(close)Content-Length: 1\r\nContent-Length: 1\r\n\r\nx", 200),
    .init("duplicate different Content-Length", "GET /healthz HTTP/1.1\r\n\(host)Content-Length: 0\r\nContent-Length: 44\r\n\r\n", 400),
    .init("Content-Length with a plus sign", "GET /healthz HTTP/1.1\r\n\(host)Content-Length: +1\r\n\r\nx", 400),
    .init("Content-Length in hex", "GET /healthz HTTP/1.1\r\n\(host)Content-Length: 0x1\r\n\r\nx", 400),
    .init("empty Content-Length", "GET /healthz HTTP/1.1\r\n\(host)Content-Length:\r\n\r\n", 400),
    .init("TE chunked, identity", "GET /healthz HTTP/1.1\r\n\(host)Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n", 501),
    // RFC 9112 §7: coding names are case-insensitive; a chunked body is read past and discarded.
    .init("TE with odd casing", "GET /healthz HTTP/1.1\r\n\(host)\(close)Transfer-Encoding: cHuNkEd\r\n\r\n0\r\n\r\n", 200),
    .init("TE xchunked", "GET /healthz HTTP/1.1\r\n\(host)Transfer-Encoding: xchunked\r\n\r\n", 501),
    .init("two TE headers", "GET /healthz HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n", 501),
    .init("TE with space before the colon", "GET /healthz HTTP/1.1\r\n\(host)Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n", 400),
    .init("TE folded onto a second line", "GET /healthz HTTP/1.1\r\n\(host)Transfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n", 400),
    .init("TE with a tab-prefixed name", "GET /healthz HTTP/1.1\r\n\(host)\tTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    .init("CL and TE on HTTP/1.0", "GET /healthz HTTP/1.0\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc", 400),
    // Bad percent-encoding in proxy paths.
    .init("percent at the end of the path", "GET /origin/x% HTTP/1.1\r\n\(host)\r\n", 400),
    .init("percent with one hex digit", "GET /origin/x%4 HTTP/1.1\r\n\(host)\r\n", 400),
    .init("percent with non-hex digits", "GET /origin/%GG.m3u8 HTTP/1.1\r\n\(host)\r\n", 400),
    .init("encoded NUL in a file path", "GET /files/vod-ts/master.m3u8%00.txt HTTP/1.1\r\n\(host)\r\n", 400),
    .init("overlong UTF-8 for a slash", "GET /files/%C0%AF%C0%AFPackage.swift HTTP/1.1\r\n\(host)\r\n", 400),
    .init("lone UTF-8 continuation byte", "GET /files/%80 HTTP/1.1\r\n\(host)\r\n", 400),
    .init("double-encoded dot-dot", "GET /files/%252e%252e/Package.swift HTTP/1.1\r\n\(host)\(close)\r\n", 404),
    .init("encoded backslash traversal", "GET /files/..%5c..%5cPackage.swift HTTP/1.1\r\n\(host)\(close)\r\n", 403),
    .init("encoded slash in the mount name", "GET /files%2fvod-ts/master.m3u8 HTTP/1.1\r\n\(host)\(close)\r\n", 404),
    // Redirected with the escapes kept: the Location stays one header line (checked for every row).
    .init("encoded CRLF in a mount path", "GET /origin/a%0d%0aSet-Cookie:%20x=y HTTP/1.1\r\n\(host)\(close)\r\n", 302),
    // Absolute-form targets: the proxy is not a forward proxy; it serves the path, never the host.
    .init("absolute-form to another host", "GET http://169.254.169.254/latest/meta-data HTTP/1.1\r\n\(host)\(close)\r\n", 404),
    .init("absolute-form to another host with a mount path", "GET http://evil.example/files/vod-ts/master.m3u8 HTTP/1.1\r\n\(host)\(close)\r\n", 200),
    .init("absolute-form with userinfo", "GET http://user:pw@evil.example/healthz HTTP/1.1\r\n\(host)\(close)\r\n", 200),
    .init("absolute-form with an unknown scheme", "GET ftp://evil.example/healthz HTTP/1.1\r\n\(host)\r\n", 400),
    .init("absolute-form without a host", "GET http:///healthz HTTP/1.1\r\n\(host)\r\n", 400),
    .init("CONNECT tunnel request", "CONNECT 10.0.0.1:22 HTTP/1.1\r\nHost: 10.0.0.1:22\r\n\r\n", 405),
    .init("embedded form to cloud metadata", "GET /http/169.254.169.254/latest/meta-data HTTP/1.1\r\n\(host)\(close)\r\n", 403),
    .init("embedded form with userinfo", "GET /http/127.0.0.1@evil.example/x HTTP/1.1\r\n\(host)\(close)\r\n", 400),
    .init("embedded form with an encoded host", "GET /http/%31%32%37.0.0.1/x HTTP/1.1\r\n\(host)\(close)\r\n", 400),
    // Host header abuse.
    .init("two Host headers", "GET /healthz HTTP/1.1\r\n\(host)Host: evil.example\r\n\r\n", 400),
    .init("no Host on HTTP/1.1", "GET /healthz HTTP/1.1\r\n\r\n", 400),
    // Incomplete requests then end of stream: a half-closed client can still read its 400.
    .init("request line then end of stream", "GET /healthz HTTP/1.1\r\n", 400, halfCloses: true),
    .init("half a header then end of stream", "GET /healthz HTTP/1.1\r\n\(host)X-A: b", 400, halfCloses: true),
    .init("declared body never sent", "GET /healthz HTTP/1.1\r\n\(host)Content-Length: 10\r\n\r\nabc", 400, halfCloses: true),
]

/// Binary requests kept as files in Tests/Fixtures/bad-requests, named `{name}.{status}.bin`.
enum BadRequestFiles {
    static var directory: URL {
        Fixtures.url("bad-requests")
    }

    static func rows() throws -> [BadRequestRow] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.filter { $0.hasSuffix(".bin") }.map { name in
            let parts = name.split(separator: ".")
            let status = parts.count >= 3 ? Int(parts[parts.count - 2]) ?? -1 : -1
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            return BadRequestRow(String(parts[0]), bytes, status)
        }
    }
}
