import HLS
import HTTPServer
import HTTPWire

/// Masters a subtitle set claims: fetched, rewritten with the set's tracks, and kept rewritten in the
/// memory cache (SPEC "Classification and actions", "Master rewrite").
struct MasterResponder: Sendable {
    let config: ProxyConfig
    let router: RequestRouter
    let fetcher: OriginFetcher
    /// Decides which tracks each master request lists.
    let resolver: TrackResolver
    /// Rewritten masters as their 200s (body, ETag and fields made once, on the rewrite), ready to send.
    let rewritten: MemoryCache<HTTPResponse>
    let logger: ProxyLogger
    /// `Cache-Control` of rewritten masters, made once.
    let cacheControl: String

    /// What a kept master costs beyond its body: its key and entry (128), and its response's field
    /// list, which has room for `HTTPResponse.fieldCapacity` fields (about 640 bytes).
    static let keptResponseCost = 128 + 640

    /// Media playlists wrapped in a master, for sets with `wrap_media_playlists`.
    var wrapper: MediaPlaylistWrapper { MediaPlaylistWrapper(config: config, router: router, fetcher: fetcher, logger: logger) }

    /// A path a subtitle set claims: fetch it, and if it really is a master, add the set's tracks as
    /// resolved for this request, each pointing at its synthesized playlist under the master the player asked for.
    func serve(_ target: OriginTarget, set: SubtitleSet, request: HTTPRequest) async throws -> RouteResponse {
        // The variant of a wrapped master is served before any track is resolved: it lists none.
        if let media = try wrapper.variantTarget(of: target) {
            return try await wrapper.serveMedia(media, cacheControl: cacheControl, request: request)
        }
        let qualifier = Self.cacheQualifier(set: set, target: target)
        // Spares resolving tracks on a hit; a miss is counted once, by the check in the serve below.
        if let cached = cachedMaster(target, cacheQualifier: qualifier, request: request, countingMiss: false) { return cached }
        let tracks = try await resolver.resolve(set, master: target, request: request)
        return try await serve(
            target, set: set, tracks: tracks,
            subtitleURI: { SubtitleURL(setName: set.name, trackID: $0.id, masterTarget: target.proxyTarget, resource: .playlist).path },
            cacheQualifier: qualifier, request: request)
    }

    /// A claimed path with its tracks already resolved: fetched, and if it really is a master, rewritten
    /// with `tracks`, each rendition's URI given by `subtitleURI`; kept under `cacheQualifier`, which
    /// must name everything that decided the tracks and URIs.
    /// A media playlist is wrapped in a master when the set says so (`wrap_media_playlists`); it and
    /// any other body are otherwise passed on unchanged (SPEC "Classification").
    /// `answeredElsewhere`: the player fetched it at another URL (a signed one), so relative URIs are made
    /// path-absolute under the master's own proxy path (`MasterRelocation.anchoringRelativeURIs`).
    func serve(
        _ target: OriginTarget, set: SubtitleSet, tracks: ResolvedTracks, subtitleURI: (TrackConfig) -> String, cacheQualifier: String,
        request: HTTPRequest, answeredElsewhere: Bool = false
    ) async throws -> RouteResponse {
        let anchored: ([UInt8]) -> [UInt8] = { answeredElsewhere ? MasterRelocation.anchoringRelativeURIs($0, at: target.proxyTarget) : $0 }
        // The variant of a wrapped master: the media playlist itself, never wrapped again.
        if let media = try wrapper.variantTarget(of: target) {
            return try await wrapper.serveMedia(media, cacheControl: cacheControl, request: request)
        }
        if let cached = cachedMaster(target, cacheQualifier: cacheQualifier, request: request) { return cached }
        let key = rewrittenKey(target, cacheQualifier: cacheQualifier, request: request)
        let (fetched, originMilliseconds) = try await fetcher.cachedPlaylist(target.url, kind: "master", for: target, request: request)
        guard (200..<300).contains(fetched.status) else { throw OriginFetcher.originFailure(fetched.status, what: "master playlist") }
        let body = MasterRelocation(router: router, mounts: config.mounts)
            .relocate(fetched.body, requestedURL: target.url, finalURL: fetched.finalURL, mount: target.mount)
        do {
            let (bytes, closedCaptions) = try set.rewriteReporting(body, tracks: tracks.tracks, subtitleURI: subtitleURI)
            // Once per rewrite: the result is cached for the master TTL.
            if closedCaptions == .mixed {
                logger.log(.warn, "closed_captions left unchanged", [
                    ("path", target.proxyPath), ("set", set.name),
                    ("reason", "some variants name a CLOSED-CAPTIONS group, so NONE on the others would disagree (RFC 8216 4.3.4.2)"),
                ])
            } else if closedCaptions == .unreadableVariant {
                logger.log(.warn, "closed_captions left unchanged", [
                    ("path", target.proxyPath), ("set", set.name),
                    ("reason", "a variant's attribute list cannot be edited, so NONE on the others only would disagree (RFC 8216 4.3.4.2)"),
                ])
            }
            let rewritten = TaggedBody(anchored(bytes))
            logger.debug("classified body", [("path", target.proxyPath), ("set", set.name), ("body", "master"), ("action", "subtitles added")])
            let response = HTTPResponse.makePlaylist(rewritten, cacheControl: cacheControl)
            self.rewritten.store(response, for: key, cost: rewritten.bytes.count + Self.keptResponseCost, ttl: ConfigSeconds.duration(config.cache.masterTTL))
            return RouteResponse(route: .master, response: response, originMilliseconds: originMilliseconds)
        } catch {
            // Not a master: a media playlist the set wraps, or (a variant's media playlist, or not a
            // playlist at all) handed on untouched.
            let playlist = try? Playlist.parse(fetched.body)
            var unwrappedReason: String?
            if set.wrapMediaPlaylists, let playlist {
                do {
                    let media = try MediaPlaylist.parse(fetched.body)
                    let wrapped = TaggedBody(anchored(try await wrapper.wrap(playlist, media: media, fetchedFrom: fetched.finalURL, target: target, set: set, tracks: tracks, subtitleURI: subtitleURI, request: request)))
                    logger.debug("classified body", [("path", target.proxyPath), ("set", set.name), ("body", "media playlist"), ("action", "wrapped in a master")])
                    let response = HTTPResponse.makePlaylist(wrapped, cacheControl: cacheControl)
                    self.rewritten.store(response, for: key, cost: wrapped.bytes.count + Self.keptResponseCost, ttl: ConfigSeconds.duration(config.cache.masterTTL))
                    return RouteResponse(route: .master, response: response, originMilliseconds: originMilliseconds)
                } catch let problem as PlaylistError {
                    // A playlist that is neither master nor readable media playlist: never guessed at.
                    unwrappedReason = "not wrapped: \(problem)"
                }
            }
            var headers = HTTPHeaders()
            headers[.contentType] = fetched.contentType ?? MediaType.forPath(target.proxyPath)
            headers[.cacheControl] = cacheControl
            let route: ProxyRoute = playlist == nil ? .passthrough : .playlist
            logger.debug("classified body", [
                ("path", target.proxyPath), ("set", set.name),
                ("body", route == .playlist ? "media playlist" : "not a playlist"), ("action", "passed through"),
            ] + (unwrappedReason.map { [("reason", $0)] } ?? []))
            return RouteResponse(route: route, response: HTTPResponse(status: .ok, headers: headers, bytes: anchored(body)), originMilliseconds: originMilliseconds)
        }
    }

    /// Debug: which subtitle set's `masters` pattern claimed the path.
    func logClaim(_ target: OriginTarget, set: SubtitleSet) {
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
        cachedMaster(target, cacheQualifier: Self.cacheQualifier(set: set, target: target), request: request, countingMiss: countingMiss)
    }

    /// The rewritten master kept under `cacheQualifier`, if it is there and live.
    func cachedMaster(_ target: OriginTarget, cacheQualifier: String, request: HTTPRequest, countingMiss: Bool = true) -> RouteResponse? {
        let key = rewrittenKey(target, cacheQualifier: cacheQualifier, request: request)
        guard let cached = rewritten.value(for: key, countingMiss: countingMiss) else { return nil }
        // Its fields are shared with the cache: `ProxyHandler.finish` copies them once, adding the route's
        // (four adds per request before, about 1,600 instructions).
        return RouteResponse(route: .master, response: cached)
    }

    /// What a configured set's rewritten master is kept under: the set and the proxy target the player
    /// used. Its URIs are written in that form, so two forms of the same origin URL never share an entry,
    /// and the player's choices (`hls_proxy_subtitles`, in the target's query) never share one either.
    static func cacheQualifier(set: SubtitleSet, target: OriginTarget) -> String {
        // `count:name` then the target: written into one buffer, as interpolation grew it piece by piece.
        var qualifier = KeyBytes(reserving: set.name.utf8.count + target.proxyTarget.utf8.count + 8)
        qualifier.add(set.name)
        qualifier.append(contentsOf: target.proxyTarget)
        return qualifier.string
    }

    private func rewrittenKey(_ target: OriginTarget, cacheQualifier: String, request: HTTPRequest) -> String {
        MemoryCacheKey.make(target: target, request: request, qualifiers: [cacheQualifier])
    }
}
