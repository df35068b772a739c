import HTTPServer

/// Fetches masters, media playlists, subtitle files and segment bytes from origins: http and https
/// through our own HTTP/1.1 client (TLS by OpenSSL, loaded on the first https fetch) over kept-alive
/// connections, file:// from disk.
/// Follows redirects itself so every hop passes the caller's check, and coalesces identical
/// concurrent fetches into one.
public final class OriginClient: Sendable {
    /// Timeouts and identity.
    public struct Configuration: Sendable {
        /// How long resolving and connecting may take.
        public var connectTimeout: Duration = .seconds(5)
        /// How long a whole fetch may take, redirects included.
        public var totalTimeout: Duration = .seconds(15)
        /// Sent as User-Agent unless the request carries its own.
        public var userAgent = ProxyVersion.userAgent
        /// A PEM file of CA certificates trusted for https origins besides the system store.
        public var caFile: String?

        /// The defaults.
        public init() {}
    }

    /// The result of one fetch with the redirect targets it went through, so a caller joining a
    /// coalesced fetch can check them against its own `allowRedirect`.
    struct FetchResult: Sendable {
        var response: OriginResponse
        var redirectTargets: [String]
    }

    /// RFC 9110 §15.4: the redirect statuses we follow for GET and HEAD.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    static let maxRedirects = 5

    let configuration: Configuration
    let coalescer = OriginFetchCoalescer()
    /// Shared by every https exchange; OpenSSL is loaded by the first one, not here.
    let tlsContext: TLSContext
    /// Idle http and https connections to origins, reused by the next fetch or stream to the same one.
    let connections = HTTPConnectionPool()

    /// Makes a client.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.tlsContext = TLSContext(caFile: configuration.caFile)
    }

    /// Fetches `request.url`, following redirects when asked. Identical concurrent requests
    /// (method, URL, headers) share one fetch; cancelling one caller does not cancel the others.
    public func fetch(_ request: OriginRequest) async throws(OriginError) -> OriginResponse {
        guard request.method == .get || request.method == .head else {
            throw .invalidRequest("only GET and HEAD are fetched")
        }
        let (outcome, joined) = await coalescer.run(OriginFetchCoalescer.Key(request)) { [self] in
            do throws(OriginError) {
                return .success(try await perform(request))
            } catch {
                return .failure(error)
            }
        }
        guard joined else { return try outcome.get().response }
        // A joined fetch followed the first caller's redirect policy, not necessarily this caller's:
        // a hop refused for the first caller is retried under this caller's own policy, and hops
        // taken for it must pass this caller's check too.
        if case .failure(.redirectNotAllowed) = outcome {
            return try await perform(request).response
        }
        let result = try outcome.get()
        guard result.redirectTargets.allSatisfy(request.allowRedirect) else { throw .redirectNotAllowed }
        return result.response
    }

    /// One fetch with its redirect chain, under one total deadline.
    func perform(_ request: OriginRequest) async throws(OriginError) -> FetchResult {
        let (response, targets) = try await followRedirects(request) { hop throws(OriginError) in
            try await fetchOnce(hop, request: request)
        }
        return FetchResult(response: response, redirectTargets: targets)
    }

    /// One request to one URL, dispatched on the scheme.
    func fetchOnce(_ hop: Hop, request: OriginRequest) async throws(OriginError) -> OriginResponse {
        switch hop.url.scheme {
        case "http", "https":
            return try await fetchHTTP(hop.url, request: request, headers: hop.headers, deadline: hop.deadline)
        case "file":
            return try readFile(hop.url, request: request)
        default:
            throw .invalidRequest("unsupported URL scheme")
        }
    }

    /// Scheme, host and port equal (RFC 6454 §4, case-insensitively for scheme and host).
    static func sameOrigin(_ a: OriginURL, _ b: OriginURL) -> Bool {
        a.scheme == b.scheme && a.authority?.lowercased() == b.authority?.lowercased()
    }
}
