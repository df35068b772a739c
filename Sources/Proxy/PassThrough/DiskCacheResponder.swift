import HTTPServer
import HTTPWire

/// The disk-cache path of pass-through (docs/caching.md): objects and ranges answered from disk, and
/// origin answers stored while they are relayed.
struct DiskCacheResponder: Sendable {
    /// Pass-through objects and ranges on disk.
    let cache: DiskCache
    let fetcher: OriginFetcher
    let logger: ProxyLogger

    /// The disk cache for `settings`, or nil when it is off (no directory) or its directory cannot be
    /// made (logged; the proxy then streams everything from the origin).
    static func makeDiskCache(_ settings: ProxyConfig.CacheSettings, logger: ProxyLogger) -> DiskCache? {
        guard let directory = settings.diskDirectory else { return nil }
        do {
            return try DiskCache(directory: directory, maxBytes: settings.diskMaxBytes, logger: logger)
        } catch {
            logger.log(.error, "disk cache off: cannot use its directory", [("directory", directory), ("error", "\(error)")])
            return nil
        }
    }

    /// The disk cache key of a pass-through request: everything that can change the stored bytes or who
    /// may see them. The origin URL; who it was fetched for (`OriginTarget.cacheScope`: the mount's name
    /// with a digest of the headers it injects, or the embedded form), so an object fetched with a
    /// credential the origin requires is never served through a mount (or form) that does not carry it;
    /// and a digest of the forwarded client header values. Digests, not values: keys are written into
    /// the cache's files, secrets never are.
    func key(_ target: OriginTarget, request: HTTPRequest) -> String {
        let scoped = target.url + "\u{1}" + target.cacheScope
        guard let mount = target.mount, !mount.forwardHeaders.isEmpty else { return scoped }
        var forwarded: [UInt8] = []
        for name in mount.forwardHeaders {
            // Length-prefixed, so no pair of values can read as another.
            let value = Array(request.headers.values(name).joined(separator: ",").utf8)
            forwarded += Array(String(value.count).utf8) + [0x3a] + value
        }
        return scoped + "\u{1}f=" + String(SHA256.hex(forwarded).prefix(32))
    }

    /// Whether the disk cache has a say in this request: it is a GET or HEAD, and the path is not a
    /// playlist (playlists change and are never stored).
    func isCacheable(_ target: OriginTarget, request: HTTPRequest) -> Bool {
        (request.method == .get || request.method == .head) && !PassThroughResponder.isPlaylistPath(target.proxyPath)
    }

    /// A GET or HEAD answered from a complete stored object (or by joining the download that is storing
    /// it) without an origin request of its own; nil when the object is not stored whole.
    func cachedPassThrough(_ target: OriginTarget, request: HTTPRequest) -> RouteResponse? {
        guard isCacheable(target, request: request) else { return nil }
        guard let reader = cache.open(key: key(target, request: request)) else {
            logger.debug("disk cache", [("url", ProxyLogger.redactedURL(target.url)), ("cache", "disk miss")])
            return nil
        }
        cache.record { $0.hits += 1 }
        logger.debug("disk cache", [("url", ProxyLogger.redactedURL(target.url)), ("cache", "disk hit")])
        let response = Self.counting(Self.cachedResponse(reader, request: request), from: .disk, in: cache)
        return RouteResponse(route: .cache, response: response)
    }

    /// A GET or HEAD for a complete stored object, answered on the loop thread: the body goes from the
    /// entry file with sendfile, the range sliced on the file region. Nil when the object is not stored
    /// whole (a fill still running is followed by `cachedPassThrough` instead).
    func storedFile(_ target: OriginTarget, request: HTTPRequest) -> RouteResponse? {
        guard isCacheable(target, request: request),
              let (entry, region) = cache.openFile(key: key(target, request: request)) else { return nil }
        // Room for the stored fields and those added on the way out (range, route, CORS).
        var headers = HTTPHeaders(reservingCapacity: entry.fields.count + 6)
        for field in entry.fields { headers.add(name: field.name, value: field.value) }
        var response = HTTPResponse(status: .ok, headers: headers, body: .file(region))
        ByteRangeRequest.apply(to: &response, request: request)
        let sent = request.method == .head ? 0 : response.body.count
        cache.record { counters in
            counters.hits += 1
            counters.count(bytes: sent, from: .disk)
        }
        logger.debug("disk cache", [("url", ProxyLogger.redactedURL(target.url)), ("cache", "disk hit")])
        return RouteResponse(route: .cache, response: response)
    }

    /// The response with each body byte it sends counted as coming from `source`.
    static func counting(_ response: HTTPResponse, from source: DiskCacheCounters.Source, in diskCache: DiskCache) -> HTTPResponse {
        guard case .stream(let length, let producer) = response.body else { return response }
        var counted = response
        counted.body = .stream(length: length, producer: { writer in
            try await producer(HTTPBodyWriter { piece in
                try await writer.write(piece)
                diskCache.record { $0.count(bytes: piece.count, from: source) }
            })
        })
        return counted
    }

    /// A stored object as a response: whole (200), one range (206) or 416, as RFC 9110 §14 has it;
    /// the body is read from disk piece by piece as the client takes it.
    static func cachedResponse(_ reader: DiskCacheReader, request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders()
        for field in reader.entry.fields { headers.add(name: field.name, value: field.value) }
        guard let (status, lower, count) = ByteRangeRequest.select(request, length: reader.entry.length, headers: &headers) else {
            return HTTPResponse(status: .rangeNotSatisfiable, headers: headers, body: .empty)
        }
        if request.method == .head {
            return HTTPResponse(status: status, headers: headers, body: .stream(length: count, producer: { _ in }))
        }
        let (start, take) = (lower, count)
        return HTTPResponse(status: status, headers: headers, body: .stream(length: take, producer: { writer in
            try await reader.read(from: start, count: take) { try await writer.write($0) }
        }))
    }

    /// Starts storing an origin answer when the cache wants it: a full 200 to a GET without a forwarded
    /// Range, with a declared length that fits the budget, not marked no-store (RFC 9111 §5.2.2.5).
    /// Returns a reader that follows the fill, from which the client is served; nil leaves the stream
    /// to be relayed as usual.
    func startDiskFill(_ stream: OriginStream, target: OriginTarget, request: HTTPRequest, rangeForwarded: Bool, fields: HTTPHeaders) throws -> DiskCacheReader? {
        if let reason = Self.diskFillRefusal(stream, request: request, rangeForwarded: rangeForwarded, fields: fields) {
            logger.debug("disk cache", [("url", ProxyLogger.redactedURL(target.url)), ("cache", "not filled: \(reason)")])
            return nil
        }
        guard let length = stream.bodyLength else { return nil }
        var stored: [(name: String, value: String)] = []
        for name in PassThroughResponder.passedOnFields { for value in fields.values(name) { stored.append((name.text, value)) } }
        let key = self.key(target, request: request)
        guard let fill = cache.fills.begin(DiskCacheEntry(key: key, length: length, fields: stored)) else {
            logger.debug("disk cache", [("url", ProxyLogger.redactedURL(target.url)), ("cache", "not filled: over budget or already filling")])
            return nil
        }
        logger.debug("disk cache", [("url", ProxyLogger.redactedURL(target.url)), ("cache", "disk fill"), ("bytes", String(length))])
        // Opened before the copy starts, so a small object cannot be renamed away first.
        let reader = cache.open(key: key)
        fill.start(stream)
        guard let reader else { throw ProxyError.badGateway("disk cache file could not be opened") }
        return reader
    }

    /// Why an origin answer is not stored whole on disk, or nil when it may be.
    static func diskFillRefusal(_ stream: OriginStream, request: HTTPRequest, rangeForwarded: Bool, fields: HTTPHeaders) -> String? {
        if request.method != .get { return "not a GET" }
        if rangeForwarded { return "range forwarded" }
        if stream.status != 200 { return "origin status \(stream.status)" }
        if stream.bodyLength == nil { return "no declared length" }
        if fields.contains(.contentRange) { return "origin sent Content-Range" }
        if fields.values(.cacheControl).contains(where: { $0.lowercased().contains("no-store") }) { return "no-store" }
        return nil
    }
}
