import HTTPWire
extension HTTPClient {
    /// Serializes the request line and fields (RFC 9112 §3). Adds `Host` when absent and, unless the
    /// connection is to be kept, `Connection: close` (HTTP/1.1 connections persist by default, RFC 9112
    /// §9.3). Refuses anything that could split the request: a CR or LF in a forwarded value would
    /// otherwise smuggle a second request.
    static func makeRequestHead(_ request: HTTPClientRequest, keepAlive: Bool = false) throws(HTTPClientError) -> [UInt8] {
        guard !request.method.rawValue.isEmpty, request.method.rawValue.utf8.allSatisfy(HTTPResponseSyntax.isTokenByte) else {
            throw .invalidRequest("bad method")
        }
        guard request.target.utf8.first == UInt8(ascii: "/"),
              request.target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidRequest("bad request target")
        }
        var head = Array("\(request.method.rawValue) \(request.target) HTTP/1.1\r\n".utf8)
        if !request.headers.contains("Host") {
            head.append(contentsOf: "Host: \(request.hostFieldValue)\r\n".utf8)
        }
        for field in request.headers {
            if HTTPHeaders.equalNames(field.name, "Connection") { continue }
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(HTTPResponseSyntax.isTokenByte) else {
                throw .invalidRequest("bad header name")
            }
            guard field.value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                throw .invalidRequest("control character in a header value")
            }
            head.append(contentsOf: field.name.utf8)
            head.append(contentsOf: ": ".utf8)
            head.append(contentsOf: field.value.utf8)
            head.append(contentsOf: "\r\n".utf8)
        }
        head.append(contentsOf: keepAlive ? "\r\n".utf8 : "Connection: close\r\n\r\n".utf8)
        return head
    }
}
