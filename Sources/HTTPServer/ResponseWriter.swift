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
        /// The Server value.
        var serverName: String
    }

    /// The head bytes and body bytes to write for `response`.
    static func serialize(_ response: HTTPResponse, framing: Framing) -> (head: [UInt8], body: [UInt8]) {
        var status = response.status
        // Interim (1xx) responses cannot be a handler's final answer; nor can a code that is not three digits.
        if status.code < 200 || status.code > 999 { status = .internalServerError }
        // RFC 9110 §6.4.1: 204 and 304 never carry content, and 204 never a Content-Length.
        let bodyless = status.code == 204 || status.code == 304
        var head: [UInt8] = []
        head.reserveCapacity(192 + response.headers.count * 48)
        head.append(contentsOf: "HTTP/1.1 \(status.code) ".utf8)
        appendSanitized(status.reasonPhrase, to: &head)
        head.append(contentsOf: "\r\n".utf8)
        var handlerSetServer = false
        for field in response.headers {
            // The server frames the message itself: its Content-Length, Date and Connection win.
            if isServerOwned(field.name) { continue }
            guard HTTPSyntax.isToken(field.name.utf8) else { continue }
            if HTTPHeaders.equalNames(field.name, "Server") { handlerSetServer = true }
            head.append(contentsOf: field.name.utf8)
            head.append(contentsOf: ": ".utf8)
            appendSanitized(field.value, to: &head)
            head.append(contentsOf: "\r\n".utf8)
        }
        if !handlerSetServer {
            head.append(contentsOf: "Server: ".utf8)
            appendSanitized(framing.serverName, to: &head)
            head.append(contentsOf: "\r\n".utf8)
        }
        head.append(contentsOf: "Date: ".utf8)
        head.append(contentsOf: framing.date)
        head.append(contentsOf: "\r\n".utf8)
        if !bodyless {
            head.append(contentsOf: "Content-Length: \(response.body.count)\r\n".utf8)
        }
        if !framing.keepAlive {
            head.append(contentsOf: "Connection: close\r\n".utf8)
        } else if framing.requestVersion == .http1_0 {
            head.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        head.append(contentsOf: "\r\n".utf8)
        guard !bodyless, !framing.isHeadRequest, case .bytes(let body) = response.body else { return (head, []) }
        return (head, body)
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
        headers["Content-Type"] = "text/plain; charset=utf-8"
        return HTTPResponse(status: status, headers: headers, bytes: Array((reason + "\n").utf8))
    }

    /// Runs the handler; a thrown error becomes its response here.
    static func respond(to request: HTTPRequest, with handler: HTTPHandler) async -> HTTPResponse {
        do {
            return try await handler(request)
        } catch {
            return makeErrorResponse(for: error)
        }
    }

    private static func isServerOwned(_ name: String) -> Bool {
        HTTPHeaders.equalNames(name, "Content-Length") || HTTPHeaders.equalNames(name, "Date")
            || HTTPHeaders.equalNames(name, "Connection") || HTTPHeaders.equalNames(name, "Transfer-Encoding")
    }

    /// Appends text with CR, LF and other controls replaced by SP, so no value can split the response.
    private static func appendSanitized(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            bytes.append(byte < 0x20 && byte != 0x09 || byte == 0x7F ? 0x20 : byte)
        }
    }
}
