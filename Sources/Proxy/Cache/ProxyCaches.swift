import HLS

/// A fetched origin body as the caches keep it.
struct FetchedBody: Sendable {
    var status: Int
    var body: [UInt8]
    /// The URL after redirects: the base for the relative URIs inside the body.
    var finalURL: String
    var contentType: String?
    /// The origin's Content-Length, which is all a HEAD answer says of the body.
    var contentLength: Int? = nil
}

/// A body the proxy made, with its strong ETag computed once when it was made (`EntityTag.make`), so
/// a cached body is answered, and revalidated, without hashing it again.
struct TaggedBody: Sendable {
    var bytes: [UInt8]
    var etag: String

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.etag = EntityTag.make(for: bytes)
    }
}

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
    var discontinuitySequence: Int?
    /// Whether EXT-X-DISCONTINUITY precedes the first segment (a window or a programme opening on a splice).
    var leadingDiscontinuity = false
    /// EXT-X-TARGETDURATION of the variant, when given.
    var targetDuration: Int?
    /// Whether the variant has EXT-X-ENDLIST (a VOD counts as ended): false while an EVENT or live playlist grows.
    var ended = true

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

/// The in-memory caches, sharing one byte budget between them.
struct ProxyCaches: Sendable {
    /// Origin playlist bodies (masters and media playlists), short TTL.
    let playlists: MemoryCache<FetchedBody>
    /// Rewritten masters with their ETags, ready to send.
    let rewritten: MemoryCache<TaggedBody>
    /// Subtitle documents after conversion, offset and timestamp mapping.
    let subtitles: MemoryCache<SubtitleTrackCues>
    /// Subtitle loads in flight or in use, so one source is parsed once for all its requests.
    let subtitleLoads = SubtitleTrackLoads()
    /// Video timelines per master.
    let timelines: MemoryCache<VideoTimeline>
    /// First presentation timestamps (90 kHz) per master.
    let timestamps: MemoryCache<Int64>

    init(budget: Int) {
        let quarter = max(0, budget / 4)
        playlists = MemoryCache(maxCost: quarter)
        rewritten = MemoryCache(maxCost: quarter)
        subtitles = MemoryCache(maxCost: max(0, budget - 3 * quarter))
        timelines = MemoryCache(maxCost: quarter / 2)
        timestamps = MemoryCache(maxCost: quarter / 2)
    }

    /// Hit, miss and size figures per cache, for `/metrics`.
    var counts: [(name: String, hits: Int, misses: Int, bytes: Int)] {
        [
            ("playlist", playlists.counts), ("master", rewritten.counts), ("subtitle", subtitles.counts),
            ("timeline", timelines.counts), ("timestamp", timestamps.counts),
        ].map { (name: $0.0, hits: $0.1.hits, misses: $0.1.misses, bytes: $0.1.bytes) }
    }
}
