import HLS
import HTTPServer

/// Synthesized subtitle playlists and WebVTT files (SPEC "Subtitle playlists and files").
struct SubtitleResponder: Sendable {
    let config: ProxyConfig
    let router: RequestRouter
    /// Decides which tracks the master lists, so a subtitle URL's track is found among them.
    let resolver: TrackResolver
    let cues: SubtitleCueLoader
    let timelines: VideoTimelineReader
    /// `Cache-Control` of synthesized subtitle responses, made once.
    let cacheControl: String
    /// Tracks already logged as served segmented although configured `single`, and the like.
    let notices = OnceNotices()
    /// Requests answered from memory on the loop thread (`immediate`).
    let immediateAnswers = ImmediateAnswerCount()
    /// Those answers, kept with what they were made from.
    let answers = SubtitleAnswers()

    /// Serves a synthesized subtitle playlist or WebVTT file of a configured set. Its track is looked
    /// up among the tracks resolved for its master, never straight from the config, so a track the
    /// master would not list (an absent optional one, say) is not served either.
    func serve(_ url: SubtitleURL, request: HTTPRequest) async throws -> RouteResponse {
        let missing = ProxyError.notFound("no subtitle track \(Sanitized.text(url.setName))/\(Sanitized.text(url.trackID))")
        guard let set = config.subtitleSets.first(where: { $0.name == url.setName }) else { throw missing }
        let master = try masterTarget(of: url)
        guard let track = try await resolver.resolve(set, master: master, request: request).track(id: url.trackID) else { throw missing }
        return try await serve(url.resource, set: set, track: track, master: master, request: request)
    }

    /// Serves `resource` of a track already resolved for `master`.
    func serve(
        _ resource: SubtitleURL.Resource, set: SubtitleSet, track: TrackConfig, master: OriginTarget, request: HTTPRequest
    ) async throws -> RouteResponse {
        let (timeline, timelineFailed) = try await timelines.videoTimeline(master, request: request)
        if case .playlist = resource { startLoadingCues(set: set, track: track, master: master, request: request) }
        switch resource {
        case .playlist:
            let body: TaggedBody
            // Made without the timeline a failed fetch withheld: provisional, like the empty fallback.
            var fromFallback = timelineFailed
            switch effectiveMode(track, set: set, timeline: timeline) {
            case .single:
                var duration = timeline?.duration ?? 0
                if duration <= 0 {
                    let cues = try await cues.cues(set: set, track: track, master: master, request: request)
                    duration = Double(cues.document.largestEnd) / 1000
                    fromFallback = fromFallback || cues.isFallback
                }
                body = singlePlaylist(duration: duration, timeline: timeline)
            case .segmented:
                let (durations, fallback) = try await windows(for: track, set: set, master: master, timeline: timeline, request: request)
                fromFallback = fromFallback || fallback
                body = try segmentedPlaylist(durations: durations, timeline: timeline, track: track, set: set)
            }
            let control = timeline?.ended == false ? growingCacheControl(fallback: fromFallback) : cacheControl(fallback: fromFallback)
            return RouteResponse(route: .subtitlePlaylist, response: .makePlaylist(body, cacheControl: control))
        case .segment(let index):
            // Held to the end of the request, so requests arriving meanwhile share this one document.
            let cues = try await cues.cues(set: set, track: track, master: master, request: request)
            let file: TaggedBody
            let mode = effectiveMode(track, set: set, timeline: timeline)
            var partUnmappedForNow = false
            switch mode {
            case .single:
                guard index == 0 else { throw ProxyError.notFound("a single-file subtitle track has only segment 0") }
                file = cues.wholeFile()
            case .segmented:
                if let timeline, let first = liveSequence(of: timeline) {
                    (file, partUnmappedForNow) = try await liveSegmentFile(
                        index, timeline: timeline, first: first, cues: cues, set: set, track: track, master: master, request: request)
                    break
                }
                let (durations, _) = try await windows(for: track, set: set, master: master, timeline: timeline, request: request)
                guard durations.indices.contains(index) else { throw ProxyError.notFound("no subtitle segment \(index)") }
                let (map, transient) = try await segmentMap(index, cues: cues, master: master, timeline: timeline, request: request)
                partUnmappedForNow = transient
                // Only the window asked for is cut out: the whole split would copy every cue per request.
                guard let segment = cues.segmentFile(index, boundaries: boundaries(durations, timeline: timeline), map: map) else {
                    throw ProxyError.notFound("no subtitle segment \(index)")
                }
                file = segment
            }
            // A segment cut from fixed windows because the timeline's fetch failed is provisional too.
            let provisional = cues.isFallback || partUnmappedForNow || (mode == .segmented && timelineFailed)
            let response = HTTPResponse.makeTagged(file, contentType: MediaType.webVTT, cacheControl: cacheControl(fallback: provisional))
            return RouteResponse(route: .subtitle, response: response)
        }
    }

    /// A player that asks for a subtitle playlist asks for its files next, and the first of them waits
    /// for the track's cues (the source's fetch and parse, then the video's first PTS). Their load starts
    /// once the playlist has what it needs (its own origin fetches never queue behind the load's), runs
    /// beside the playlist's answer, and the file's request joins it (`SubtitleTrackLoads`) or finds the
    /// cues cached. Nothing starts when they are cached already, nor for a HEAD (a probe, not a player).
    /// Cues the cache will not keep (a TTL or budget of 0, a document over the budget) are held
    /// `uncachedHold` for the file's request to find, then dropped. A source that cannot be used gives
    /// the empty fallback here as it would there; a shed load leaves nothing behind, and the file's
    /// request starts its own. The load's cache lookup counts no miss: the file's request counts its own.
    /// Never inlined: the Task's copy of the cue loader would otherwise be made at the top of every
    /// caller, on the path that answers kept subtitles too (about 3,000 instructions a request).
    @inline(never)
    func startLoadingCues(set: SubtitleSet, track: TrackConfig, master: OriginTarget, request: HTTPRequest) {
        guard request.method != .head, cues.cachedCues(set: set, track: track, master: master, request: request) == nil else { return }
        let cues = self.cues
        Task {
            guard let loaded = try? await cues.cues(set: set, track: track, master: master, request: request, countingMiss: false),
                  cues.cachedCues(set: set, track: track, master: master, request: request) == nil
            else { return }
            // Held by this task alone: the loads table keeps only a weak reference once a load is done.
            try? await Task.sleep(for: Self.uncachedHold)
            withExtendedLifetime(loaded) {}
        }
    }

    /// How long prefetched cues the cache refused stay held for the playlist's first file.
    static let uncachedHold = Duration.seconds(5)

    /// `max-age` for a synthesized subtitle response: the subtitle TTL, or for one made from the empty
    /// fallback no more than `cache.fallback_ttl_seconds`, so neither the proxy nor a CDN keeps a blank
    /// track long after its source is back.
    func cacheControl(fallback: Bool) -> String {
        guard fallback else { return cacheControl }
        return "max-age=\(ConfigSeconds.maxAge(min(config.cache.fallbackTTL, config.cache.subtitleTTL)))"
    }

    /// The master a subtitle URL belongs to, routed (once per target, `MasterTargetRoutes`) so allowlists
    /// and confinement apply as for the player.
    func masterTarget(of url: SubtitleURL) throws(ProxyError) -> OriginTarget {
        try router.routeMaster(url.masterTarget)
    }

    /// Segment durations for a segmented track: the video's own when known (none while a growing
    /// video lists none yet), else fixed windows over the video's or the subtitles' duration; and whether they came from the empty fallback track.
    func windows(
        for track: TrackConfig, set: SubtitleSet, master: OriginTarget, timeline: VideoTimeline?, request: HTTPRequest
    ) async throws -> (durations: [Double], fromFallback: Bool) {
        if let timeline, !timeline.durations.isEmpty { return (timeline.durations, false) }
        // RFC 8216 §6.2.1: an EVENT or live playlist with no segments yet gets none (never invented
        // windows that the first real segment would then replace).
        if let timeline, !timeline.ended { return ([], false) }
        let cues = try await cues.cues(set: set, track: track, master: master, request: request)
        let durations = SubtitlePlaylistBuilder.fixedWindows(totalDuration: Double(cues.document.largestEnd) / 1000, segmentDuration: track.segmentDuration)
        return (durations, cues.isFallback)
    }
}
