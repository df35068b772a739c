import HTTPServer
import HTTPWire

/// Which fields go to an origin on one hop and which of its answer's fields are kept: the client
/// owns framing, Host and encoding negotiation, and hop-by-hop fields never pass.
struct OriginHeaderPolicy: Sendable {
    /// RFC 9110 §7.6.1: fields that describe one connection, not the message.
    static let hopByHopFields: [HTTPFieldName] = [
        .connection, .keepAlive, .proxyConnection, .te, .trailer, .transferEncoding, .upgrade,
        .proxyAuthenticate, .proxyAuthorization,
    ]

    /// Sent as User-Agent unless the caller sent one.
    let userAgent: String

    /// The caller's fields minus those the client owns (framing, Host, encoding negotiation),
    /// with our User-Agent and Accept when the caller sent none.
    func requestHeaders(_ given: HTTPHeaders) -> HTTPHeaders {
        var headers = given
        for name in Self.hopByHopFields + [.host, .contentLength, .expect, .acceptEncoding] {
            headers.remove(name)
        }
        if !headers.contains(.userAgent) { headers.add(.userAgent, userAgent) }
        if !headers.contains(.accept) { headers.add(.accept, "*/*") }
        return headers
    }

    /// Removes hop-by-hop fields, including any the Connection field names (RFC 9110 §7.6.1).
    static func removingHopByHopFields(_ received: HTTPHeaders) -> HTTPHeaders {
        var headers = received
        let named = received.values(.connection).flatMap { $0.split(separator: ",") }.map { String($0.trimmingWhitespace()) }
        for name in hopByHopFields { headers.remove(name) }
        for name in named where !name.isEmpty { headers.remove(name) }
        return headers
    }
}
