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

    /// The presentation duration: the EXTINF sum (RFC 8216 §4.3.2.1).
    var duration: Double { durations.reduce(0, +) }
}
