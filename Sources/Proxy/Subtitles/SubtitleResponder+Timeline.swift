import HLS
import HTTPServer

/// How subtitle playlists and segments follow the video's timeline: discontinuities (each part with its
/// own X-TIMESTAMP-MAP), playlist type and growth (SPEC "Subtitle playlists and files").
extension SubtitleResponder {
    var logger: ProxyLogger { timelines.logger }

    /// The mode a track is served in: a `single` track cannot mirror discontinuities or growth, so on
    /// such a video it is served segmented (logged once per track).
    func effectiveMode(_ track: TrackConfig, set: SubtitleSet, timeline: VideoTimeline?) -> TrackConfig.SubtitleMode {
        guard track.mode == .single, let timeline, timeline.parts.count > 1 || !timeline.ended else { return track.mode }
        if notices.isFirst("segmented:\(set.name)/\(track.id)") {
            logger.log(.info, "single-mode subtitle track served segmented: the video has discontinuities or grows", [
                ("set", set.name), ("track", track.id),
                ("discontinuities", String(max(0, timeline.parts.count - 1))), ("ended", String(timeline.ended)),
            ])
        }
        return .segmented
    }

    /// The single-file playlist of a `single` track: one segment, `0.vtt`, with the video's type, media
    /// sequence, discontinuity sequence and a discontinuity before its first segment (RFC 8216 §6.2.4:
    /// renditions' discontinuity sequence numbers agree; both sit at segment 0, so one file mirrors them).
    func singlePlaylist(duration: Double, timeline: VideoTimeline?) -> TaggedBody {
        var shape = SubtitlePlaylistShape(playlistType: timeline?.playlistType ?? "VOD")
        guard let timeline else { return TaggedBody(SubtitlePlaylistBuilder.single(duration: duration, uri: "0.vtt", shape: shape)) }
        if timeline.leadingDiscontinuity { shape.discontinuities = [0] }
        shape.discontinuitySequence = timeline.discontinuitySequence ?? (timeline.leadingDiscontinuity ? 0 : nil)
        shape.mediaSequence = timeline.mediaSequence ?? 0
        return timeline.playlists.playlist(.single(duration: duration, shape: shape)) {
            SubtitlePlaylistBuilder.single(duration: duration, uri: "0.vtt", shape: shape)
        }
    }

    /// What the subtitle playlist mirrors of the video's playlist besides its durations.
    func shape(of timeline: VideoTimeline?, track: TrackConfig, set: SubtitleSet) -> SubtitlePlaylistShape {
        guard let timeline else { return SubtitlePlaylistShape() }
        // A tag before the first segment counts too: the renditions' discontinuity numbers must agree
        // segment by segment (RFC 8216 §6.2.2).
        var discontinuities = Set(timeline.parts.map(\.firstSegment).filter { $0 > 0 })
        if timeline.leadingDiscontinuity { discontinuities.insert(0) }
        return SubtitlePlaylistShape(
            playlistType: timeline.playlistType ?? (timeline.ended ? "VOD" : nil),
            discontinuities: discontinuities,
            discontinuitySequence: timeline.discontinuitySequence ?? (discontinuities.isEmpty ? nil : 0),
            ended: timeline.ended,
            // RFC 8216 §6.2.1: a playlist's target duration must not change, so one that may grow takes
            // the video's (its segments are the video's, so their EXTINFs fit it).
            minimumTargetDuration: timeline.ended && timeline.playlistType != "EVENT" ? nil : timeline.targetDuration,
            // RFC 8216 §6.2.1, §6.2.2: the renditions' media sequence numbers agree (a sliding window's
            // subtitle playlist slides with it; an EVENT or VOD one starts where the video's does).
            mediaSequence: liveSequence(of: timeline) ?? timeline.mediaSequence ?? 0
        )
    }

    /// Segment start times for cutting cues. When the video's playlist may grow or has grown (no type, or
    /// EVENT), the last window closes at the end of the last segment, ended or not: its cues must not
    /// change when the next segment is added, nor when ENDLIST arrives (the file a player already has
    /// for that number stays right). A VOD's last window stays open, so cues past its EXTINF sum are kept.
    func boundaries(_ durations: [Double], timeline: VideoTimeline?) -> [Int64] {
        let closed = timeline.map { $0.ended == false || $0.playlistType != "VOD" } ?? false
        // One more start, at the end of the last segment: the last window gets an end.
        return SubtitlePlaylistBuilder.boundaries(durations: closed ? durations + [0] : durations)
    }

    /// The X-TIMESTAMP-MAP of segment `index`: the document's in the first part; in part k after a
    /// discontinuity, MPEGTS = that part's first PTS and LOCAL = the presentation time where it starts,
    /// so cues on the programme's timeline map to that part's PTS (RFC 8216 §3.5, §6.2.4). A map from
    /// the config (`mpegts`) or the source says where the first part's cues go: it is the document's
    /// map, so it holds in the first part only, and later parts, whose PTS restart, still map from their
    /// own first segments. `transient` when a failed fetch withheld the part's PTS.
    func segmentMap(
        _ index: Int, cues: SubtitleTrackCues, master: OriginTarget, timeline: VideoTimeline?, request: HTTPRequest
    ) async throws -> (map: SubtitleTrackCues.SegmentMap, transient: Bool) {
        guard let timeline else { return (.document, false) }
        let part = timeline.part(containing: index)
        guard part > 0, timeline.parts.indices.contains(part) else { return (.document, false) }
        let start = try await timelines.partStart(master, part: part, request: request)
        logger.debug("timestamp map", [
            ("part", String(part)), ("mpegts", start.ticks.map { String($0) } ?? "none"), ("source", start.source),
        ])
        guard let ticks = start.ticks else { return (.none, start.transient) }
        let firstSegment = timeline.parts[part].firstSegment
        let starts = SubtitlePlaylistBuilder.boundaries(durations: Array(timeline.durations.prefix(firstSegment + 1)))
        let local = starts.last ?? 0
        return (.part(TimestampMap(mpegts: ticks, local: local)), false)
    }

    /// `max-age` of a playlist that still grows: no longer than the master TTL, so a reloading player sees
    /// new segments as soon as the proxy does.
    func growingCacheControl(fallback: Bool) -> String {
        var seconds = min(config.cache.masterTTL, config.cache.subtitleTTL)
        if fallback { seconds = min(seconds, config.cache.fallbackTTL) }
        return "max-age=\(ConfigSeconds.maxAge(seconds))"
    }
}
