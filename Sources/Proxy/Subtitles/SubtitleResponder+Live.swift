import HLS
import HTTPServer

/// Sliding-window (live) videos: the subtitle playlist slides with the video's, its segments numbered
/// by the video's media sequence numbers (RFC 8216 §6.2.1, §6.3.2), each number naming one cue window
/// of the live clock (`LiveWindowClock`) for as long as the proxy remembers it. A configured `mpegts`
/// or a source's own X-TIMESTAMP-MAP is not used there: the parts' anchors map every segment.
extension SubtitleResponder {
    /// The URI of segment `index` of the subtitle playlist: its media sequence number in a live window
    /// (so a reload that drops the head still names the same files), else its index.
    func segmentURI(_ timeline: VideoTimeline?) -> (Int) -> String {
        guard let sequence = liveSequence(of: timeline) else { return { "\($0).vtt" } }
        return { "\(sequence + UInt64($0)).vtt" }
    }

    /// The window's first media sequence number when the subtitle playlist mirrors it: a live window with
    /// a clock, whose numbers fit a segment URL (`SubtitleURL` reads them as Int).
    func liveSequence(of timeline: VideoTimeline?) -> UInt64? {
        guard let timeline, timeline.liveClock != nil else { return nil }
        let sequence = timeline.mediaSequence ?? 0
        guard UInt64(timeline.durations.count) <= UInt64(Int.max) - min(sequence, UInt64(Int.max)) else { return nil }
        return sequence
    }

    /// Live segment `sequence`: the cues shown during that segment's span on the live clock, with the
    /// X-TIMESTAMP-MAP of its part (MPEGTS = the PTS of the part's anchor segment, LOCAL = the anchor's
    /// start on the clock; RFC 8216 §3.5), the same on every reload. `transient` when a failed fetch
    /// withheld the PTS.
    func liveSegmentFile(
        _ sequence: Int, clock: LiveWindowClock, cues: SubtitleTrackCues, master: OriginTarget, request: HTTPRequest
    ) async throws -> (file: TaggedBody, transient: Bool) {
        guard sequence >= 0, let span = clock.span(of: UInt64(sequence)) else {
            throw ProxyError.notFound("no subtitle segment \(sequence)")
        }
        var map = SubtitleTrackCues.SegmentMap.none
        var transient = false
        if let anchor = clock.anchor(of: UInt64(sequence)) {
            let key = MemoryCacheKey.make(master.url, target: master, request: request, qualifiers: ["live", anchor.uri])
            let start = try await timelines.segmentStart(
                master, segmentURL: anchor.uri, initURL: anchor.mapURI, key: key, part: 0, request: request)
            logger.debug("timestamp map", [
                ("sequence", String(sequence)), ("anchor", String(anchor.sequence)),
                ("mpegts", start.ticks.map { String($0) } ?? "none"), ("source", start.source),
            ])
            if let ticks = start.ticks { map = .part(TimestampMap(mpegts: ticks, local: anchor.start)) }
            transient = start.ticks == nil && start.transient
        }
        guard let file = cues.windowFile(sequence, start: span.start, end: span.end, map: map) else {
            throw ProxyError.notFound("no subtitle segment \(sequence)")
        }
        return (file, transient)
    }
}
