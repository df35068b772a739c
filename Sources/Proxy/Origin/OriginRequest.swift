import HTTPClient
import HTTPServer
import HTTPWire

/// What the proxy asks of an origin: one URL (http, https or file), fetched whole up to a size cap.
public struct OriginRequest: Sendable {
    /// An absolute http://, https:// or file:// URL, query included; sent untouched apart from
    /// percent-encoding bytes that may not appear on a request line.
    public var url: String
    /// `.get` or `.head`.
    public var method: HTTPMethod = .get
    /// Fields that belong to one origin (injected credentials, forwarded client fields): sent on each
    /// hop whose scheme, host and port are those of `headersOrigin`, the first hop included, and on no
    /// other. A redirect back to that origin gets them again. Hop-by-hop fields, Host and
    /// Accept-Encoding are the client's own and are replaced.
    public var headers: HTTPHeaders = [:]
    /// The URL whose origin (RFC 6454 §4: scheme, host, port) `headers` are for; nil: the origin of `url`.
    public var headersOrigin: String?
    /// Which hops on `headersOrigin` carry `headers`, by their URL; nil: every one. Set for a source the
    /// operator did not name (a token's, a backend's): only under its mount's base URL is it that mount's.
    public var headersScope: (@Sendable (String) -> Bool)?
    /// Fields that carry nothing private (Range, If-Range), sent on every hop.
    public var everyHopHeaders: HTTPHeaders = [:]
    /// The largest body accepted, after decoding.
    public var maxBodyBytes: Int
    /// Whether 301/302/303/307/308 are followed (up to 5 hops); the final URL is kept.
    public var followRedirects: Bool = true
    /// Checked for every hop's target URL; false stops with `OriginError.redirectNotAllowed`.
    public var allowRedirect: @Sendable (String) -> Bool = { _ in true }
    /// For a file:// URL of a directory mount: the mount's directory, which the file is opened through
    /// (nothing outside it can be reached). Nil opens the path as named (the caller confined it).
    public var fileDirectory: ConfinedDirectory?
    /// The addresses the first http(s) hop connects to, when an address check vetted them for its
    /// host (which is then not resolved again); nil: the host is resolved when connecting.
    public var addresses: [IPAddress]?
    /// For each redirect target that passed `allowRedirect`: where its hop may connect (async, so a
    /// lookup runs on a thread of its own rather than blocking a task pool thread).
    public var redirectAddresses: @Sendable (String) async -> HopAddresses = { _ in .resolvedWhenConnecting }

    /// Where one hop may connect.
    public enum HopAddresses: Sendable, Equatable {
        /// Wherever the host resolves when the connection is opened (an origin the operator named).
        case resolvedWhenConnecting
        /// Only these addresses, vetted for the host; it is not resolved again.
        case vetted([IPAddress])
        /// Nowhere: the hop fails with `OriginError.redirectNotAllowed`.
        case refused
        /// Not now: the address check found every exchange slot taken (`limit` of them); the hop
        /// fails with `OriginError.overloaded`, load shedding rather than a refusal.
        case shed(limit: Int)
    }

    /// Makes a request.
    public init(url: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], maxBodyBytes: Int, followRedirects: Bool = true) {
        self.url = url
        self.method = method
        self.headers = headers
        self.maxBodyBytes = maxBodyBytes
        self.followRedirects = followRedirects
    }

    /// The fields one hop to `hop` carries: `everyHopHeaders`, and `headers` only when the hop is on
    /// `headersOrigin`. Rebuilt for every hop, so nothing meant for one origin reaches another.
    func headers(forHop hop: OriginURL) -> HTTPHeaders {
        let home = OriginURL(parsing: headersOrigin ?? url)
        guard home.isSameOrigin(as: hop), headersScope?(hop.string) ?? true else { return everyHopHeaders }
        var fields = everyHopHeaders
        fields.append(contentsOf: headers)
        return fields
    }
}
