import HTTPWire
/// A parsed request head plus its (bounded) body.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The request-target exactly as received (origin-form or absolute-form).
    public var target: String
    /// The path, percent-decoded; always starts with "/".
    public var path: String
    /// The path as received, still percent-encoded, without the query.
    public var rawPath: String
    /// The query as received, without the "?", or nil when there was none.
    public var query: String?
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body: always empty from the server, which reads past a request's body and discards it
    /// (only GET, HEAD and OPTIONS reach a handler, and none of them carries meaningful content).
    public var body: [UInt8]
    /// The peer address, `ip:port` (IPv6 in brackets).
    public var remoteAddress: String

    /// Makes a request; the server fills these from the wire, tests may build them directly.
    public init(
        method: HTTPMethod,
        target: String,
        path: String,
        rawPath: String,
        query: String?,
        version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        remoteAddress: String = ""
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.rawPath = rawPath
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }
}
