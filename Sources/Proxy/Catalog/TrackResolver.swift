import HTTPServer

/// Decides, per master request, which tracks a subtitle set lists: the one place a request's tracks
/// come from, for the master and for the subtitle URLs under it alike.
struct TrackResolver: Sendable {
    let config: ProxyConfig
    let logger: ProxyLogger

    /// The set's tracks for one master request.
    func resolve(_ set: SubtitleSet, master: OriginTarget, request: HTTPRequest) async throws -> ResolvedTracks {
        // Dynamic tracks: a list of tracks from elsewhere (a backend) replaces `set.tracks` here,
        // before substitution and probing, so it goes through the same steps as configured ones.
        let tracks = set.tracks
        return ResolvedTracks(tracks: tracks)
    }
}
