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

    /// Says once per master path that a sequence tag was not a decimal-integer (RFC 8216 §4.2), or would
    /// number its segments past 2^64-1: the subtitle playlist then writes the default (0), which may not
    /// match what a player reads from the video.
    func noteUnreadableTags(_ timeline: VideoTimeline, master: OriginTarget) {
        guard let first = timeline.unreadableTags.first, notices.isFirst("unreadable:\(master.proxyPath)") else { return }
        logger.log(.warn, "video playlist sequence tag is not a decimal-integer or numbers its segments past 2^64-1; subtitle playlist writes 0 instead", [
            ("master", master.proxyTarget), ("tag", Sanitized.text(first)),
        ])
    }

    /// The first PTS of one live segment, read from that segment (and its init segment for fMP4) and
    /// cached by its URL without the proxy's own query parameters (`livePTSKey`), so every viewer and
    /// every instance reading the same segment gets the same value (SPEC: synthesized subtitle URLs are
    /// stateless). The fetch itself carries the viewer's request, so access rules apply as for the
    /// player. Nil with the reason when unreadable.
    func liveSegmentStart(
        _ master: OriginTarget, segmentURL: String, initURL: String?, request: HTTPRequest
    ) async throws -> (ticks: Int64?, transient: Bool, source: String) {
        let key = "live-pts \(Self.livePTSKey(segmentURL)) \(initURL.map(Self.livePTSKey) ?? "")"
        return try await segmentStart(master, segmentURL: segmentURL, initURL: initURL, key: key, part: 0, request: request, quiet: true)
    }

    /// A segment URL as its PTS is cached: the fragment and the proxy's reserved parameters removed
    /// (the player's track choices and the wrap marker, by the same functions that keep them from the
    /// origin), every other parameter kept, since an origin may name its segments by query
    /// (`chunk.ts?seq=123`) and each one has its own PTS.
    static func livePTSKey(_ url: String) -> String {
        let withoutFragment = url.prefix { $0 != "#" }
        guard let mark = withoutFragment.firstIndex(of: "?") else { return String(withoutFragment) }
        var query = PlayerChoices.originQuery(String(withoutFragment[withoutFragment.index(after: mark)...]))
        // A marker the proxy would refuse (`_hls_proxy=x`) is not its own: it stays part of the name.
        if let stripped = try? WrapMarker.strip(query) { query = stripped }
        return String(withoutFragment[..<mark]) + (query.map { "?" + $0 } ?? "")
    }
}
