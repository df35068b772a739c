import HLS
import HTTPServer

/// Sliding-window (live) video playlists and sequence tags that cannot be mirrored as written.
extension VideoTimelineReader {
    /// Says once per master path when a sliding window has no usable EXT-X-MEDIA-SEQUENCE (RFC 8216
    /// §6.2.1: the subtitle playlist slides with the video by these numbers): it is then followed like an
    /// EVENT playlist, numbered from 0.
    func noteUnnumberedLiveWindow(_ timeline: VideoTimeline, master: OriginTarget) {
        guard timeline.isSlidingWindow, timeline.liveFirstSequence == nil, notices.isFirst("live-unnumbered:\(master.proxyPath)") else { return }
        logger.log(.warn, "live playlist's sequence numbers unusable: subtitles follow it from 0, not sliding with it", [
            ("master", master.proxyTarget),
        ])
    }

    /// Says once per master path that a sequence tag was not a decimal-integer (RFC 8216 §4.2): the subtitle
    /// playlist then writes the default (0), which may not match what a player reads from the video.
    func noteUnreadableTags(_ timeline: VideoTimeline, master: OriginTarget) {
        guard let first = timeline.unreadableTags.first, notices.isFirst("unreadable:\(master.proxyPath)") else { return }
        logger.log(.warn, "video playlist sequence tag is not a decimal-integer; subtitle playlist writes 0 instead", [
            ("master", master.proxyTarget), ("tag", Sanitized.text(first)),
        ])
    }

    /// The first PTS of one live segment, read from that segment (and its init segment for fMP4) and
    /// cached by its URL without a query, so every viewer and every instance reading the same segment
    /// gets the same value (SPEC: synthesized subtitle URLs are stateless). The fetch itself carries the
    /// viewer's request, so access rules apply as for the player. Nil with the reason when unreadable.
    func liveSegmentStart(
        _ master: OriginTarget, segmentURL: String, initURL: String?, request: HTTPRequest
    ) async throws -> (ticks: Int64?, transient: Bool, source: String) {
        func withoutQuery(_ url: String) -> Substring { url.prefix { $0 != "?" && $0 != "#" } }
        let key = "live-pts \(withoutQuery(segmentURL)) \(initURL.map(withoutQuery) ?? "")"
        return try await segmentStart(master, segmentURL: segmentURL, initURL: initURL, key: key, part: 0, request: request, quiet: true)
    }
}
