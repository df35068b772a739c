import HLS
import HTTPClient
import HTTPServer
import HTTPWire
import Synchronization

/// Answers every request: plans its route, hands it to the responder for its class, turns errors into
/// responses in one place, and finishes every response (range, ETag, CORS, metrics, access log).
/// Stateless apart from caches, so many instances can run side by side.
public final class ProxyHandler: Sendable {
    let config: ProxyConfig
    let router: RequestRouter
    let origin: OriginClient
    let logger: ProxyLogger
    let metrics: ProxyMetrics
    let caches: ProxyCaches
    /// Pass-through objects and ranges on disk; nil when `cache.disk_directory` is unset.
    let diskCache: DiskCache?
    let cors: CORSPolicy
    /// Every responder, and which one serves which planned request.
    let responders: Responders
    /// For each route (by `ProxyRoute.index`), the fields every response of it ends with: the route
    /// field, then the CORS fields that do not depend on the request (and for redirects, which are never
    /// to be stored, `Cache-Control: no-store`). Made once, added in one copy.
    let routeFields: [HTTPHeaders]
    /// When shedding was last logged (at most once a second).
    let shedLogged = Mutex<MonotonicTime?>(nil)
    /// Reports open client connections and whether the server is draining; set by the service.
    let serverState: @Sendable () -> (openConnections: Int, accepting: Bool)

    /// The masters' responder: planning logs its claims, and tests reach its fetcher through it.
    var masters: MasterResponder { responders.masters }

    /// Makes a handler for a validated config.
    public convenience init(
        config: ProxyConfig,
        origin: OriginClient,
        logger: ProxyLogger,
        metrics: ProxyMetrics = ProxyMetrics(),
        resolver: HostResolver = .system,
        serverState: @escaping @Sendable () -> (openConnections: Int, accepting: Bool) = { (0, true) }
    ) {
        self.init(config: config, origin: origin, logger: logger, metrics: metrics, resolver: resolver,
                  diskCache: DiskCacheResponder.makeDiskCache(config.cache, logger: logger), serverState: serverState)
    }

    /// Makes a handler that shares a disk cache already open (a reload keeps it: its keys include the
    /// mount's identity, so a changed mount cannot hit another's objects) and starts with empty memory caches.
    /// `resolver` resolves origin host names for the SSRF address check; `cacheClock` expires the memory caches.
    init(
        config: ProxyConfig,
        origin: OriginClient,
        logger: ProxyLogger,
        metrics: ProxyMetrics,
        resolver: HostResolver,
        diskCache: DiskCache?,
        cacheClock: CacheClock = .system,
        serverState: @escaping @Sendable () -> (openConnections: Int, accepting: Bool)
    ) {
        let context = ResponderContext(
            config: config, origin: origin, logger: logger, metrics: metrics, resolver: resolver, diskCache: diskCache,
            cacheClock: cacheClock)
        self.config = config
        self.router = context.router
        self.origin = origin
        self.logger = logger
        self.metrics = metrics
        self.caches = context.caches
        self.diskCache = diskCache
        self.responders = Responders(context: context)
        let cors = CORSPolicy(allowOrigins: config.cors.allowOrigins)
        self.cors = cors
        self.routeFields = ProxyRoute.allCases.map { route in
            var fields = HTTPHeaders()
            fields.add(.hlsProxyRoute, route.name)
            fields.append(contentsOf: cors.fixedFields)
            if route == .redirect { fields.add(.cacheControl, "no-store") }
            return fields
        }
        self.serverState = serverState
    }

    /// The entry point given to the HTTP server.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let started = logger.accessEnabled ? MonotonicTime.now() : nil
        let outcome: RouteResponse
        switch plan(for: request) {
        case .answered(let answer):
            outcome = answer
        case .work(let work):
            do {
                outcome = try await responders.serve(work, request: request)
            } catch {
                outcome = Self.errorOutcome(error)
                // As nginx logs upstream failures: a 5xx the proxy gives says why on stderr too (the
                // reason is the one the client gets, which never carries a header value or secret).
                // Shed requests are counted in /metrics and logged at most once a second, not each.
                if case OriginError.overloaded(let limit) = error {
                    noteShedding(limit: limit)
                } else if outcome.response.status.code >= 500, let failure = error as? HTTPStatusError {
                    logger.log(.warn, "request failed", [
                        ("path", request.rawPath), ("status", String(outcome.response.status.code)), ("reason", failure.reason),
                    ])
                }
            }
        }
        return finish(outcome, request: request, started: started)
    }

    /// Answers without waiting on anything when it can: health, metrics, preflight, redirects, errors,
    /// and whatever a responder answers with no I/O (files of directory mounts, cached masters, objects
    /// stored whole on disk). Nil means the request needs I/O: pass it to `handle`.
    /// Safe to call on the server's loop thread; it never blocks.
    public func handleImmediately(_ request: HTTPRequest) -> HTTPResponse? {
        // The clock is read only for the access log's duration.
        let started = logger.accessEnabled ? MonotonicTime.now() : nil
        switch plan(for: request) {
        case .answered(let answer):
            return finish(answer, request: request, started: started)
        case .work(let work):
            guard let answer = responders.immediate(work, request: request) else { return nil }
            return finish(answer, request: request, started: started)
        }
    }

    /// If-None-Match (synthesized bodies), Range, route header, CORS, metrics and the access log: the same for every response.
    /// Takes the outcome whole (`consuming`), so its header list is still uniquely owned and the fields
    /// added here go in place rather than into a copy.
    private func finish(_ outcome: consuming RouteResponse, request: HTTPRequest, started: MonotonicTime?) -> HTTPResponse {
        // Only bodies the proxy made carry its ETag; pass-through answers with the origin's validators.
        if outcome.route.isSynthesized { EntityTag.applyIfNoneMatch(to: &outcome.response, request: request) }
        ByteRangeRequest.apply(to: &outcome.response, request: request)
        // Set here and nowhere else, so appended rather than searched for and replaced.
        outcome.response.headers.append(contentsOf: routeFields[outcome.route.index])
        cors.decorate(&outcome.response, request: request)
        let status = outcome.response.status.code
        metrics.recordRequest(route: outcome.route, status: status)
        if let started {
            logger.access(
                method: request.method.rawValue, path: request.rawPath, route: outcome.route, status: status,
                bytes: request.method == .head ? 0 : outcome.response.body.count,
                durationMilliseconds: started.millisecondsElapsed,
                originMilliseconds: outcome.originMilliseconds, client: request.remoteAddress)
        }
        return (consume outcome).response
    }

    // MARK: - Dispatch

    /// What a request needs: an answer now, or work that waits on origins or files.
    private enum Plan {
        case answered(RouteResponse)
        case work(Responders.Work)
    }

    /// Routes and classifies a request without any I/O.
    private func plan(for request: HTTPRequest) -> Plan {
        if request.method == .options {
            return .answered(RouteResponse(route: .preflight, response: cors.preflight(request)))
        }
        guard request.method == .get || request.method == .head else {
            return .answered(RouteResponse(route: .error, response: .makeError(.methodNotAllowed, "only GET, HEAD and OPTIONS are served")))
        }
        let route: RequestRouter.Route
        do {
            route = try router.route(rawPath: request.rawPath, query: request.query)
        } catch {
            return .answered(Self.errorOutcome(error))
        }
        switch route {
        case .health:
            let state = serverState()
            return .answered(state.accepting
                ? RouteResponse(route: .health, response: .makeText(.ok, "ok"))
                : RouteResponse(route: .health, response: .makeText(.serviceUnavailable, "draining")))
        case .ready:
            let state = serverState()
            return .answered(RouteResponse(route: .ready, response: state.accepting ? .makeText(.ok, "ready") : .makeText(.serviceUnavailable, "not ready")))
        case .metrics:
            let text = metrics.render(
                openConnections: serverState().openConnections, caches: caches.counts, disk: diskCache?.metrics, originExchanges: origin.exchangeSlots)
            var response = HTTPResponse.makeText(.ok, text, trailingNewline: false)
            response.headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return .answered(RouteResponse(route: .metrics, response: response))
        case .subtitle(let url):
            return .work(.subtitle(url))
        case .signed(let url):
            return .work(.signed(url))
        case .origin(let target):
            if let setIndex = subtitleSetIndex(forPath: target.proxyPath) {
                if logger.isEnabled(.debug) { masters.logClaim(target, set: config.subtitleSets[setIndex]) }
                return .work(.master(ClaimedMaster(target: target, setIndex: setIndex)))
            }
            if logger.isEnabled(.debug) { masters.logNotClaimed(target) }
            if let path = target.filePath { return .work(.file(FileTarget(path: path, mount: target.mount))) }
            switch target.segmentMode {
            case .redirect: return .answered(redirect(to: target.location))
            case .proxy: return .work(.passThrough(target))
            }
        }
    }

    /// The one place errors become responses. A shed request (every origin exchange slot taken) is
    /// asked to come back in a second (RFC 9110 §10.2.3); like every error, it is not to be stored.
    private static func errorOutcome(_ error: any Error) -> RouteResponse {
        if let error = error as? HTTPStatusError {
            var response = HTTPResponse.makeError(error.status, error.reason)
            if case OriginError.overloaded = error { response.headers.add(.retryAfter, "1") }
            return RouteResponse(route: .error, response: response)
        }
        return RouteResponse(route: .error, response: .makeError(.internalServerError, "internal error"))
    }

    /// Logs that requests are being shed, at most once a second.
    private func noteShedding(limit: Int) {
        let now = MonotonicTime.now()
        let due = shedLogged.withLock { last -> Bool in
            if let last, now - last < .seconds(1) { return false }
            last = now
            return true
        }
        guard due else { return }
        logger.log(.warn, "origin exchanges at their ceiling; shedding with 503", [
            ("limit", String(limit)), ("in_flight", String(origin.exchangeSlots.inFlight)), ("shed_total", String(origin.exchangeSlots.refused)),
        ])
    }

    /// The position in `config.subtitleSets` of the first set whose master rules match a proxy path.
    /// An index rather than the set: planning hands it on twice, and a set is many fields to copy.
    func subtitleSetIndex(forPath path: String) -> Int? {
        config.subtitleSets.firstIndex { $0.claims(path) }
    }

    private func redirect(to location: OriginLocation) -> RouteResponse {
        var headers = HTTPHeaders(reservingCapacity: HTTPResponse.fieldCapacity)
        location.add(as: .location, to: &headers)
        return RouteResponse(route: .redirect, response: HTTPResponse(status: .found, headers: headers))
    }
}

/// A response plus the route name that explains it and the time spent waiting on origins.
struct RouteResponse: Sendable {
    var route: ProxyRoute
    var response: HTTPResponse
    var originMilliseconds: Double = 0
}
