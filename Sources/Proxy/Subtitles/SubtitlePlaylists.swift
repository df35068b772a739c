import HLS
import Synchronization

/// Subtitle playlists made from one video timeline, each kept with its ETag and with everything it was
/// made from: a played playlist is built and hashed once per timeline, not once per request (building
/// and hashing were two thirds of a cached subtitle playlist's instructions, bench/README.md). An
/// entry is used only when a request's inputs equal the ones it was made from, so a timeline copied and
/// changed can never get another's bytes. A timeline's tracks share entries: a playlist does not name
/// its track (its segment URIs are relative), so equal inputs are equal bytes. A class, so the copies of
/// a cached timeline share one memo; it lives as long as the timeline does.
final class SubtitlePlaylists: Sendable {
    /// What a playlist is made from.
    enum Inputs: Equatable {
        /// Segmented: the windows' durations, the video's shape, and the first live sequence number
        /// its segments are named from (nil: by index).
        case segmented(durations: [Double], shape: SubtitlePlaylistShape, firstSequence: UInt64?)
        /// Single: one segment of `duration`, in `shape`.
        case single(duration: Double, shape: SubtitlePlaylistShape)
    }

    /// Playlists kept per timeline at most: a timeline gives one per mode and per set of windows (a set
    /// whose tracks have different segment durations), so more than this means inputs that keep changing.
    static let capacity = 4

    /// The bytes a timeline of `segments` segments may come to hold here, for the cache budget: a
    /// segment's lines (`#EXTINF:...,`, its URI, and an `#EXT-X-DISCONTINUITY` before it at most) take
    /// 23 bytes in a plain VOD and 60 with 19-digit numbers and a discontinuity each: 64 per playlist kept.
    static func budget(segments: Int) -> Int { capacity * 64 * segments }

    private let made = Mutex<[(inputs: Inputs, body: TaggedBody)]>([])

    /// The playlist for `inputs`: the kept one, or `make`'s bytes with their ETag, kept (when there is room).
    func playlist<Failure: Error>(_ inputs: Inputs, make: () throws(Failure) -> [UInt8]) throws(Failure) -> TaggedBody {
        if let kept = made.withLock({ $0.first { $0.inputs == inputs }?.body }) { return kept }
        let body = TaggedBody(try make())
        made.withLock { made in
            guard made.count < Self.capacity, !made.contains(where: { $0.inputs == inputs }) else { return }
            made.append((inputs, body))
        }
        return body
    }

    /// How many playlists are kept (for tests).
    var count: Int { made.withLock { $0.count } }
}
