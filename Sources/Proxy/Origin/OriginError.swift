import HTTPClient
import HTTPServer
import HTTPWire

/// Why an origin fetch failed, with the status the proxy answers. Reasons are one line and never
/// carry header values or query strings (they may hold tokens).
public enum OriginError: Error, Sendable, Equatable, HTTPStatusError {
    /// DNS failure, connection refused or reset, TLS failure.
    case unreachable(String)
    /// The connect timeout or the total timeout passed.
    case timeout
    /// The body is larger than the request's `maxBodyBytes`.
    case tooLarge(limit: Int)
    /// The origin broke HTTP (bad framing, truncated body, unsupported or corrupt encoding).
    case badResponse(String)
    /// More than five redirects, or a redirect back to a URL already visited.
    case redirectLoop
    /// A redirect target failed `allowRedirect`, or left http/https.
    case redirectNotAllowed
    /// A file:// URL names no file.
    case notFoundFile
    /// A file:// URL names a directory or an unreadable file.
    case forbiddenFile
    /// The URL or a header cannot be sent (unsupported scheme, bad host, control characters).
    case invalidRequest(String)
    /// Every caller waiting for this fetch was cancelled.
    case cancelled
    /// The ceiling on origin exchanges in flight (`limits.max_origin_exchanges`) was reached; nothing
    /// was sent. Load shedding, not an origin fault: 503 with Retry-After, never an empty fallback.
    case overloaded(limit: Int)

    /// The status the proxy answers with: 502 for origin faults, 504 for timeouts, 404/403 for files.
    public var status: HTTPStatus {
        switch self {
        case .timeout: return .gatewayTimeout
        case .notFoundFile: return .notFound
        case .forbiddenFile: return .forbidden
        // nginx's 499: nobody is left to read it, but logs should not call it an origin fault.
        case .cancelled: return HTTPStatus(code: 499, reasonPhrase: "Client Closed Request")
        case .overloaded: return .serviceUnavailable
        case .unreachable, .tooLarge, .badResponse, .redirectLoop, .redirectNotAllowed, .invalidRequest:
            return .badGateway
        }
    }

    /// A one-line reason for the response body and logs.
    public var reason: String {
        switch self {
        case .unreachable(let why): return "origin unreachable: \(why)"
        case .timeout: return "origin timed out"
        case .tooLarge(let limit): return "origin body larger than \(limit) bytes"
        case .badResponse(let why): return "bad origin response: \(why)"
        case .redirectLoop: return "origin redirect loop or too many redirects"
        case .redirectNotAllowed: return "origin redirect target not allowed"
        case .notFoundFile: return "file not found"
        case .forbiddenFile: return "file not readable"
        case .invalidRequest(let why): return "invalid origin request: \(why)"
        case .cancelled: return "cancelled"
        case .overloaded(let limit): return "too many origin fetches in flight (limit \(limit)); retry shortly"
        }
    }
}

extension OriginError {
    /// Whether this is load shedding (`.overloaded`) rather than anything the origin did.
    public var isShed: Bool {
        if case .overloaded = self { return true }
        return false
    }

    /// The origin error for a failed http or https exchange.
    init(_ error: HTTPClientError) {
        switch error {
        case .dnsFailure(let why): self = .unreachable("DNS: \(why)")
        case .connectFailed(let why): self = .unreachable(why)
        case .connectionLost(let why): self = .unreachable(why)
        case .connectTimeout, .timeout: self = .timeout
        case .bodyTooLarge(let limit): self = .tooLarge(limit: limit)
        case .malformedResponse(let why): self = .badResponse(why)
        case .truncatedBody: self = .badResponse("body cut short by connection close")
        case .invalidRequest(let why): self = .invalidRequest(why)
        case .cancelled: self = .cancelled
        case .tlsUnavailable, .tlsHandshakeFailed: self = .unreachable(error.description)
        case .tooManyExchanges(let limit): self = .overloaded(limit: limit)
        }
    }
}
