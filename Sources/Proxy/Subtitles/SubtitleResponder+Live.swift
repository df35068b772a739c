import HLS
import HTTPServer

/// Sliding-window (live) videos: the subtitle playlist slides with the video's, its segments numbered
/// by the video's media sequence numbers (RFC 8216 §6.2.1, §6.3.2). Live segment N is a pure function of
/// what any instance reads from the origin when asked (SPEC: synthesized subtitle URLs are stateless):
/// N, the target duration T, the first PTS P_N of video segment N read from that segment, and the
/// track's epoch when it has one (docs/requests.md "Live windows"):
/// - no epoch: segment N holds the cues of [N×T, N×T + min(d_N, T)), d_N its EXTINF, and maps
///   MPEGTS=P_N to LOCAL=N×T;
/// - an epoch E (`mpegts` configured, or the source's own X-TIMESTAMP-MAP MPEGTS=E, LOCAL=L): cue time
///   t_N = L + (P_N − E)/90000 (33-bit PTS wrap taken to the nearest side), segment N holds the cues of
///   [t_N, t_N + d_N), mapping MPEGTS=P_N to LOCAL=t_N (a t_N before cue time 0 is written as
///   MPEGTS=P_N+k, LOCAL=0, k its ticks: `LiveSegmentTiming.map`).
extension SubtitleResponder {
    /// The segmented subtitle playlist of `durations` in the video's shape, its segments named by their
    /// media sequence numbers in a live window (so a reload that drops the head still names the same
    /// files), else by their indices. RFC 8216 §4.2, §6.3.2: a segment's number is the first's plus its
    /// index and is a decimal-integer below 2^64 (and a live segment URL's is read as an Int), so a video
    /// whose first numbers leave no room for its segments is refused with a 502 and the reason, never
    /// written as numbers that wrap.
    func segmentedPlaylist(
        durations: [Double], timeline: VideoTimeline?, track: TrackConfig, set: SubtitleSet
    ) throws(ProxyError) -> TaggedBody {
        let shape = shape(of: timeline, track: track, set: set)
        let count = UInt64(durations.count)
        guard !shape.mediaSequence.addingReportingOverflow(count).overflow else {
            throw .badGateway("the video playlist's EXT-X-MEDIA-SEQUENCE \(shape.mediaSequence) leaves no room for its \(count) segments below 2^64")
        }
        let discontinuities = UInt64(shape.discontinuities.count)
        if let sequence = shape.discontinuitySequence, sequence.addingReportingOverflow(discontinuities).overflow {
            throw .badGateway("the video playlist's EXT-X-DISCONTINUITY-SEQUENCE \(sequence) leaves no room for its \(discontinuities) discontinuities below 2^64")
        }
        let first = liveSequence(of: timeline)
        if let first, first > UInt64(Int.max) - count {
            throw .badGateway("the live window's EXT-X-MEDIA-SEQUENCE \(first) leaves no room for \(count) subtitle segment numbers")
        }
        let make = { () -> [UInt8] in
            guard let first else { return SubtitlePlaylistBuilder.segmented(durations: durations, uri: { "\($0).vtt" }, shape: shape) }
            // Checked above: every index is below `count`, so first + index fits.
            return SubtitlePlaylistBuilder.segmented(durations: durations, uri: { "\(first + UInt64($0)).vtt" }, shape: shape)
        }
        guard let timeline else { return TaggedBody(make()) }
        return timeline.playlists.playlist(.segmented(durations: durations, shape: shape, firstSequence: first), make: make)
    }

    /// The window's first media sequence number when the subtitle playlist mirrors it.
    func liveSequence(of timeline: VideoTimeline?) -> UInt64? {
        timeline?.liveFirstSequence
    }

    /// Live segment `sequence` (see the type's comment). The numbers the video's playlist lists now are
    /// served, and those this instance saw listed that left it lately (RFC 8216 §6.2.2: a removed
    /// segment stays available for its duration plus the window's; `LiveWindowHistory`) from what they
    /// were listed with. One after the window is not listed yet, one further back is gone: both 404. A listed segment whose PTS is unreadable is served without X-TIMESTAMP-MAP (no
    /// epoch: its nominal window's cues; with an epoch: no cues, its place unknown), `transient` so it
    /// is cached only for the fallback TTL, with a warn line.
    func liveSegmentFile(
        _ sequence: Int, timeline: VideoTimeline, first: UInt64, cues: SubtitleTrackCues, set: SubtitleSet, track: TrackConfig,
        master: OriginTarget, request: HTTPRequest
    ) async throws -> (file: TaggedBody, transient: Bool) {
        let missing = ProxyError.notFound("no subtitle segment \(sequence)")
        let count = UInt64(timeline.durations.count)
        // `liveFirstSequence` keeps first + count within Int, so the window's numbers are Ints.
        let listed = Int(first)..<(Int(first) + timeline.durations.count)
        let duration: Double
        let target: Int
        let urls: (segment: String?, initSegment: String?)
        if listed.contains(sequence) {
            let index = sequence - listed.lowerBound
            duration = timeline.durations[index]
            target = timeline.nominalTargetDuration
            urls = timeline.segmentURLs.indices.contains(index) ? timeline.segmentURLs[index] : (nil, nil)
        } else if let departed = timelines.departedLiveSegment(sequence, master: master, request: request) {
            // Left the window lately: made from what it was listed with (RFC 8216 §6.2.2).
            duration = departed.duration
            target = departed.targetDuration
            urls = (departed.segmentURL, departed.initURL)
        } else {
            let (end, overflow) = first.addingReportingOverflow(count)
            throw ProxyError.notFound(
                "subtitle segment \(sequence) is not in the video's live window (\(first) to \(overflow ? "2^64" : String(end)) exclusive) nor left it lately")
        }
        var ticks: Int64?
        var reason = "the segment's URI does not resolve"
        if let segmentURL = urls.segment {
            let start = try await timelines.liveSegmentStart(master, sequence: sequence, segmentURL: segmentURL, initURL: urls.initSegment, request: request)
            logger.debug("timestamp map", [
                ("sequence", String(sequence)), ("mpegts", start.ticks.map { String($0) } ?? "none"), ("source", start.source),
            ])
            ticks = start.ticks
            reason = start.source
        }
        let epoch = cues.mapFromOperator ? cues.document.timestampMap : nil
        let window: (start: Int64, end: Int64)
        // The PTS the window's start maps to: the segment's own, or on an epoch the exact tick of its
        // whole-millisecond start.
        var mapTicks = ticks
        if let epoch {
            guard let ticks else {
                warnUnmapped(sequence, reason: reason, set: set, track: track, master: master)
                guard let empty = cues.windowFile(sequence, start: 0, end: 0, map: .none, listed: listed) else { throw missing }
                return (empty, true)
            }
            window = LiveSegmentTiming.onEpoch(epoch, pts: ticks, duration: duration)
            mapTicks = LiveSegmentTiming.epochStartTicks(epoch, pts: ticks)
        } else {
            guard let nominal = LiveSegmentTiming.nominal(sequence: UInt64(sequence), targetDuration: target, duration: duration) else { throw missing }
            window = nominal
        }
        if ticks == nil { warnUnmapped(sequence, reason: reason, set: set, track: track, master: master) }
        let map = mapTicks.map { SubtitleTrackCues.SegmentMap.part(LiveSegmentTiming.map(pts: $0, local: window.start)) } ?? .none
        guard let file = cues.windowFile(sequence, start: window.start, end: window.end, map: map, listed: listed) else { throw missing }
        return (file, ticks == nil)
    }

    /// One warn line per live segment (by set, track, master path and number) served without a map.
    private func warnUnmapped(_ sequence: Int, reason: String, set: SubtitleSet, track: TrackConfig, master: OriginTarget) {
        guard notices.isFirst("live-unmapped:\(set.name)/\(track.id)/\(master.proxyPath)/\(sequence)") else { return }
        logger.log(.warn, "live subtitle segment served without X-TIMESTAMP-MAP, cached for the fallback TTL: its video segment's PTS is unreadable", [
            ("set", set.name), ("track", track.id), ("master", master.proxyPath), ("sequence", String(sequence)),
            ("reason", reason),
        ])
    }
}
