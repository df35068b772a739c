/// Why an `HTTPClient` exchange failed. Reasons are one line and never carry header values.
public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host name did not resolve.
    case dnsFailure(String)
    /// Connecting failed: refused, unreachable, reset during connect.
    case connectFailed(String)
    /// The connect timeout passed before any address accepted the connection.
    case connectTimeout
    /// The total deadline passed before the whole response arrived.
    case timeout
    /// The body is larger than the caller's cap (declared or received).
    case bodyTooLarge(limit: Int)
    /// The response broke HTTP/1.1 framing or syntax.
    case malformedResponse(String)
    /// The connection closed before the declared body was complete.
    case truncatedBody
    /// The connection failed after connecting (reset, closed before a response).
    case connectionLost(String)
    /// The request itself cannot be sent (bad host, control characters in a field).
    case invalidRequest(String)
    /// The calling task was cancelled; the socket was closed.
    case cancelled
    /// https cannot be used: OpenSSL 3 could not be loaded, or the CA file not read (the whole reason).
    case tlsUnavailable(String)
    /// The TLS handshake failed: the certificate did not verify, or the peer does not speak TLS.
    case tlsHandshakeFailed(String)
    /// Every slot of the caller's `HTTPExchangeSlots` was taken; nothing was sent.
    case tooManyExchanges(limit: Int)

    /// A one-line description.
    public var description: String {
        switch self {
        case .dnsFailure(let why): return "DNS lookup failed: \(why)"
        case .connectFailed(let why): return "connect failed: \(why)"
        case .connectTimeout: return "connect timed out"
        case .timeout: return "response timed out"
        case .bodyTooLarge(let limit): return "body larger than \(limit) bytes"
        case .malformedResponse(let why): return "malformed response: \(why)"
        case .truncatedBody: return "body truncated by connection close"
        case .connectionLost(let why): return "connection lost: \(why)"
        case .invalidRequest(let why): return "invalid request: \(why)"
        case .cancelled: return "cancelled"
        case .tlsUnavailable(let why): return why
        case .tlsHandshakeFailed(let why): return "TLS handshake failed: \(why)"
        case .tooManyExchanges(let limit): return "all \(limit) exchange slots in use"
        }
    }
}
