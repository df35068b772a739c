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
/// Checked on every use: both caches are asked, by the keys the answer was made under, exactly as
/// the full path asks them (so expiry, eviction and recency are theirs), and a replaced or dropped
/// timeline or cues object is a miss. Only answers whose keys no request header changes are kept
/// (the mount forwards no header), only of ended, non-sliding videos (a live window's answers follow
/// its history), only of the first part's segments (a later part's map reads a PTS cache too).
/// The objects are held weakly, so this table never keeps evicted cues alive; its bytes are counted.
final class SubtitleAnswers: Sendable {
    /// Answers kept at most; past this, or past `maxKeptBytes`, the table is emptied and fills again
    /// from what is played (a 2-hour film's two segmented tracks have about 2,400 subtitle URLs).
    static let capacity = 4096
    /// Bytes kept at most, in all: bodies, and the keys (the URL's strings, the timeline's and the
    /// cues' cache keys). Outside `cache.max_bytes`, like the tables of routed subtitle URLs.
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
        let timelineKey: String
        weak var timeline: SubtitlePlaylists?
        let cuesKey: String?
        weak var cues: SubtitleTrackCues?
        let answer: RouteResponse
        let bytes: Int
    }

    private struct Table {
        var entries: [SubtitleURL: Entry] = [:]
        var bytes = 0
    }

    private let table = Mutex(Table())

    /// The answer kept for `url`, when the caches still hold what it was made from; nil otherwise.
    /// The caches count a hit only when the kept answer is given: a failed check is followed by the
    /// full path, which asks them again and counts its own.
    func answer(for url: SubtitleURL, timelines: MemoryCache<VideoTimeline>, documents: MemoryCache<SubtitleTrackCues>) -> RouteResponse? {
        guard let entry = table.withLock({ $0.entries[url] }),
              let madeFrom = entry.timeline,
              let timeline = timelines.value(for: entry.timelineKey, countingMiss: false, countingHit: false),
              timeline.playlists === madeFrom
        else { return nil }
        if let cuesKey = entry.cuesKey {
            guard let readCues = entry.cues, let cues = documents.value(for: cuesKey, countingMiss: false, countingHit: false),
                  cues === readCues
            else { return nil }
            documents.countHit()
        }
        timelines.countHit()
        return entry.answer
    }

    /// Keeps `answer` for `url`, made from `inputs`.
    func keep(_ answer: RouteResponse, for url: SubtitleURL, inputs: Inputs) {
        guard answer.response.body.count <= Self.maxBodyBytes else { return }
        let bytes = answer.response.body.count + url.setName.utf8.count + url.trackID.utf8.count + url.masterTarget.utf8.count
            + inputs.timelineKey.utf8.count + (inputs.cues?.key.utf8.count ?? 0)
        let entry = Entry(
            timelineKey: inputs.timelineKey, timeline: inputs.timeline, cuesKey: inputs.cues?.key, cues: inputs.cues?.object,
            answer: answer, bytes: bytes)
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

    /// How many answers are kept and the bytes counted for them (for tests).
    var counts: (answers: Int, bytes: Int) { table.withLock { ($0.entries.count, $0.bytes) } }
}
