import HTTPClient
import HTTPServer
import HTTPWire

/// Fetches a subtitle set's tracks from the app's backend (`tracks_url`, README "Tracks from the app's
/// backend"): a GET with the set's `tracks_headers` and nothing from the client or the mount, the JSON
/// answer read as the config reads tracks, sources resolved against the master and held to the
/// embedded form's host and address rules. Answers are cached per URL and header set, one fetch for
/// concurrent requests, at most `limits.max_tracks_cache_entries` of them; a failure is cached briefly,
/// so a down backend is asked once per `cache.fallback_ttl_seconds`, not once per viewer, and while it
/// is down the last good answer is served for up to `cache.tracks_stale_seconds` past its TTL.
struct TrackBackend: Sendable {
    let config: ProxyConfig
    let origin: OriginClient
    let logger: ProxyLogger
    let metrics: ProxyMetrics
    /// Resolves source host names for the private-address check.
    let resolver: HostResolver
    let cache: TrackBackendCache

    /// Makes a backend client with an empty cache, timed by `clock`. Its answers share a byte budget of
    /// `cache.max_bytes / 64`, as the optional-track probes do, besides `limits.max_tracks_cache_entries`.
    init(
        config: ProxyConfig, origin: OriginClient, logger: ProxyLogger, metrics: ProxyMetrics, resolver: HostResolver = .system,
        clock: CacheClock = .system
    ) {
        self.config = config
        self.origin = origin
        self.logger = logger
        self.metrics = metrics
        self.resolver = resolver
        self.cache = TrackBackendCache(
            maxEntries: config.limits.maxTracksCacheEntries, maxBytes: max(0, config.cache.maxBytes / 64), clock: clock)
    }

    /// The tracks `url` (already substituted) gives for the master at `masterURL`, in `set`. Never
    /// throws: a failure is a result, logged once per fetch, and the master is served without them.
    func tracks(url: String, set: SubtitleSet, masterURL: String) async -> TrackBackendResult {
        let headers = Self.requestHeaders(set)
        let answer = await cache.document(
            for: Self.cacheKey(url: url, headers: headers), successTTL: ConfigSeconds.duration(config.cache.tracksTTL),
            failureTTL: ConfigSeconds.duration(config.cache.fallbackTTL), staleTTL: ConfigSeconds.duration(config.cache.tracksStale),
            load: { [self] in await fetchDocument(url: url, headers: headers) },
            report: { [self] answer in report(answer, url: url, set: set) })
        switch answer.document {
        case .failed(let label, let detail, _):
            return .failed(reason: "\(label): \(detail)")
        case .tracks(let tracks, let dropped, _):
            let sourced = await checkedSources(tracks, url: url, set: set, masterURL: masterURL)
            return .tracks(sourced, dropped: dropped + tracks.count - sourced.count)
        }
    }

    /// Whether the backend would be asked for `url` now: no answer is kept for it (live or past its
    /// TTL) and no fetch is in flight.
    func wouldAsk(url: String, set: SubtitleSet) -> Bool {
        !cache.knows(Self.cacheKey(url: url, headers: Self.requestHeaders(set)))
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

    /// One fetch and decode.
    private func fetchDocument(url: String, headers: HTTPHeaders) async -> TrackBackendDocument {
        switch await fetchBody(url: url, headers: headers).flatMap(Self.decode) {
        case .failure(let failure):
            return .failed(label: failure.label, detail: failure.detail, assetGone: failure.assetGone)
        case .success(let decoded):
            return .tracks(decoded.tracks, dropped: decoded.droppedCount, droppedReasons: decoded.dropped)
        }
    }

    /// One fetch's outcome counted and, when it is a failure or drops tracks, logged: once per fetch,
    /// however many requests waited for it.
    private func report(_ answer: TrackBackendCache.Answer, url: String, set: SubtitleSet) {
        let fetched = answer.staleFor ?? answer.document
        switch fetched {
        case .failed(let label, let detail, _):
            metrics.recordTracksBackendFailure(reason: label)
            if answer.staleFor != nil {
                metrics.recordTracksBackendStale(reason: label)
                logger.log(.warn, "tracks backend failed; its last good answer is served (stale-if-error)", [
                    ("set", set.name), ("url", ProxyLogger.redactedURL(url)), ("reason", label), ("detail", detail),
                ])
            } else {
                logger.log(.warn, "tracks backend failed; the master gets no tracks from it", [
                    ("set", set.name), ("url", ProxyLogger.redactedURL(url)), ("reason", label), ("detail", detail),
                ])
            }
        case .tracks(_, _, let droppedReasons):
            metrics.recordTracksBackendSuccess()
            for reason in droppedReasons {
                logger.log(.warn, "tracks backend track dropped", [("set", set.name), ("url", ProxyLogger.redactedURL(url)), ("reason", reason)])
            }
        }
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
            // RFC 9110 §15.5.5, §15.5.11: the backend's word that the asset does not exist, not an outage.
            return .failure(TrackBackendFailure(
                label: "status", detail: "backend answered \(response.status)", assetGone: response.status == 404 || response.status == 410))
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
