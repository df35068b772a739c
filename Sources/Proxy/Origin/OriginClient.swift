import HTTPClient
import HTTPServer

/// Fetches masters, media playlists, subtitle files and segment bytes from origins: http and https
/// through our own HTTP/1.1 client (TLS by OpenSSL, loaded on the first https fetch) over kept-alive
/// connections, file:// from disk.
/// Follows redirects itself so every hop passes the caller's check, and coalesces identical
/// concurrent fetches into one. Its parts: `OriginRedirectFollower` walks the chain,
/// `OriginHTTPExchanges` sends http and https hops with `OriginHeaderPolicy`'s fields,
/// `OriginFileReader` answers file:// hops, `OriginFetchCoalescer` shares identical fetches.
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
        /// The most http and https exchanges in flight at once (each a thread and two descriptors
        /// until its body is read); more fail at once with `OriginError.overloaded`.
        public var maxExchanges = OriginClient.defaultMaxExchanges(descriptorLimit: HTTPExchangeSlots.descriptorLimit)

        /// The defaults.
        public init() {}
    }

    /// The result of one fetch with the redirect targets it went through, so a caller joining a
    /// coalesced fetch can check them against its own `allowRedirect`.
    struct FetchResult: Sendable {
        var response: OriginResponse
        var redirectTargets: [String]
    }

    let configuration: Configuration
    let coalescer = OriginFetchCoalescer()
    /// The ceiling on exchanges in flight. A fetch joining a coalesced one takes no slot.
    public let exchangeSlots: HTTPExchangeSlots
    /// http and https hops: the TLS context, the pool of idle connections, the slots.
    let exchanges: OriginHTTPExchanges
    /// file:// hops.
    let files = OriginFileReader()
    /// The redirect chain of a fetch or a stream, under the total timeout.
    let redirects: OriginRedirectFollower

    /// Makes a client.
    public init(configuration: Configuration) {
        self.configuration = configuration
        let slots = HTTPExchangeSlots(limit: configuration.maxExchanges)
        self.exchangeSlots = slots
        // The configured total timeout covers a stream's heads; the same span bounds its idle body.
        self.exchanges = OriginHTTPExchanges(
            connectTimeout: configuration.connectTimeout, idleTimeout: configuration.totalTimeout,
            headerPolicy: OriginHeaderPolicy(userAgent: configuration.userAgent),
            tlsContext: TLSContext(caFile: configuration.caFile), connections: HTTPConnectionPool(), slots: slots)
        self.redirects = OriginRedirectFollower(totalTimeout: configuration.totalTimeout)
    }

    /// The default ceiling on exchanges in flight: a quarter of the soft descriptor limit, between
    /// 16 and 1024 (1024 when there is no limit). An exchange holds two descriptors and the client
    /// connection waiting for it a third; the quarter leaves room for idle clients, pooled
    /// connections, cache files and listeners.
    public static func defaultMaxExchanges(descriptorLimit: Int?) -> Int {
        guard let descriptorLimit else { return 1024 }
        return min(1024, max(16, descriptorLimit / 4))
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
        for target in result.redirectTargets {
            guard request.allowRedirect(target) else { throw .redirectNotAllowed }
            switch await request.redirectAddresses(target) {
            case .refused: throw .redirectNotAllowed
            case .shed(let limit): throw .overloaded(limit: limit)
            case .resolvedWhenConnecting, .vetted: break
            }
        }
        return result.response
    }

    /// Fetches `request.url` and returns once the response head is in; the body streams after it.
    /// Redirects are followed as `fetch` follows them (every hop passes `allowRedirect`, credentials
    /// never cross origins). Streams are never shared: `maxBodyBytes` caps the body, and the
    /// configured total timeout covers the heads while the idle timeout covers the body.
    public func stream(_ request: OriginRequest) async throws(OriginError) -> OriginStream {
        guard request.method == .get || request.method == .head else {
            throw .invalidRequest("only GET and HEAD are fetched")
        }
        return try await redirects.follow(request) { [self] hop throws(OriginError) in
            switch hop.url.scheme {
            case "http", "https": return try await exchanges.stream(hop, request: request)
            case "file": return OriginStream(try files.read(hop.url, request: request))
            default: throw .invalidRequest("unsupported URL scheme")
            }
        }.response
    }

    /// One fetch with its redirect chain, under one total deadline.
    func perform(_ request: OriginRequest) async throws(OriginError) -> FetchResult {
        let (response, targets) = try await redirects.follow(request) { [self] hop throws(OriginError) in
            switch hop.url.scheme {
            case "http", "https": return try await exchanges.fetch(hop, request: request)
            case "file": return try files.read(hop.url, request: request)
            default: throw .invalidRequest("unsupported URL scheme")
            }
        }
        return FetchResult(response: response, redirectTargets: targets)
    }
}
