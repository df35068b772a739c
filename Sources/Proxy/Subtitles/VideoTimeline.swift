import HLS

/// What the first variant's media playlist says about the video.
struct VideoTimeline: Sendable {
    /// Segment durations in seconds, in order.
    var durations: [Double]
    /// EXT-X-PLAYLIST-TYPE of the variant, when given.
    var playlistType: String?
    /// The first media segment's absolute URL.
    var firstSegmentURL: String?
    /// The EXT-X-MAP (fMP4 init segment) URL in force for the first segment.
    var initSegmentURL: String?
    /// The parts between discontinuities (RFC 8216 §4.3.2.3), in order; one part when there are none.
    var parts: [VideoPart] = []
    /// EXT-X-DISCONTINUITY-SEQUENCE of the variant, when given.
    var discontinuitySequence: UInt64?
    /// EXT-X-MEDIA-SEQUENCE of the variant, when given.
    var mediaSequence: UInt64?
    /// The sequence tags the variant wrote unreadably (see `MediaPlaylist.unreadableTags`).
    var unreadableTags: [String] = []
    /// Every segment's absolute URL and the EXT-X-MAP URL in force for it, in order: a live segment's
    /// X-TIMESTAMP-MAP is read from its own segment.
    var segmentURLs: [(segment: String?, initSegment: String?)] = []
    /// Whether EXT-X-DISCONTINUITY precedes the first segment (a window or a programme opening on a splice).
    var leadingDiscontinuity = false
    /// EXT-X-TARGETDURATION of the variant, when given.
    var targetDuration: Int?
    /// Whether the variant has EXT-X-ENDLIST (a VOD counts as ended): false while an EVENT or live playlist grows.
    var ended = true
    /// The subtitle playlists made from this timeline (shared by its copies; see `SubtitlePlaylists`).
    let playlists = SubtitlePlaylists()

    /// Whether the video is a sliding window (RFC 8216 §6.2.1): no playlist type, and it may still grow,
    /// or it has already slid (media sequence above 0), so a live stream that ends keeps its numbering.
    var isSlidingWindow: Bool { playlistType == nil && (!ended || (mediaSequence ?? 0) > 0) }

    /// The media sequence number of the first segment when the subtitle playlist slides with the video
    /// and names its segments by these numbers (RFC 8216 §6.2.1, §6.3.2): a sliding window whose
    /// sequence tags are readable and whose numbers fit a segment URL (`SubtitleURL` reads them as Int).
    var liveFirstSequence: UInt64? {
        guard isSlidingWindow, !unreadableTags.contains(where: { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE") || $0.hasPrefix("#EXT-X-DISCONTINUITY-SEQUENCE") })
        else { return nil }
        // RFC 8216 §4.3.3.2: a missing EXT-X-MEDIA-SEQUENCE means 0.
        let first = mediaSequence ?? 0
        // Every listed number must fit an Int: first + count ≤ Int.max, checked without adding.
        guard first <= UInt64(Int.max) - UInt64(durations.count) else { return nil }
        return first
    }

    /// The target duration live segment numbers are placed by: EXT-X-TARGETDURATION, or without it
    /// (RFC 8216 §4.3.3.1: it is required) the longest EXTINF rounded up, within 1 s to a day.
    var nominalTargetDuration: Int {
        let longest = durations.filter(\.isFinite).max() ?? 1
        return targetDuration ?? Int(min(max(longest, 1), 86_400).rounded(.up))
    }

    /// The presentation duration: the EXTINF sum (RFC 8216 §4.3.2.1).
    var duration: Double { durations.reduce(0, +) }

    /// The index of the part segment `index` belongs to (0 when there are no discontinuities).
    func part(containing index: Int) -> Int {
        var found = 0
        for (number, part) in parts.enumerated() where part.firstSegment <= index { found = number }
        return found
    }
}

/// One part of a video between discontinuities: where it starts and what to read its first PTS from.
struct VideoPart: Sendable {
    /// Index of the part's first segment in the variant playlist.
    var firstSegment: Int
    /// That segment's absolute URL.
    var segmentURL: String?
    /// The EXT-X-MAP (fMP4 init segment) URL in force for it.
    var initSegmentURL: String?
}
