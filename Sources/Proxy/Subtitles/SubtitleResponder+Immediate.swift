import HLS
import HTTPServer

/// Subtitle playlists and files answered on the server's loop thread, without a task hop, when
/// everything they are made from is already in memory: the set's tracks (no `tracks_url`, no optional
/// track to probe), the video timeline and the cues (and a later part's first PTS). It makes what
/// `serve` would make from the same inputs, so the bytes and headers are the same; the first request,
/// or one whose inputs have left the caches, still goes off the loop to fetch them.
extension SubtitleResponder {
    /// Documents with more cues than this are left to `serve`: the first cut of a window filters every
    /// cue, and a whole single-mode file serializes them all, which must not stall the loop. A 2-hour
    /// film has about 1,500.
    static let immediateCueLimit = 10_000

    /// The response `serve(_:request:)` would give, made from memory only; nil when an input is not
    /// cached, or when the request is one `serve` would refuse or answer from a live window (it then
    /// answers it, with its error). Never blocks: each cache's lock is held for one lookup, never across I/O.
    /// An answer made before from inputs the caches still hold is given again (`SubtitleAnswers`).
    func immediate(_ url: SubtitleURL, request: HTTPRequest) -> RouteResponse? {
        if let kept = answers.answer(for: url, timelines: timelines.timelines, documents: cues.documents) {
            immediateAnswers.add()
            return kept
        }
        // A URL `serve` refuses (no such set, no master) is left to it, so the error is its own.
        guard let set = config.subtitleSets.first(where: { $0.name == url.setName }),
              let master = try? masterTarget(of: url),
              let track = resolver.resolvedWithoutIO(set, master: master)?.track(id: url.trackID),
              let timeline = timelines.cachedTimeline(master, request: request)
        else { return nil }
        let made: Made?
        switch url.resource {
        case .playlist: made = immediatePlaylist(set: set, track: track, master: master, timeline: timeline, request: request)
        case .segment(let index): made = immediateSegment(index, set: set, track: track, master: master, timeline: timeline, request: request)
        }
        guard let made else { return nil }
        immediateAnswers.add()
        if case .playlist = url.resource, made.cues == nil {
            startLoadingCues(set: set, track: track, master: master, request: request)
        }
        // Kept when no request header shapes its keys, and for an ended video that does not slide.
        if made.keepable, let timelineKey = master.requestIndependentKey, timeline.ended, liveSequence(of: timeline) == nil {
            let readCues = made.cues.map { (key: SubtitleCueLoader.documentKey(set: set, track: track, master: master, request: request), object: $0) }
            answers.keep(
                made.answer, for: url, inputs: SubtitleAnswers.Inputs(timelineKey: timelineKey, timeline: timeline.playlists, cues: readCues),
                timelines: timelines.timelines, documents: cues.documents)
        }
        return made.answer
    }

    /// An answer made from memory, the cues it read (if any) and whether it may be kept.
    private struct Made {
        var answer: RouteResponse
        var cues: SubtitleTrackCues?
        var keepable = true
    }

    /// As `serve`'s playlist case, with a cached timeline (so never a failed one).
    private func immediatePlaylist(
        set: SubtitleSet, track: TrackConfig, master: OriginTarget, timeline: VideoTimeline, request: HTTPRequest
    ) -> Made? {
        let body: TaggedBody
        var fromFallback = false
        var readCues: SubtitleTrackCues?
        switch effectiveMode(track, set: set, timeline: timeline) {
        case .single:
            var duration = timeline.duration
            if duration <= 0 {
                guard let cues = cues.cachedCues(set: set, track: track, master: master, request: request) else { return nil }
                duration = Double(cues.document.largestEnd) / 1000
                fromFallback = cues.isFallback
                readCues = cues
            }
            body = singlePlaylist(duration: duration, timeline: timeline)
        case .segmented:
            guard let windows = immediateWindows(for: track, set: set, master: master, timeline: timeline, request: request) else {
                return nil
            }
            fromFallback = windows.fromFallback
            readCues = windows.cues
            // A playlist `serve` refuses is left to it, so the error is its own.
            guard let made = try? segmentedPlaylist(durations: windows.durations, timeline: timeline, track: track, set: set) else { return nil }
            body = made
        }
        let control = timeline.ended == false ? growingCacheControl(fallback: fromFallback) : cacheControl(fallback: fromFallback)
        return Made(answer: RouteResponse(route: .subtitlePlaylist, response: .makePlaylist(body, cacheControl: control)), cues: readCues)
    }

    /// As `serve`'s segment case, with cached cues and timeline; nil for a live window's segment (served
    /// by `liveSegmentFile`) and for a segment that does not exist (`serve` gives the 404).
    private func immediateSegment(
        _ index: Int, set: SubtitleSet, track: TrackConfig, master: OriginTarget, timeline: VideoTimeline, request: HTTPRequest
    ) -> Made? {
        guard let cues = cues.cachedCues(set: set, track: track, master: master, request: request),
              cues.document.cues.count <= Self.immediateCueLimit
        else { return nil }
        let file: TaggedBody
        var keepable = true
        switch effectiveMode(track, set: set, timeline: timeline) {
        case .single:
            guard index == 0 else { return nil }
            file = cues.wholeFile()
        case .segmented:
            guard liveSequence(of: timeline) == nil,
                  let windows = immediateWindows(for: track, set: set, master: master, timeline: timeline, request: request),
                  windows.durations.indices.contains(index),
                  let map = cachedSegmentMap(index, master: master, timeline: timeline, request: request),
                  let segment = cues.segmentFile(index, boundaries: boundaries(windows.durations, timeline: timeline), map: map)
            else { return nil }
            file = segment
            // A later part's map came from the PTS cache, which the kept answer would not ask again.
            keepable = map == .document
        }
        // Cached timelines and part PTS are never the provisional kind: only the cues can be.
        let response = HTTPResponse.makeTagged(file, contentType: MediaType.webVTT, cacheControl: cacheControl(fallback: cues.isFallback))
        return Made(answer: RouteResponse(route: .subtitle, response: response), cues: cues, keepable: keepable)
    }

    /// As `windows`, from memory: nil when the fixed windows need cues that are not cached.
    /// The cues, when it read them, come with the windows.
    private func immediateWindows(
        for track: TrackConfig, set: SubtitleSet, master: OriginTarget, timeline: VideoTimeline, request: HTTPRequest
    ) -> (durations: [Double], fromFallback: Bool, cues: SubtitleTrackCues?)? {
        if !timeline.durations.isEmpty { return (timeline.durations, false, nil) }
        if !timeline.ended { return ([], false, nil) }
        guard let cues = cues.cachedCues(set: set, track: track, master: master, request: request) else { return nil }
        let durations = SubtitlePlaylistBuilder.fixedWindows(totalDuration: Double(cues.document.largestEnd) / 1000, segmentDuration: track.segmentDuration)
        return (durations, cues.isFallback, cues)
    }

    /// As `segmentMap`, from memory: the first part's segments carry the document's map; a later part's
    /// need that part's first PTS cached (nil otherwise: `serve` reads it). A part without a first
    /// segment URL maps to none, as there.
    private func cachedSegmentMap(_ index: Int, master: OriginTarget, timeline: VideoTimeline, request: HTTPRequest) -> SubtitleTrackCues.SegmentMap? {
        let part = timeline.part(containing: index)
        guard part > 0, timeline.parts.indices.contains(part) else { return .document }
        guard let ticks = timelines.cachedPartStart(master, part: part, timeline: timeline, request: request) else { return nil }
        guard let ticks else { return SubtitleTrackCues.SegmentMap.none }
        let firstSegment = timeline.parts[part].firstSegment
        let starts = SubtitlePlaylistBuilder.boundaries(durations: Array(timeline.durations.prefix(firstSegment + 1)))
        return .part(TimestampMap(mpegts: ticks, local: starts.last ?? 0))
    }
}
