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

    /// The first PTS of live segment `sequence`, read from that segment (and its init segment for fMP4)
    /// and cached under `livePTSKey`: its URL without query or fragment and its media sequence number,
    /// so every viewer (whatever per-viewer token its URLs carry) and every instance reading the same
    /// segment gets the same value from one origin read (SPEC: synthesized subtitle URLs are stateless).
    /// The fetch itself carries the viewer's request and the segment's full URL, so access rules apply
    /// as for the player. Nil with the reason when unreadable.
    func liveSegmentStart(
        _ master: OriginTarget, sequence: Int, segmentURL: String, initURL: String?, request: HTTPRequest
    ) async throws -> (ticks: Int64?, transient: Bool, source: String) {
        let key = "live-pts \(Self.livePTSKey(segmentURL, sequence: sequence)) \(initURL.map { Self.livePTSKey($0, sequence: nil) } ?? "")"
        return try await segmentStart(master, segmentURL: segmentURL, initURL: initURL, key: key, part: 0, request: request, quiet: true)
    }

    /// A segment URL as its PTS is cached: without its query and fragment (per-viewer tokens, the
    /// player's track choices), with the media sequence number it is listed under (RFC 8216 §6.3.2: a
    /// number names one segment while listed). Segments an origin names by query (`chunk.ts?seq=123`)
    /// still get their own PTS, since their numbers differ.
    static func livePTSKey(_ url: String, sequence: Int?) -> String {
        let path = url.prefix { $0 != "#" && $0 != "?" }
        return sequence.map { "\(path) #\($0)" } ?? String(path)
    }
}
