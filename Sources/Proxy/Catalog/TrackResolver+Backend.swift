import HTTPServer

extension TrackResolver {
    /// The tracks the set's `tracks_url` gives for this master, each marked `.backend` (held to the
    /// embedded rules when fetched); nil when the set has no `tracks_url` or the backend failed, so the
    /// set's static tracks are listed instead (README "Tracks from the app's backend": failure never
    /// breaks playback). TrackBackend logs and counts its own failures, once per fetch.
    /// The backend is asked about an asset only once its origin master answered 2xx: a request for a
    /// missing asset gets the origin's own error and costs the backend nothing. `masterInHand` skips that
    /// check when the caller already holds the master's bytes (the offline `rewrite` command).
    func backendTracks(
        _ set: SubtitleSet, master: OriginTarget, request: HTTPRequest, masterInHand: Bool = false
    ) async throws -> [TrackConfig]? {
        guard let template = set.tracksURL else { return nil }
        // Config validation makes every pattern of the set define the URL's captures; a URL that still
        // misses one is never sent half-filled.
        guard let url = Self.substituteURL(template, captures(of: set, master: master)) else {
            logger.log(.warn, "tracks backend not asked: its URL's captures are not in the request path", [
                ("path", master.proxyPath), ("set", set.name),
            ])
            return nil
        }
        if !masterInHand, backend.wouldAsk(url: url, set: set) {
            try await requireOriginMaster(master, set: set, request: request, before: "tracks backend not asked")
        }
        switch await backend.tracks(url: url, set: set, masterURL: master.url) {
        case .tracks(let tracks, _):
            return tracks.map { track in
                var track = track
                track.provenance = .backend
                return track
            }
        case .failed:
            return nil
        }
    }

    /// Throws the origin's own error unless its master answers 2xx. Through the playlist cache
    /// (coalesced, kept `cache.master_ttl_seconds`), so the master's own fetch that follows is a memory hit.
    func requireOriginMaster(_ master: OriginTarget, set: SubtitleSet, request: HTTPRequest, before what: String) async throws {
        let (fetched, _) = try await fetcher.cachedPlaylist(master.url, kind: "master", for: master, request: request)
        guard (200..<300).contains(fetched.status) else {
            logger.debug("\(what): the origin master is not there", [
                ("path", master.proxyPath), ("set", set.name), ("status", String(fetched.status)),
            ])
            throw OriginFetcher.originFailure(fetched.status, what: "master playlist")
        }
    }
}
