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
        var head: [UInt8] = []
        let body = serialize(response, framing: framing, into: &head)
        return (head, body)
    }

    /// Appends the status line and header section to `head`; returns the body bytes to write after it
    /// (the response's own array, not a copy).
    static func serialize(_ response: HTTPResponse, framing: Framing, into head: inout [UInt8]) -> [UInt8] {
        var status = response.status
        // Interim (1xx) responses cannot be a handler's final answer; nor can a code that is not three digits.
        if status.code < 200 || status.code > 999 { status = .internalServerError }
        // RFC 9110 §6.4.1: 204 and 304 never carry content, and 204 never a Content-Length.
        let bodyless = status.code == 204 || status.code == 304
        head.reserveCapacity(head.count + 160 + response.headers.count * 48)
        append("HTTP/1.1 ", to: &head)
        appendDecimal(status.code, to: &head)
        head.append(0x20)
        appendSanitized(status.reasonPhrase, to: &head)
        append("\r\n", to: &head)
        var handlerSetServer = false
        for field in response.headers {
            // The server frames the message itself: its Content-Length, Date and Connection win.
            if isServerOwned(field.name) { continue }
            guard HTTPSyntax.isToken(field.name.utf8) else { continue }
            if HTTPHeaders.equalNames(field.name, "Server") { handlerSetServer = true }
            append(field.name, to: &head)
            append(": ", to: &head)
            appendSanitized(field.value, to: &head)
            append("\r\n", to: &head)
        }
        if !handlerSetServer {
            append("Server: ", to: &head)
            appendSanitized(framing.serverName, to: &head)
            append("\r\n", to: &head)
        }
        append("Date: ", to: &head)
        head.append(contentsOf: framing.date)
        append("\r\n", to: &head)
        if !bodyless {
            append("Content-Length: ", to: &head)
            appendDecimal(response.body.count, to: &head)
            append("\r\n", to: &head)
        }
        if !framing.keepAlive {
            append("Connection: close\r\n", to: &head)
        } else if framing.requestVersion == .http1_0 {
            append("Connection: keep-alive\r\n", to: &head)
        }
        append("\r\n", to: &head)
        guard !bodyless, !framing.isHeadRequest, case .bytes(let body) = response.body else { return [] }
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
        headers["Content-Type"] = "text/plain; charset=utf-8"
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

    private static func isServerOwned(_ name: String) -> Bool {
        HTTPHeaders.equalNames(name, "Content-Length") || HTTPHeaders.equalNames(name, "Date")
            || HTTPHeaders.equalNames(name, "Connection") || HTTPHeaders.equalNames(name, "Transfer-Encoding")
    }

    /// Appends text with CR, LF and other controls replaced by SP, so no value can split the response.
    private static func appendSanitized(_ text: String, to bytes: inout [UInt8]) {
        let clean = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: isControl) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        guard clean != true else { return }
        for byte in text.utf8 {
            bytes.append(isControl(byte) ? 0x20 : byte)
        }
    }

    private static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 || byte == 0x7F
    }

    /// Appends text known to be safe (literals, and header names already checked to be tokens).
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// Appends a non-negative integer in decimal without building a String.
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        let value = max(0, value)
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: value / divisor % 10) &+ 0x30)
            divisor /= 10
        }
    }
}
