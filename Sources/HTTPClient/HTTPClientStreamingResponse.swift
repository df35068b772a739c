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

    /// Makes a response.
    public init(version: HTTPVersion, status: Int, reasonPhrase: String, headers: HTTPHeaders, bodyLength: Int?, body: HTTPClientBodyStream) {
        self.version = version
        self.status = status
        self.reasonPhrase = reasonPhrase
        self.headers = headers
        self.bodyLength = bodyLength
        self.body = body
    }
}
