import Synchronization

/// Subtitle answers made from memory on the loop thread (`SubtitleResponder.immediate`), kept by
/// subtitle URL with what they were made from: the master's video timeline and, when the answer read
/// them, the track's cues. Such an answer is a function of its URL, the config and those two: the set,
/// the track (resolved without I/O: no `tracks_url`, no optional track, so from the config and the
/// master target alone), the segment windows, the cut and the headers. So while both caches still
/// hold the very objects it was made from, it is that answer again, and a request skips routing the
/// master, resolving the tracks, writing the cues' key and cutting or finding the file (about a
/// quarter of a cached subtitle file's instructions, bench/README.md).
///
/// Checked on every use: both caches are asked whether the very entries the answer was made from are
/// still there and live (`MemoryCache.isLive`, by the handles taken when it was kept), so expiry,
/// eviction and recency are theirs, and a timeline or cues stored since (a replaced or dropped
/// object) is a miss. A handle names a slot and the store that filled it, so no key is hashed and no
/// value copied out. Only answers whose keys no request header changes are kept (the mount forwards
/// no header), only of ended, non-sliding videos (a live window's answers follow its history), only
/// of the first part's segments (a later part's map reads a PTS cache too). A handle keeps nothing
/// alive, so this table never holds evicted cues; its bytes are counted.
final class SubtitleAnswers: Sendable {
    /// Answers kept at most; past this, or past `maxKeptBytes`, the table is emptied and fills again
    /// from what is played (a 2-hour film's two segmented tracks have about 2,400 subtitle URLs).
    static let capacity = 4096
    /// Bytes kept at most, in all: bodies and the URL's strings. Outside `cache.max_bytes`, like the
    /// tables of routed subtitle URLs.
    static let maxKeptBytes = 16 << 20
    /// A larger body is not kept (a whole single-mode file of a long film, say): made again each time.
    static let maxBodyBytes = 64 << 10

    /// What an answer was made from.
    struct Inputs {
        /// The master's timeline key (request-independent) and the timeline's identity (its playlists
        /// memo, shared by its copies and made once per timeline read).
        var timelineKey: String
        var timeline: SubtitlePlaylists
        /// The key and object of the cues it read, if it read any.
        var cues: (key: String, object: SubtitleTrackCues)?
    }

    private struct Entry {
        let timeline: MemoryCacheHandle
        let cues: MemoryCacheHandle?
        let answer: RouteResponse
        let bytes: Int
    }

    private struct Table {
        var entries: [SubtitleURL: Entry] = [:]
        var bytes = 0
    }

    private let table = Mutex(Table())

    /// The answer kept for `url`, when the caches still hold the entries it was made from; nil otherwise.
    /// The caches count a hit only when the kept answer is given: a failed check is followed by the
    /// full path, which asks them again and counts its own.
    func answer(for url: SubtitleURL, timelines: MemoryCache<VideoTimeline>, documents: MemoryCache<SubtitleTrackCues>) -> RouteResponse? {
        guard let entry = table.withLock({ $0.entries[url] }),
              timelines.isLive(entry.timeline, countingHit: false)
        else { return nil }
        if let cues = entry.cues {
            guard documents.isLive(cues, countingHit: false) else { return nil }
            documents.countHit()
        }
        timelines.countHit()
        return entry.answer
    }

    /// Keeps `answer` for `url`, made from `inputs`, when both caches still hold those very objects
    /// under those keys (the answer is then tied to their entries).
    func keep(
        _ answer: RouteResponse, for url: SubtitleURL, inputs: Inputs,
        timelines: MemoryCache<VideoTimeline>, documents: MemoryCache<SubtitleTrackCues>
    ) {
        guard answer.response.body.count <= Self.maxBodyBytes,
              let timeline = timelines.handle(for: inputs.timelineKey, where: { $0.playlists === inputs.timeline })
        else { return forget(url) }
        var cues: MemoryCacheHandle?
        if let read = inputs.cues {
            guard let handle = documents.handle(for: read.key, where: { $0 === read.object }) else { return forget(url) }
            cues = handle
        }
        let bytes = answer.response.body.count + url.setName.utf8.count + url.trackID.utf8.count + url.masterTarget.utf8.count
        let entry = Entry(timeline: timeline, cues: cues, answer: answer, bytes: bytes)
        table.withLock { table in
            if let old = table.entries.removeValue(forKey: url) { table.bytes -= old.bytes }
            if table.entries.count >= Self.capacity || table.bytes + bytes > Self.maxKeptBytes {
                table.entries.removeAll(keepingCapacity: true)
                table.bytes = 0
            }
            table.entries[url] = entry
            table.bytes += bytes
        }
    }

    /// Drops what is kept for `url`: an answer made again that cannot be kept leaves no older one
    /// behind (its handles are dead already, but it would still be counted).
    private func forget(_ url: SubtitleURL) {
        table.withLock { table in
            if let old = table.entries.removeValue(forKey: url) { table.bytes -= old.bytes }
        }
    }

    /// How many answers are kept and the bytes counted for them (for tests).
    var counts: (answers: Int, bytes: Int) { table.withLock { ($0.entries.count, $0.bytes) } }
}
