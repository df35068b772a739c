import HTTPWire
/// A response from `HTTPClient.stream`: the head at once, the body as it arrives.
public struct HTTPClientStreamingResponse: Sendable {
    /// The protocol version on the status line.
    public var version: HTTPVersion
    /// The three-digit status code.
    public var status: Int
    /// The reason phrase, possibly empty.
    public var reasonPhrase: String
    /// The header fields as received, in order (framing fields included).
    public var headers: HTTPHeaders
    /// The body length when the framing states it (Content-Length, or 0 for bodyless responses).
    public var bodyLength: Int?
    /// The body; empty at once for HEAD, 204 and 304.
    public let body: HTTPClientBodyStream
    /// Whether the connection goes back to its pool once the body is read to its end: it came from a
    /// pool, the framing marks the body's end, and the origin allows reuse (no `Connection: close`,
    /// HTTP/1.0 only with keep-alive). Reading the rest of a body not needed is pointless otherwise.
    public var connectionMayBeKept: Bool

    /// Makes a response.
    public init(
        version: HTTPVersion, status: Int, reasonPhrase: String, headers: HTTPHeaders, bodyLength: Int?, body: HTTPClientBodyStream,
        connectionMayBeKept: Bool = false
    ) {
        self.version = version
        self.status = status
        self.reasonPhrase = reasonPhrase
        self.headers = headers
        self.bodyLength = bodyLength
        self.body = body
        self.connectionMayBeKept = connectionMayBeKept
    }
}
