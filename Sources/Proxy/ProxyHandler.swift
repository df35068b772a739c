import HLS
import HTTPServer

/// Answers every request: routes it, runs the action for its class, and turns errors into responses
/// in one place. Stateless apart from caches, so many instances can run side by side.
public final class ProxyHandler: Sendable {
    let config: ProxyConfig
    let router: RequestRouter
    let origin: OriginClient
    let logger: ProxyLogger
    let metrics: ProxyMetrics
    let caches: ProxyCaches
    /// Reports open client connections and whether the server is draining; set by the service.
    let serverState: @Sendable () -> (openConnections: Int, accepting: Bool)

    /// Makes a handler for a validated config.
    public init(
        config: ProxyConfig,
        origin: OriginClient,
        logger: ProxyLogger,
        metrics: ProxyMetrics = ProxyMetrics(),
        serverState: @escaping @Sendable () -> (openConnections: Int, accepting: Bool) = { (0, true) }
    ) {
        self.config = config
        self.router = RequestRouter(config: config)
        self.origin = origin
        self.logger = logger
        self.metrics = metrics
        self.caches = ProxyCaches(budget: config.cache.maxBytes)
        self.serverState = serverState
    }

    /// The entry point given to the HTTP server.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let started = ContinuousClock.now
        var outcome: RouteResponse
        do {
            outcome = try await respond(to: request)
        } catch let error as HTTPStatusError {
            outcome = RouteResponse(route: "error", response: Self.errorResponse(error.status, error.reason))
        } catch {
            outcome = RouteResponse(route: "error", response: Self.errorResponse(.internalServerError, "internal error"))
        }
        var response = ByteRangeRequest.apply(to: outcome.response, request: request)
        response.headers["X-HLS-Proxy-Route"] = outcome.route
        CORSPolicy(allowOrigins: config.cors.allowOrigins).decorate(&response, request: request)
        let elapsed = started.duration(to: .now)
        metrics.recordRequest(route: outcome.route, status: response.status.code)
        logger.access([
            ("method", .string(request.method.rawValue)),
            ("path", .string(request.rawPath)),
            ("route", .string(outcome.route)),
            ("status", .int(response.status.code)),
            ("bytes", .int(request.method == .head ? 0 : response.body.count)),
            ("duration_ms", .double(Self.milliseconds(elapsed))),
            ("origin_ms", .double(outcome.originMilliseconds)),
            ("client", .string(request.remoteAddress)),
        ])
        return response
    }

    // MARK: - Dispatch

    private func respond(to request: HTTPRequest) async throws -> RouteResponse {
        if request.method == .options {
            return RouteResponse(route: "preflight", response: CORSPolicy(allowOrigins: config.cors.allowOrigins).preflight(request))
        }
        guard request.method == .get || request.method == .head else {
            return RouteResponse(route: "error", response: Self.errorResponse(.methodNotAllowed, "only GET, HEAD and OPTIONS are served"))
        }
        switch try router.route(rawPath: request.rawPath, query: request.query) {
        case .health:
            let state = serverState()
            return state.accepting
                ? RouteResponse(route: "health", response: Self.text(.ok, "ok"))
                : RouteResponse(route: "health", response: Self.text(.serviceUnavailable, "draining"))
        case .ready:
            let state = serverState()
            return RouteResponse(route: "ready", response: state.accepting ? Self.text(.ok, "ready") : Self.text(.serviceUnavailable, "not ready"))
        case .metrics:
            let text = metrics.render(openConnections: serverState().openConnections, caches: caches.counts)
            var response = Self.text(.ok, text, trailingNewline: false)
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            return RouteResponse(route: "metrics", response: response)
        case .subtitle(let url):
            return try await serveSubtitle(url, request: request)
        case .origin(let target):
            if let set = subtitleSet(forPath: target.proxyPath) {
                return try await serveMaster(target, set: set, request: request)
            }
            if let path = target.filePath {
                return try await serveFile(path, request: request)
            }
            switch target.segmentMode {
            case .redirect: return redirect(to: target.url)
            case .proxy: return try await passThrough(target, request: request)
            }
        }
    }

    /// The first subtitle set whose master rules match a proxy path.
    func subtitleSet(forPath path: String) -> SubtitleSet? {
        config.subtitleSets.first { $0.claims(path) }
    }

    private func redirect(to url: String) -> RouteResponse {
        var headers = HTTPHeaders()
        headers["Location"] = url
        headers["Cache-Control"] = "no-store"
        return RouteResponse(route: "redirect", response: HTTPResponse(status: .found, headers: headers))
    }

    // MARK: - Response helpers

    static func text(_ status: HTTPStatus, _ body: String, trailingNewline: Bool = true) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers["Content-Type"] = "text/plain; charset=utf-8"
        headers["Cache-Control"] = "no-store"
        return HTTPResponse(status: status, headers: headers, bytes: Array((trailingNewline ? body + "\n" : body).utf8))
    }

    static func errorResponse(_ status: HTTPStatus, _ reason: String) -> HTTPResponse {
        text(status, "\(status.code) \(status.reasonPhrase): \(reason)")
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}

/// A response plus the route name that explains it and the time spent waiting on origins.
struct RouteResponse: Sendable {
    var route: String
    var response: HTTPResponse
    var originMilliseconds: Double = 0
}
