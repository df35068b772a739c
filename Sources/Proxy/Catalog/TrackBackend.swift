import HTTPClient
import HTTPServer
import HTTPWire

/// Fetches a subtitle set's tracks from the app's backend (`tracks_url`, README "Tracks from the app's
/// backend"): a GET with the set's `tracks_headers` and nothing from the client or the mount, the JSON
/// answer read as the config reads tracks, sources resolved against the master and held to the
/// embedded form's host and address rules. Answers are cached per URL and header set, one fetch for
/// concurrent requests; a failure is cached briefly, so a down backend is asked once per
/// `cache.fallback_ttl_seconds`, not once per viewer.
struct TrackBackend: Sendable {
    let config: ProxyConfig
    let origin: OriginClient
    let logger: ProxyLogger
    let metrics: ProxyMetrics
    /// Resolves source host names for the private-address check.
    let resolver: HostResolver
    let cache: TrackBackendCache

    /// Makes a backend client with an empty cache.
    init(config: ProxyConfig, origin: OriginClient, logger: ProxyLogger, metrics: ProxyMetrics, resolver: HostResolver = .system) {
        self.config = config
        self.origin = origin
        self.logger = logger
        self.metrics = metrics
        self.resolver = resolver
        self.cache = TrackBackendCache()
    }

    /// The tracks `url` (already substituted) gives for the master at `masterURL`, in `set`. Never
    /// throws: a failure is a result, logged once per fetch, and the master is served without them.
    func tracks(url: String, set: SubtitleSet, masterURL: String) async -> TrackBackendResult {
        let headers = Self.requestHeaders(set)
        let document = await cache.document(
            for: Self.cacheKey(url: url, headers: headers), successTTL: ConfigSeconds.duration(config.cache.tracksTTL),
            failureTTL: ConfigSeconds.duration(config.cache.fallbackTTL)
        ) { [self] in
            await fetchDocument(url: url, headers: headers, set: set)
        }
        switch document {
        case .failed(let label, let detail):
            return .failed(reason: "\(label): \(detail)")
        case .tracks(let tracks, let dropped):
            let sourced = await checkedSources(tracks, url: url, set: set, masterURL: masterURL)
            return .tracks(sourced, dropped: dropped + tracks.count - sourced.count)
        }
    }

    /// The fields the backend gets: `Accept: application/json` and the set's `tracks_headers` (which
    /// may replace it); the client adds Host and User-Agent.
    static func requestHeaders(_ set: SubtitleSet) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(.accept, "application/json")
        for header in set.tracksHeaders { headers[header.name] = header.value }
        return headers
    }

    /// URL and every header, so two sets with different tokens never share an answer.
    static func cacheKey(url: String, headers: HTTPHeaders) -> String {
        var key = url
        for field in headers { key += "\n\(field.name.lowercased()):\(field.value)" }
        return key
    }

    /// One fetch and decode, its outcome counted and, when it is a failure or drops tracks, logged.
    private func fetchDocument(url: String, headers: HTTPHeaders, set: SubtitleSet) async -> TrackBackendDocument {
        let document: TrackBackendDocument
        switch await fetchBody(url: url, headers: headers).flatMap(Self.decode) {
        case .failure(let failure):
            metrics.recordTracksBackendFailure(reason: failure.label)
            logger.log(.warn, "tracks backend failed; the master gets no tracks from it", [
                ("set", set.name), ("url", ProxyLogger.redactedURL(url)), ("reason", failure.label), ("detail", failure.detail),
            ])
            document = .failed(label: failure.label, detail: failure.detail)
        case .success(let decoded):
            metrics.recordTracksBackendSuccess()
            for reason in decoded.dropped {
                logger.log(.warn, "tracks backend track dropped", [("set", set.name), ("url", ProxyLogger.redactedURL(url)), ("reason", reason)])
            }
            document = .tracks(decoded.tracks, dropped: decoded.droppedCount)
        }
        return document
    }

    /// The body of a 2xx answer. Redirects are not followed: the backend is a URL the operator named, and
    /// its headers (a token) must not travel to wherever a redirect points.
    private func fetchBody(url: String, headers: HTTPHeaders) async -> Result<[UInt8], TrackBackendFailure> {
        var request = OriginRequest(url: url, method: .get, maxBodyBytes: config.limits.maxTracksResponseBytes, followRedirects: false)
        request.headers = headers
        request.headersOrigin = url
        let started = MonotonicTime.now()
        defer { metrics.recordOriginFetch(kind: "tracks", seconds: OriginFetcher.milliseconds(started.duration(to: .now())) / 1000) }
        let response: OriginResponse
        switch await fetchWithin(ConfigSeconds.duration(config.timeouts.tracks), request) {
        case .success(let answer): response = answer
        case .failure(let error): return .failure(Self.failure(error))
        }
        guard (200..<300).contains(response.status) else {
            return .failure(TrackBackendFailure(label: "status", detail: "backend answered \(response.status)"))
        }
        return .success(response.body)
    }

    /// The fetch, or `.timeout` once `deadline` passes (`timeouts.tracks_seconds`, shorter than the
    /// client's own `origin_seconds`): the master waits for this, and a player gives up on a master
    /// long before an origin timeout (hls.js after 10 s).
    private func fetchWithin(_ deadline: Duration, _ request: OriginRequest) async -> Result<OriginResponse, OriginError> {
        await withTaskGroup(of: Result<OriginResponse, OriginError>?.self) { [origin] group in
            group.addTask {
                do throws(OriginError) {
                    return .success(try await origin.fetch(request))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                // Only cancellation ends the sleep early, and then the fetch has answered.
                try? await Task.sleep(for: deadline)
                return nil
            }
            let first = await group.next().flatMap { $0 }
            group.cancelAll()
            return first ?? .failure(.timeout)
        }
    }

    /// The metric label and detail for a fetch that got no answer.
    static func failure(_ error: OriginError) -> TrackBackendFailure {
        let label: String
        switch error {
        case .timeout: label = "timeout"
        case .unreachable: label = "unreachable"
        case .tooLarge: label = "too_large"
        case .overloaded: label = "overloaded"
        case .invalidRequest: label = "invalid_url"
        case .badResponse, .redirectLoop, .redirectNotAllowed, .notFoundFile, .forbiddenFile, .cancelled: label = "bad_response"
        }
        return TrackBackendFailure(label: label, detail: error.reason)
    }
}
