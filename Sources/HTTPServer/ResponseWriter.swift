import HTTPWire
/// Serializes responses: the status line and headers in one buffer, the body in another, for one writev.
enum ResponseWriter {
    /// What the server decides about a response beyond what the handler said.
    struct Framing {
        /// A HEAD request: Content-Length of the body, but no body bytes (RFC 9110 §9.3.2).
        var isHeadRequest: Bool
        /// Keep the connection open after this response.
        var keepAlive: Bool
        /// The request's version: a 1.0 client needs `Connection: keep-alive` to keep the connection.
        var requestVersion: HTTPVersion
        /// The Date value bytes.
        var date: [UInt8]
        /// `Server: <name>` with its line ending, sanitized once when the loop starts (see `serverField(_:)`).
        var serverField: [UInt8]
    }

    /// The Server field line for a server name, control bytes replaced by SP.
    static func serverField(_ name: String) -> [UInt8] {
        Array("Server: ".utf8) + name.utf8.map { HTTPSyntax.isControl($0) ? 0x20 : $0 } + [0x0D, 0x0A]
    }

    /// Status lines for codes 200-599 with a standard reason phrase (index: code - 200), made once:
    /// most responses use one.
    private static let standardStatusLines: [(reason: String, line: [UInt8])?] = (200...599).map { code in
        let reason = HTTPStatus.standardReason(for: code)
        guard !reason.isEmpty, !reason.utf8.contains(where: HTTPSyntax.isControl) else { return nil }
        return (reason, Array("HTTP/1.1 \(code) \(reason)\r\n".utf8))
    }

    /// The prebuilt status line for `status`, when it has its standard reason phrase.
    private static func standardStatusLine(_ status: HTTPStatus) -> [UInt8]? {
        let index = status.code - 200
        guard standardStatusLines.indices.contains(index), let standard = standardStatusLines[index],
              standard.reason == status.reasonPhrase else { return nil }
        return standard.line
    }

    /// The head bytes and body bytes to write for `response`.
    static func serialize(_ response: HTTPResponse, framing: Framing) -> (head: [UInt8], body: [UInt8]) {
        // Off the hot path (the out-of-descriptors refusal and tests), so a zeroed array is cheap enough.
        var head = [UInt8](repeating: 0, count: 512)
        var needed = writeHead(response, framing: framing, into: &head)
        if needed > head.count {
            head = [UInt8](repeating: 0, count: needed)
            needed = writeHead(response, framing: framing, into: &head)
        }
        head.removeLast(head.count - min(needed, head.count))
        return (head, bodyBytes(response, framing: framing))
    }

    /// Writes the head into the start of `buffer` (left as long as it is); returns the head's length,
    /// larger than the buffer when it did not fit.
    static func writeHead(_ response: HTTPResponse, framing: Framing, into buffer: inout [UInt8]) -> Int {
        buffer.withUnsafeMutableBufferPointer { writeHead(response, framing: framing, into: $0) }
    }

    /// Writes the status line and header section into `buffer`; returns the head's length, which is
    /// larger than the buffer when it did not fit (nothing useful is written then: retry with that size).
    static func writeHead(_ response: HTTPResponse, framing: Framing, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var head = HeadWriter(buffer)
        var status = response.status
        // Interim (1xx) responses cannot be a handler's final answer; nor can a code that is not three digits.
        if status.code < 200 || status.code > 999 { status = .internalServerError }
        // RFC 9110 §6.4.1: 204 and 304 never carry content, and 204 never a Content-Length.
        let bodyless = status.code == 204 || status.code == 304
        if let line = standardStatusLine(status) {
            line.withUnsafeBufferPointer { head.append($0) }
        } else {
            head.append("HTTP/1.1 ")
            head.appendDecimal(status.code)
            head.append(0x20)
            head.appendSanitized(status.reasonPhrase)
            head.append("\r\n")
        }
        // The server frames the message itself: its Content-Length, Date and Connection win, and the
        // list leaves those out (and names that are not tokens) as it copies its lines.
        response.headers.write(into: &head)
        if !response.headers.hasServerField {
            framing.serverField.withUnsafeBufferPointer { head.append($0) }
        }
        head.append("Date: ")
        framing.date.withUnsafeBufferPointer { head.append($0) }
        head.append("\r\n")
        if !bodyless {
            if let length = response.body.knownLength {
                head.append("Content-Length: ")
                head.appendDecimal(length)
                head.append("\r\n")
            } else if !framing.isHeadRequest && framing.requestVersion != .http1_0 {
                // RFC 9112 §6.1: a streamed body of unknown length goes chunked to HTTP/1.1 clients;
                // HTTP/1.0 clients get it delimited by the close instead.
                head.append("Transfer-Encoding: chunked\r\n")
            }
        }
        if !framing.keepAlive {
            head.append("Connection: close\r\n")
        } else if framing.requestVersion == .http1_0 {
            head.append("Connection: keep-alive\r\n")
        }
        head.append("\r\n")
        return head.count
    }

    /// The in-memory body bytes to write after the head (the response's own array, not a copy).
    static func bodyBytes(_ response: HTTPResponse, framing: Framing) -> [UInt8] {
        let code = response.status.code
        guard code != 204, code != 304, !framing.isHeadRequest, case .bytes(let body) = response.body else { return [] }
        return body
    }

    /// The one place an error becomes a response: its status, and its reason as a text/plain line.
    static func makeErrorResponse(for error: any Error) -> HTTPResponse {
        let status: HTTPStatus
        let reason: String
        var headers = HTTPHeaders()
        if let requestError = error as? RequestError {
            status = requestError.status
            reason = requestError.reason
            headers = requestError.headers
        } else if let statusError = error as? any HTTPStatusError {
            status = statusError.status
            reason = statusError.reason
        } else {
            status = .internalServerError
            reason = HTTPStatus.internalServerError.reasonPhrase
        }
        headers[.contentType] = "text/plain; charset=utf-8"
        return HTTPResponse(status: status, headers: headers, bytes: Array((reason + "\n").utf8))
    }

    /// Runs the immediate handler; a thrown error becomes its response here, nil passes the request on.
    static func respondAtOnce(to request: HTTPRequest, with handler: HTTPImmediateHandler) -> HTTPResponse? {
        do {
            return try handler(request)
        } catch {
            return makeErrorResponse(for: error)
        }
    }

    /// Runs the handler; a thrown error becomes its response here.
    static func respond(to request: HTTPRequest, with handler: HTTPHandler) async -> HTTPResponse {
        do {
            return try await handler(request)
        } catch {
            return makeErrorResponse(for: error)
        }
    }
}
