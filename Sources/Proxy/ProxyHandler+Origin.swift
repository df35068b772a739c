import HTTPServer

extension ProxyHandler {
    /// The headers sent upstream: the client's forwarded headers, plus the mount's injected ones when
    /// the URL is on the mount's own origin (secrets never go to a host the operator did not name).
    func upstreamHeaders(for url: String, mount: Mount?, request: HTTPRequest) -> HTTPHeaders {
        var headers = HTTPHeaders()
        guard let mount else { return headers }
        for name in mount.forwardHeaders {
            for value in request.headers.values(name) { headers.add(name: name, value: value) }
        }
        if case .http(let base) = mount.origin, let mountOrigin = URLReference.origin(of: base),
           URLReference.origin(of: url) == mountOrigin {
            for header in mount.injectHeaders { headers[header.name] = header.value }
        }
        return headers
    }

    /// Fetches one origin URL, timing it for the latency histogram.
    func fetch(
        _ url: String, kind: String, maxBytes: Int, mount: Mount?, request: HTTPRequest, extraHeaders: HTTPHeaders = HTTPHeaders(),
        operatorNamed: Bool = false
    ) async throws -> (FetchedBody, Double) {
        var headers = upstreamHeaders(for: url, mount: mount, request: request)
        for field in extraHeaders { headers[field.name] = field.value }
        var originRequest = OriginRequest(url: url, method: .get, headers: headers, maxBodyBytes: maxBytes)
        if case .directory(let root) = mount?.origin, url.hasPrefix("file:") {
            do {
                originRequest.fileDirectory = try mountDirectories.directory(root: root)
            } catch {
                throw OriginError.notFoundFile
            }
        }
        // Every redirect hop to a host that is not a mount origin is vetted by address (an origin is not
        // trusted to send us into the local network); in the embedded form it must be allowlisted too.
        let allowHosts = config.embedded.allowHosts
        let policy = OriginAddressPolicy(config.embedded)
        let mountOrigins = Set(config.mounts.compactMap { mount -> String? in
            if case .http(let base) = mount.origin { return URLReference.origin(of: base) }
            return nil
        })
        let embedded = mount == nil
        originRequest.allowRedirect = { target in
            guard let host = URLReference.host(of: target) else { return false }
            if embedded, !allowHosts.contains(where: { $0.matches(host) }) { return false }
            if let origin = URLReference.origin(of: target), mountOrigins.contains(origin) { return true }
            return policy.checkBlocking(host: host)
        }
        if !operatorNamed, let host = URLReference.host(of: url), !isOnMountOrigin(url) {
            // A mount origin or a URL written in the config is the operator's choice; any other host was
            // reached by name from the allowlist (or a playlist), so its resolved addresses are vetted too.
            try await OriginAddressPolicy(config.embedded).check(host: host)
        }
        let started = ContinuousClock.now
        defer { metrics.recordOriginFetch(kind: kind, seconds: Self.milliseconds(started.duration(to: .now)) / 1000) }
        let response = try await origin.fetch(originRequest)
        let elapsed = Self.milliseconds(started.duration(to: .now))
        let fetched = FetchedBody(status: response.status, body: response.body, finalURL: response.finalURL, contentType: response.headers["Content-Type"])
        return (fetched, elapsed)
    }

    /// A playlist body from cache or origin; only successful answers are cached.
    func cachedPlaylist(_ url: String, kind: String, mount: Mount?, request: HTTPRequest) async throws -> (FetchedBody, Double) {
        let key = cacheKey(url, mount: mount, request: request)
        if let hit = caches.playlists.value(for: key) { return (hit, 0) }
        let (fetched, elapsed) = try await fetch(url, kind: kind, maxBytes: config.limits.maxPlaylistBytes, mount: mount, request: request)
        if (200..<300).contains(fetched.status) {
            caches.playlists.store(fetched, for: key, cost: fetched.body.count + 256, ttl: ConfigSeconds.duration(config.cache.masterTTL))
        }
        return (fetched, elapsed)
    }

    /// Cache keys include the forwarded header values, since they may change what the origin answers.
    func cacheKey(_ url: String, mount: Mount?, request: HTTPRequest) -> String {
        guard let mount, !mount.forwardHeaders.isEmpty else { return url }
        let varying = mount.forwardHeaders.map { request.headers.values($0).joined(separator: ",") }
        return url + "\u{1}" + varying.joined(separator: "\u{1}")
    }

    /// Turns an origin's non-success status into the status the player gets (SPEC "Errors").
    static func originFailure(_ status: Int, what: String) -> ProxyError {
        switch status {
        case 400..<500: return ProxyError(HTTPStatus(code: status), "origin answered \(status) for the \(what)")
        default: return .badGateway("origin answered \(status) for the \(what)")
        }
    }

    /// Whether `url` is on the origin of one of the configured http mounts.
    func isOnMountOrigin(_ url: String) -> Bool {
        guard let origin = URLReference.origin(of: url) else { return true }  // file: URLs are confined elsewhere
        return config.mounts.contains { mount in
            if case .http(let base) = mount.origin { return URLReference.origin(of: base) == origin }
            return false
        }
    }

    /// Whether the proxy may fetch a URL it found inside an origin's playlist on behalf of a master.
    /// Same origin as the master, an allowlisted host, or a configured mount's origin; for directory
    /// mounts, only files inside the mount.
    func mayFetchDerived(_ url: String, master: OriginTarget) -> Bool {
        if url.hasPrefix("file:") {
            guard case .directory(let root) = master.mount?.origin, let path = FileConfinement.path(fromFileURL: url) else { return false }
            return (try? FileConfinement.checkInside(root: root, path: path)) != nil
        }
        guard let derivedOrigin = URLReference.origin(of: url) else { return false }
        if URLReference.origin(of: master.url) == derivedOrigin { return true }
        if let host = URLReference.host(of: url), config.embedded.allowHosts.contains(where: { $0.matches(host) }) { return true }
        return config.mounts.contains { mount in
            if case .http(let base) = mount.origin { return URLReference.origin(of: base) == derivedOrigin }
            return false
        }
    }
}
