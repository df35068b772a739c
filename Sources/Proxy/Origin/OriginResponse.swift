import HTTPServer
import HTTPWire

/// An origin's answer, body complete and decoded.
public struct OriginResponse: Sendable {
    /// The status code (200 for a file that was read).
    public var status: Int
    /// End-to-end header fields: hop-by-hop fields are removed, and so are Content-Encoding and
    /// Content-Length when the body was decoded.
    public var headers: HTTPHeaders
    /// The body, gzip already decoded; empty for HEAD.
    public var body: [UInt8]
    /// The URL that answered, after redirects: the base for relative URIs (RFC 8216 §4.1).
    public var finalURL: String

    /// Makes a response.
    public init(status: Int, headers: HTTPHeaders, body: [UInt8], finalURL: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.finalURL = finalURL
    }
}
