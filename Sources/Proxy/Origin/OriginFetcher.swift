import HTTPClient
import HTTPServer
import HTTPWire

/// Origin access shared by the responders: the fields sent upstream for a mount, fetches timed for the
/// latency histogram, redirect vetting (SSRF, docs/security.md) and origin playlists through the memory cache.
struct OriginFetcher: Sendable {
    let config: ProxyConfig
    let origin: OriginClient
    let logger: ProxyLogger
    let metrics: ProxyMetrics
    /// Origin playlist bodies (masters and media playlists), short TTL.
    let playlists: MemoryCache<FetchedBody>
    let mountDirectories: MountDirectories
    /// Resolves origin host names for the SSRF address check.
    let resolver: HostResolver

    /// The fields sent upstream for a mount: the client's forwarded headers and the mount's injected
    /// ones. They belong to the mount's own origin only; `makeOriginRequest` binds them to it.
    func upstreamHeaders(mount: Mount, request: HTTPRequest) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for name in mount.forwardHeaders {
            for value in request.headers.values(name) { headers.add(name: name, value: value) }
        }
        for header in mount.injectHeaders { headers[header.name] = header.value }
        return headers
    }

    /// An origin request whose forwarded and injected fields go only to hops on the mount's own origin
    /// (same scheme, host and port as its `origin`), whatever URL the request starts at and wherever
    /// redirects lead: secrets never reach a host the operator did not name for them. Directory mounts
    /// and the embedded form have no such fields.
    func makeOriginRequest(_ url: String, method: HTTPMethod, mount: Mount?, request: HTTPRequest, maxBodyBytes: Int) -> OriginRequest {
        var originRequest = OriginRequest(url: url, method: method, maxBodyBytes: maxBodyBytes)
        if let mount, case .http(let base) = mount.origin {
            originRequest.headers = upstreamHeaders(mount: mount, request: request)
            originRequest.headersOrigin = base
        }
        return originRequest
    }

    /// Fetches one origin URL, timing it for the latency histogram. `backendSourceHosts` is set for a
    /// source a `tracks_url` named: the hosts (besides `embedded.allow_hosts`) it and its redirects may use.
    func fetch(
        _ url: String, kind: String, maxBytes: Int, mount: Mount?, request: HTTPRequest, extraHeaders: HTTPHeaders = HTTPHeaders(),
        operatorNamed: Bool = false, backendSourceHosts: [HostPattern]? = nil, method: HTTPMethod = .get,
        sourceProvenance: TrackProvenance? = nil
    ) async throws -> (FetchedBody, Double) {
        let originRequest = try await vettedRequest(
            url, maxBytes: maxBytes, mount: mount, request: request, extraHeaders: extraHeaders, operatorNamed: operatorNamed,
            backendSourceHosts: backendSourceHosts, method: method, sourceProvenance: sourceProvenance)
        let started = MonotonicTime.now()
        defer { metrics.recordOriginFetch(kind: kind, seconds: Self.milliseconds(started.duration(to: .now())) / 1000) }
        let response: OriginResponse
        do {
            response = try await origin.fetch(originRequest)
        } catch {
            logOriginFailure(url, kind: kind, started: started, error: error)
            throw error
        }
        let elapsed = Self.milliseconds(started.duration(to: .now()))
        let fetched = FetchedBody(
            status: response.status, body: response.body, finalURL: response.finalURL, contentType: response.headers[.contentType],
            contentLength: response.headers[.contentLength].flatMap { Int($0) })
        logger.debug("origin fetch", [
            ("url", ProxyLogger.redactedURL(url)), ("kind", kind), ("status", String(response.status)),
            ("ms", Self.debugMilliseconds(elapsed)), ("bytes", String(response.body.count)),
        ])
        return (fetched, elapsed)
    }

    /// A debug line for an origin fetch that got no answer: the URL redacted, and the status the
    /// failure becomes (its text may quote origin details, so only the status is logged).
    func logOriginFailure(_ url: String, kind: String, started: MonotonicTime, error: any Error) {
        guard logger.isEnabled(.debug) else { return }
        let status = (error as? any HTTPStatusError)?.status.code ?? 502
        logger.debug("origin fetch failed", [
            ("url", ProxyLogger.redactedURL(url)), ("kind", kind), ("status", String(status)),
            ("ms", Self.debugMilliseconds(Self.milliseconds(started.duration(to: .now())))),
        ])
    }

    /// Milliseconds with three decimals, as the access log writes them.
    static func debugMilliseconds(_ value: Double) -> String {
        var out = ""
        JSONValue.appendMilliseconds(value, to: &out)
        return out
    }

    /// A playlist body from cache or origin, fetched as `target`'s URL form does (its mount's headers);
    /// only successful answers are cached, under a key that names that form.
    func cachedPlaylist(_ url: String, kind: String, for target: OriginTarget, request: HTTPRequest) async throws -> (FetchedBody, Double) {
        let key = MemoryCacheKey.make(url, target: target, request: request)
        if let hit = playlists.value(for: key) {
            logger.debug("playlist cache", [("url", ProxyLogger.redactedURL(url)), ("kind", kind), ("cache", "memory hit")])
            return (hit, 0)
        }
        let (fetched, elapsed) = try await fetch(url, kind: kind, maxBytes: config.limits.maxPlaylistBytes, mount: target.mount, request: request)
        if (200..<300).contains(fetched.status) {
            playlists.store(fetched, for: key, cost: fetched.body.count + 256, ttl: ConfigSeconds.duration(config.cache.masterTTL))
            logger.debug("playlist cache", [("url", ProxyLogger.redactedURL(url)), ("kind", kind), ("cache", "memory miss, stored")])
        } else {
            logger.debug("playlist cache", [
                ("url", ProxyLogger.redactedURL(url)), ("kind", kind),
                ("cache", "memory miss, not stored: origin status \(fetched.status) is not a success"),
            ])
        }
        return (fetched, elapsed)
    }

    /// Turns an origin's non-success status into the status the player gets (SPEC "Errors").
    static func originFailure(_ status: Int, what: String) -> ProxyError {
        switch status {
        case 400..<500: return ProxyError(HTTPStatus(code: status), "origin answered \(status) for the \(what)")
        default: return .badGateway("origin answered \(status) for the \(what)")
        }
    }

    /// Whether `url` is on the origin of one of the configured http mounts, judged by the endpoint the
    /// connection uses. file: URLs are confined elsewhere; any other URL without one is not.
    func isOnMountOrigin(_ url: String) -> Bool {
        guard let origin = OriginURL.connectionOrigin(of: url) else { return OriginURL(parsing: url).scheme == "file" }
        return config.mounts.contains { mount in
            if case .http(let base) = mount.origin { return OriginURL.connectionOrigin(of: base) == origin }
            return false
        }
    }

    /// Whether `url` lies under some http mount's base URL (its scheme, host, port and path), or is a file URL.
    func isUnderMountBase(_ url: String) -> Bool {
        guard OriginURL.connectionOrigin(of: url) != nil else { return OriginURL(parsing: url).scheme == "file" }
        return config.mounts.contains { Self.isUnderBase(url, of: $0) }
    }

    /// Whether `url` has the connection origin of the http mount `mount` and a path inside its base
    /// path, with no dot segment that could climb out of it (RFC 3986 §5.2.4). Each segment is decoded
    /// leniently and judged as the router judges request paths (`DotSegment`): `..%2f`, `..;` or `..%09`
    /// climb on some origins, so only a segment every reading keeps a name counts as inside.
    static func isUnderBase(_ url: String, of mount: Mount) -> Bool {
        guard case .http(let base) = mount.origin, let origin = OriginURL.connectionOrigin(of: url),
              OriginURL.connectionOrigin(of: base) == origin else { return false }
        let path = OriginURL(parsing: url).path
        let climbs = path.split(separator: "/", omittingEmptySubsequences: false).contains { segment in
            let decoded = String(decoding: PathPattern.lenientlyDecoded(segment).bytes, as: UTF8.self)
            return decoded == "." || DotSegment.reading(decoded) != .name
        }
        guard !climbs else { return false }
        let basePath = OriginURL(parsing: base).path
        let prefix = basePath.hasSuffix("/") ? basePath : basePath + "/"
        return prefix == "/" || path == basePath || path.hasPrefix(prefix)
    }

    /// Whether the proxy may fetch a URL it found inside an origin's playlist on behalf of a master.
    /// Same origin as the master, an allowlisted host, or a configured mount's origin; for directory
    /// mounts, only files inside the mount.
    func mayFetchDerived(_ url: String, master: OriginTarget) -> Bool {
        if url.hasPrefix("file:") {
            guard case .directory(let root) = master.mount?.origin, let path = FileConfinement.path(fromFileURL: url) else { return false }
            return (try? FileConfinement.checkInside(root: root, path: path)) != nil
        }
        // Judged by the endpoint the connection uses, as the fetch's vetting is.
        guard let derivedOrigin = OriginURL.connectionOrigin(of: url) else { return false }
        if OriginURL.connectionOrigin(of: master.url) == derivedOrigin { return true }
        if let host = OriginURL.connectionHost(of: url), config.embedded.allowHosts.contains(where: { $0.matches(host) }) { return true }
        return config.mounts.contains { mount in
            if case .http(let base) = mount.origin { return OriginURL.connectionOrigin(of: base) == derivedOrigin }
            return false
        }
    }

    /// Opens an origin stream for a pass-through request, timing it for the latency histogram; an
    /// origin 5xx becomes the proxy's 502. `everyHopHeaders` (Range, If-Range) go on every hop; the
    /// mount's forwarded and injected fields only to its own origin.
    func openStream(_ target: OriginTarget, method: HTTPMethod, everyHopHeaders: HTTPHeaders, request: HTTPRequest) async throws -> (OriginStream, Double) {
        var originRequest = makeOriginRequest(
            target.url, method: method, mount: target.mount, request: request, maxBodyBytes: config.limits.maxProxyBodyBytes)
        originRequest.everyHopHeaders = everyHopHeaders
        vetRedirects(&originRequest, embedded: target.mount == nil)
        let started = MonotonicTime.now()
        let stream: OriginStream
        do {
            stream = try await origin.stream(originRequest)
        } catch {
            metrics.recordOriginFetch(kind: "segment", seconds: Self.milliseconds(started.duration(to: .now())) / 1000)
            logOriginFailure(target.url, kind: "segment", started: started, error: error)
            throw error
        }
        let elapsed = Self.milliseconds(started.duration(to: .now()))
        metrics.recordOriginFetch(kind: "segment", seconds: elapsed / 1000)
        // Streamed: the length is the one declared (time is to the response head), "unknown" when chunked.
        logger.debug("origin fetch", [
            ("url", ProxyLogger.redactedURL(target.url)), ("kind", "segment"), ("status", String(stream.status)),
            ("ms", Self.debugMilliseconds(elapsed)), ("bytes", stream.bodyLength.map(String.init) ?? "unknown"),
        ] + (everyHopHeaders[.range].map { [("range", $0)] } ?? []))
        if stream.status >= 500 {
            stream.cancel()
            throw Self.originFailure(stream.status, what: "resource")
        }
        return (stream, elapsed)
    }

    /// A duration in milliseconds, for the latency histogram and the logs.
    static func milliseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}
