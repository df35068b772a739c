import HTTPServer
import HTTPWire

extension OriginClient {
    /// RFC 9110 §7.6.1: fields that describe one connection, not the message.
    static let hopByHopFields = [
        "Connection", "Keep-Alive", "Proxy-Connection", "TE", "Trailer", "Transfer-Encoding", "Upgrade",
        "Proxy-Authenticate", "Proxy-Authorization",
    ]

    /// The caller's fields minus those the client owns (framing, Host, encoding negotiation),
    /// with our User-Agent and Accept when the caller sent none.
    func makeRequestHeaders(_ given: HTTPHeaders) -> HTTPHeaders {
        var headers = given
        for name in OriginClient.hopByHopFields + ["Host", "Content-Length", "Expect", "Accept-Encoding"] {
            headers.remove(name)
        }
        if !headers.contains("User-Agent") { headers.add("User-Agent", configuration.userAgent) }
        if !headers.contains("Accept") { headers.add("Accept", "*/*") }
        return headers
    }

    /// Removes hop-by-hop fields, including any the Connection field names (RFC 9110 §7.6.1).
    static func removingHopByHopFields(_ received: HTTPHeaders) -> HTTPHeaders {
        var headers = received
        let named = received.values("Connection").flatMap { $0.split(separator: ",") }.map { String($0.trimmingWhitespace()) }
        for name in hopByHopFields + named where !name.isEmpty {
            headers.remove(name)
        }
        return headers
    }
}
