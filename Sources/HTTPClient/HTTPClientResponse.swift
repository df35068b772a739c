import HTTPWire
/// A response received by `HTTPClient`, body already de-chunked and complete.
public struct HTTPClientResponse: Sendable {
    /// The protocol version on the status line.
    public var version: HTTPVersion
    /// The three-digit status code.
    public var status: Int
    /// The reason phrase, possibly empty (origins may omit it).
    public var reasonPhrase: String
    /// The header fields as received, in order.
    public var headers: HTTPHeaders
    /// The body bytes (empty for HEAD, 204 and 304).
    public var body: [UInt8]

    /// Makes a response.
    public init(version: HTTPVersion, status: Int, reasonPhrase: String, headers: HTTPHeaders, body: [UInt8]) {
        self.version = version
        self.status = status
        self.reasonPhrase = reasonPhrase
        self.headers = headers
        self.body = body
    }
}
