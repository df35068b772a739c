import HTTPClient
import HTTPServer
import HTTPWire

/// One request of a redirect chain.
struct OriginHop: Sendable {
    /// Where this request goes.
    var url: OriginURL
    /// The fields for this hop, rebuilt from its URL (`OriginRequest.headers(forHop:)`).
    var headers: HTTPHeaders
    /// The one deadline the whole chain runs under.
    var deadline: MonotonicTime
    /// The vetted addresses to connect to; nil: the host is resolved when connecting.
    var addresses: [IPAddress]?
}
