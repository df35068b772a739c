import HTTPServer
import HTTPWire

extension OriginClient {
    /// RFC 9110 §7.6.1: fields that describe one connection, not the message.
    static let hopByHopFields: [HTTPFieldName] = [
        .connection, .keepAlive, .proxyConnection, .te, .trailer, .transferEncoding, .upgrade,
        .proxyAuthenticate, .proxyAuthorization,
    ]

    /// The caller's fields minus those the client owns (framing, Host, encoding negotiation),
    /// with our User-Agent and Accept when the caller sent none.
    func makeRequestHeaders(_ given: HTTPHeaders) -> HTTPHeaders {
        var headers = given
        for name in OriginClient.hopByHopFields + [.host, .contentLength, .expect, .acceptEncoding] {
            headers.remove(name)
        }
        if !headers.contains(.userAgent) { headers.add(.userAgent, configuration.userAgent) }
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
