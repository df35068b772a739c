import HLS
import HTTPServer
import HTTPWire

extension ProxyHandler {
    static let playlistContentType = "application/vnd.apple.mpegurl"

    /// A path a subtitle set claims: fetch it, and if it really is a master, add the set's tracks.
    /// A media playlist or any other body is passed on unchanged (SPEC "Classification").
    func serveMaster(_ target: OriginTarget, set: SubtitleSet, request: HTTPRequest) async throws -> RouteResponse {
        if let cached = cachedMaster(target, set: set, request: request) { return cached }
        let key = rewrittenKey(target, set: set, request: request)
        let (fetched, originMilliseconds) = try await cachedPlaylist(target.url, kind: "master", for: target, request: request)
        guard (200..<300).contains(fetched.status) else { throw Self.originFailure(fetched.status, what: "master playlist") }
        let body = MasterRelocation(router: router, mounts: config.mounts)
            .relocate(fetched.body, requestedURL: target.url, finalURL: fetched.finalURL)
        do {
            let rewritten = TaggedBody(try set.rewrite(body, masterTarget: target.proxyTarget))
            logger.debug("classified body", [("path", target.proxyPath), ("set", set.name), ("body", "master"), ("action", "subtitles added")])
            caches.rewritten.store(rewritten, for: key, cost: rewritten.bytes.count + 128, ttl: ConfigSeconds.duration(config.cache.masterTTL))
            return RouteResponse(route: .master, response: playlistResponse(rewritten, cacheControl: masterCacheControl), originMilliseconds: originMilliseconds)
        } catch {
            // Not a master (a variant's media playlist, or not a playlist at all): hand it on untouched.
            var headers = HTTPHeaders()
            headers["Content-Type"] = fetched.contentType ?? Self.contentType(forPath: target.proxyPath)
            headers["Cache-Control"] = masterCacheControl
            let route: ProxyRoute = (try? Playlist.parse(fetched.body)) == nil ? .passthrough : .playlist
            logger.debug("classified body", [
                ("path", target.proxyPath), ("set", set.name),
                ("body", route == .playlist ? "media playlist" : "not a playlist"), ("action", "passed through"),
            ])
            return RouteResponse(route: route, response: HTTPResponse(status: .ok, headers: headers, bytes: body), originMilliseconds: originMilliseconds)
        }
    }

    /// Debug: which subtitle set's `masters` pattern claimed the path.
    func logMasterClaim(_ target: OriginTarget, set: SubtitleSet) {
        let pattern = set.masters.first { $0.matches(target.proxyPath) }?.pattern ?? ""
        logger.debug("classified path", [("path", target.proxyPath), ("decision", "master candidate"), ("set", set.name), ("pattern", pattern)])
    }

    /// Debug: a path no subtitle set claims, and where it goes instead.
    func logNotClaimed(_ target: OriginTarget) {
        let decision = target.filePath != nil ? "file" : (target.segmentMode == .redirect ? "redirect" : "pass-through")
        logger.debug("classified path", [("path", target.proxyPath), ("decision", decision), ("reason", "no subtitle set's masters pattern matches")])
    }

    /// The rewritten master from the cache, if it is there and live.
    func cachedMaster(_ target: OriginTarget, set: SubtitleSet, request: HTTPRequest, countingMiss: Bool = true) -> RouteResponse? {
        let key = rewrittenKey(target, set: set, request: request)
        guard let cached = caches.rewritten.value(for: key, countingMiss: countingMiss) else { return nil }
        return RouteResponse(route: .master, response: playlistResponse(cached, cacheControl: masterCacheControl))
    }

    /// The rewritten master's URIs are written in the form the player used (`proxyTarget`), so two
    /// forms of the same origin URL never share an entry.
    private func rewrittenKey(_ target: OriginTarget, set: SubtitleSet, request: HTTPRequest) -> String {
        memoryCacheKey(target.url, target: target, request: request, qualifiers: [set.name, target.proxyTarget])
    }

    /// A synthesized playlist (rewritten master or subtitle playlist) with its strong ETag.
    func playlistResponse(_ body: TaggedBody, cacheControl: String) -> HTTPResponse {
        Self.taggedResponse(body, contentType: Self.playlistContentType, cacheControl: cacheControl)
    }

    /// A 200 for a body the proxy made: its type, Cache-Control and ETag (which `finish` answers
    /// If-None-Match and If-Range against).
    static func taggedResponse(_ body: TaggedBody, contentType: String, cacheControl: String) -> HTTPResponse {
        var headers = HTTPHeaders(reservingCapacity: fieldCapacity)
        headers.add("Content-Type", contentType)
        headers.add("Cache-Control", cacheControl)
        headers.add("ETag", body.etag)
        return HTTPResponse(status: .ok, headers: headers, bytes: body.bytes)
    }

    /// Content-Type by file extension, for file mounts and pass-through without an origin type.
    static func contentType(forPath path: String) -> String {
        switch URLReference.pathExtension(of: path) {
        case "m3u8", "m3u": return playlistContentType
        case "ts": return "video/mp2t"
        case "m4s", "mp4", "m4v", "cmfv": return "video/mp4"
        case "m4a", "cmfa": return "audio/mp4"
        case "aac": return "audio/aac"
        case "vtt", "webvtt": return "text/vtt; charset=utf-8"
        case "srt": return "application/x-subrip"
        case "json": return "application/json"
        case "key": return "application/octet-stream"
        case "html", "htm": return "text/html; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
