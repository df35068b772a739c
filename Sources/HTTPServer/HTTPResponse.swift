/// A response a handler returns. The server adds Date, Server, Content-Length and Connection.
public struct HTTPResponse: Sendable {
    /// The status line's status.
    public var status: HTTPStatus
    /// Header fields set by the handler.
    public var headers: HTTPHeaders
    /// The body.
    public var body: HTTPBody

    /// Makes a response.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Makes a response with a whole-bytes body.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), bytes: [UInt8]) {
        self.init(status: status, headers: headers, body: .bytes(bytes))
    }
}

/// A response body. Whole bytes today; the enum leaves room for a streamed body with backpressure.
public enum HTTPBody: Sendable {
    /// No body (Content-Length: 0).
    case empty
    /// The whole body in memory.
    case bytes([UInt8])

    /// The body length in bytes.
    public var count: Int {
        switch self {
        case .empty: return 0
        case .bytes(let bytes): return bytes.count
        }
    }
}
