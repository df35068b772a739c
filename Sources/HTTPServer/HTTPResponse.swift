import HTTPWire
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

/// A response body: whole bytes, or produced while it is sent.
public enum HTTPBody: Sendable {
    /// No body (Content-Length: 0).
    case empty
    /// The whole body in memory.
    case bytes([UInt8])
    /// A body written piece by piece by `producer` while the response goes out, with backpressure.
    /// With a `length`, exactly that many bytes must be written (Content-Length framing); without one
    /// the body is chunked (HTTP/1.1) or ends at the close (HTTP/1.0). HEAD never runs the producer.
    case stream(length: Int?, producer: @Sendable (HTTPBodyWriter) async throws -> Void)
    /// Part of an open file, sent from the loop thread with sendfile(2). If the file shrinks under the
    /// send, the connection is closed: the Content-Length already promised cannot be kept.
    case file(HTTPFileRegion)

    /// The body length in bytes; for a stream of unknown length, 0.
    public var count: Int {
        switch self {
        case .empty: return 0
        case .bytes(let bytes): return bytes.count
        case .stream(let length, _): return length ?? 0
        case .file(let region): return region.length
        }
    }

    /// The body length when it is known before sending.
    public var knownLength: Int? {
        switch self {
        case .empty: return 0
        case .bytes(let bytes): return bytes.count
        case .stream(let length, _): return length
        case .file(let region): return region.length
        }
    }
}
