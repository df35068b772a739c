import HLS
import HTTPServer

/// The in-memory caches, sharing one byte budget between them.
struct ProxyCaches: Sendable {
    /// Origin playlist bodies (masters and media playlists), short TTL.
    let playlists: MemoryCache<FetchedBody>
    /// Rewritten masters as the 200 that sends them (body, ETag and fields), ready to send.
    let rewritten: MemoryCache<HTTPResponse>
    /// Subtitle documents after conversion, offset and timestamp mapping.
    let subtitles: MemoryCache<SubtitleTrackCues>
    /// Subtitle loads in flight or in use, so one source is parsed once for all its requests.
    let subtitleLoads = SubtitleTrackLoads()
    /// Video timelines per master.
    let timelines: MemoryCache<VideoTimeline>
    /// First presentation timestamps (90 kHz) per master.
    let timestamps: MemoryCache<Int64>
    /// Directory-mount playlist files after relocation, by path and file identity (an eighth of the
    /// playlists' share: a media playlist is a few kB to a few hundred).
    let files: MemoryCache<RelocatedFile>

    /// `clock` expires every entry (tests pass an adjustable one to let TTLs run out without waiting).
    init(budget: Int, clock: CacheClock = .system) {
        let quarter = max(0, budget / 4)
        playlists = MemoryCache(maxCost: quarter - quarter / 8, clock: clock)
        files = MemoryCache(maxCost: quarter / 8, clock: clock)
        rewritten = MemoryCache(maxCost: quarter, clock: clock)
        subtitles = MemoryCache(maxCost: max(0, budget - 3 * quarter), clock: clock)
        timelines = MemoryCache(maxCost: quarter / 2, clock: clock)
        timestamps = MemoryCache(maxCost: quarter / 2, clock: clock)
    }

    /// Hit, miss and size figures per cache, for `/metrics`.
    var counts: [(name: String, hits: Int, misses: Int, bytes: Int)] {
        [
            ("playlist", playlists.counts), ("master", rewritten.counts), ("subtitle", subtitles.counts),
            ("timeline", timelines.counts), ("timestamp", timestamps.counts), ("file", files.counts),
        ].map { (name: $0.0, hits: $0.1.hits, misses: $0.1.misses, bytes: $0.1.bytes) }
    }
}
