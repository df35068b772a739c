import HTTPWire

/// A request head the parser accepted: the request without its body, and how to frame what follows.
struct RequestHead {
    /// Method, target, path, query, version and headers; body and remote address are filled in later.
    var request: HTTPRequest
    /// The declared body length (0 without Content-Length).
    var contentLength: Int
    /// The body is chunked (`Transfer-Encoding: chunked`); its length shows only as it arrives.
    var chunked = false
    /// Whether the connection stays open after the response (RFC 9112 §9.3).
    var keepAlive: Bool
}

/// Parses one complete request head (as delimited by `HeadScanner`) under RFC 9112's strict rules.
enum RequestParser {
    /// Parses the head bytes, including the final empty line. The fields go into `spare`, emptied
    /// first: a list the loop kept from an earlier request, whose memory is then used again. Every
    /// byte is read through the span's checked subscript.
    static func parse(_ head: Span<UInt8>, limits: RequestLimits, reusing spare: consuming HTTPHeaders = HTTPHeaders()) throws(RequestError) -> RequestHead {
        // RFC 9112 §2.2: a bare CR (one not ending a line) must be rejected (or replaced; we reject).
        // Checked over the whole head first, so it is reported whatever else is wrong.
        var lineCount = 0
        var next = 0
        while let index = ByteSearch.firstIndex(of: 0x0D, in: head, from: next) {
            if index + 1 == head.count || head[index + 1] != 0x0A { throw .badRequest("bare CR in request head") }
            lineCount += 1
            next = index + 2
        }
        var start: RequestLine?
        var fields = HeaderFieldsSummary()
        var headers = consume spare
        headers.removeAll(keepingCapacity: true)
        headers.reserveCapacity(max(0, lineCount - 2))
        var lineStart = 0
        var complete = false
        next = 0
        while let index = ByteSearch.firstIndex(of: 0x0A, in: head, from: next) {
            next = index + 1
            var end = index
            if end > lineStart, head[end - 1] == 0x0D { end -= 1 }
            let line = head.extracting(lineStart..<end)
            lineStart = index + 1
            if start == nil {
                switch RequestLine.parse(line) {
                case .success(let parsed): start = parsed
                case .failure(let error): throw error
                }
                continue
            }
            if line.isEmpty, lineStart == head.count {
                complete = true
                break
            }
            switch fields.add(line, to: &headers) {
            case .success: continue
            case .failure(let error): throw error
            }
        }
        guard let start, complete else { throw .badRequest("incomplete request head") }
        return try finish(start, headers: consume headers, fields: fields, limits: limits)
    }

    /// The checks that need the whole head, in order: framing, method, size, target.
    private static func finish(
        _ start: consuming RequestLine, headers: consuming HTTPHeaders, fields: HeaderFieldsSummary, limits: RequestLimits
    ) throws(RequestError) -> RequestHead {
        // RFC 9112 §3.2: a 1.1 request without exactly one Host, or with several, gets 400.
        if fields.hostCount > 1 { throw .badRequest("more than one Host header") }
        if start.version == .http1_1, fields.hostCount == 0 { throw .badRequest("missing Host header") }
        // RFC 9112 §6.1: Content-Length with Transfer-Encoding is a smuggling vector; reject outright.
        if fields.hasTransferEncoding, fields.contentLength != nil {
            throw .badRequest("both Content-Length and Transfer-Encoding")
        }
        // RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 request means the framing is faulty.
        if fields.hasTransferEncoding, start.version == .http1_0 {
            throw .badRequest("Transfer-Encoding in an HTTP/1.0 request")
        }
        switch start.method {
        case .get, .head, .options:
            break
        case .post, .put, .delete, .patch, .connect, .trace:
            var error = RequestError(status: .methodNotAllowed, reason: "method not allowed")
            error.headers.add(.allow, "GET, HEAD, OPTIONS")
            throw error
        default:
            throw RequestError(status: .notImplemented, reason: "method not implemented")
        }
        let contentLength = fields.contentLength ?? 0
        if contentLength > limits.maxBodyBytes {
            throw RequestError(status: .payloadTooLarge, reason: "request body too large")
        }
        // RFC 9112 §6.1: a transfer coding we do not implement gets 501; chunked alone is read (and discarded).
        if fields.hasTransferEncoding, !fields.isChunkedOnly {
            throw RequestError(status: .notImplemented, reason: "Transfer-Encoding not supported")
        }
        let keepAlive = fields.connection.persist(start.version)
        // The head is made inside the success case, from the parsed target's own strings: bound to a
        // local first, the target's strings and then the whole request were copied and the originals
        // destroyed (about 560 instructions a request).
        switch RequestTarget.parse(start.target, method: start.method) {
        case .success(let target):
            return RequestHead(
                request: HTTPRequest(
                    method: start.method, target: start.target, path: target.path, rawPath: target.rawPath,
                    query: target.query, version: start.version, headers: headers),
                contentLength: contentLength, chunked: fields.hasTransferEncoding, keepAlive: keepAlive)
        case .failure(let error):
            throw error
        }
    }
}

/// `method SP request-target SP HTTP-version` (RFC 9112 §3), parsed strictly: single spaces, no extras.
struct RequestLine {
    var method: HTTPMethod
    var target: String
    var version: HTTPVersion

    static func parse(_ line: Span<UInt8>) -> Result<RequestLine, RequestError> {
        guard let firstSpace = ByteSearch.firstIndex(of: 0x20, in: line),
              let secondSpace = ByteSearch.firstIndex(of: 0x20, in: line, from: firstSpace + 1) else {
            return .failure(.badRequest("malformed request line"))
        }
        let methodBytes = line.extracting(0..<firstSpace)
        let targetBytes = line.extracting((firstSpace + 1)..<secondSpace)
        let versionBytes = line.extracting((secondSpace + 1)..<line.count)
        guard HTTPSyntax.isToken(methodBytes) else { return .failure(.badRequest("malformed method")) }
        guard !targetBytes.isEmpty, HTTPSyntax.allTargetBytes(targetBytes) else {
            return .failure(.badRequest("malformed request target"))
        }
        // RFC 9112 §2.3: HTTP-version = "HTTP/" DIGIT "." DIGIT, case-sensitive.
        guard versionBytes.count == 8 else { return .failure(.badRequest("malformed HTTP version")) }
        guard versionBytes[0] == 0x48, versionBytes[1] == 0x54, versionBytes[2] == 0x54,
              versionBytes[3] == 0x50, versionBytes[4] == 0x2F else { // "HTTP/"
            return .failure(.badRequest("malformed HTTP version"))
        }
        let major = versionBytes[5], dot = versionBytes[6]
        let minor = versionBytes[7]
        guard dot == 0x2E, (0x30...0x39).contains(major), (0x30...0x39).contains(minor) else {
            return .failure(.badRequest("malformed HTTP version"))
        }
        let version = HTTPVersion(major: Int(major - 0x30), minor: Int(minor - 0x30))
        let method = HTTPMethod(token: methodBytes)
        let target = String(utf8: targetBytes)
        // RFC 9113 §3.4: the HTTP/2 connection preface starts with this line; this is an HTTP/1 port.
        if method.rawValue == "PRI", target == "*", version == HTTPVersion(major: 2, minor: 0) {
            return .failure(.badRequest("HTTP/2 connection preface on an HTTP/1.1 port"))
        }
        guard version == .http1_1 || version == .http1_0 else {
            return .failure(RequestError(status: .httpVersionNotSupported, reason: "HTTP version not supported"))
        }
        return .success(RequestLine(method: method, target: target, version: version))
    }
}
