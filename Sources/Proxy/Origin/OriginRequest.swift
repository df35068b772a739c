import HTTPServer

/// What the proxy asks of an origin: one URL (http, https or file), fetched whole up to a size cap.
public struct OriginRequest: Sendable {
    /// An absolute http://, https:// or file:// URL, query included; sent untouched apart from
    /// percent-encoding bytes that may not appear on a request line.
    public var url: String
    /// `.get` or `.head`.
    public var method: HTTPMethod = .get
    /// Injected and forwarded header fields, sent as given (hop-by-hop fields, Host and
    /// Accept-Encoding are the client's own and are replaced).
    public var headers: HTTPHeaders = [:]
    /// The largest body accepted, after decoding.
    public var maxBodyBytes: Int
    /// Whether 301/302/303/307/308 are followed (up to 5 hops); the final URL is kept.
    public var followRedirects: Bool = true
    /// Checked for every hop's target URL; false stops with `OriginError.redirectNotAllowed`.
    public var allowRedirect: @Sendable (String) -> Bool = { _ in true }
    /// For a file:// URL of a directory mount: the mount's directory, which the file is opened through
    /// (nothing outside it can be reached). Nil opens the path as named (the caller confined it).
    public var fileDirectory: ConfinedDirectory?

    /// Makes a request.
    public init(url: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], maxBodyBytes: Int, followRedirects: Bool = true) {
        self.url = url
        self.method = method
        self.headers = headers
        self.maxBodyBytes = maxBodyBytes
        self.followRedirects = followRedirects
    }
}
