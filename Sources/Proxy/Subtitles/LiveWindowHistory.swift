import HTTPWire
import Synchronization

/// The segments a live window listed lately, per master, so a subtitle segment that just left the
/// window is still served. RFC 8216 §6.2.2: a segment removed from a playlist MUST stay available for
/// its duration plus that of the longest playlist that contained it; a player holding the previous
/// playlist asks for it then. Each number keeps what it was listed with (segment URL, init segment,
/// EXTINF, target duration), so its file is made from the same inputs as while it was listed, and the
/// same bytes come out. Only numbers this instance saw listed are kept: another instance that never
/// read a playlist listing one answers 404 for it (docs/requests.md "Live windows").
///
/// Bounded: at most `perMaster` numbers per master (the lowest go first) and `masterLimit` masters
/// (the one noted longest ago goes first); an entry expires `its EXTINF + the window's duration` after
/// the last playlist that listed it was read.
final class LiveWindowHistory: Sendable {
    /// What one listed segment was listed with.
    struct Segment: Sendable, Equatable {
        var segmentURL: String?
        var initURL: String?
        var duration: Double
        var targetDuration: Int
        /// When it stops being served: the last listing's time plus its EXTINF and the window's duration.
        var expires: MonotonicTime
    }

    static let perMaster = 1_024
    static let masterLimit = 256

    private struct Master {
        var segments: [UInt64: Segment] = [:]
        /// The first number of the window noted last (a live window only moves forward).
        var first: UInt64 = 0
        var noted: MonotonicTime
    }

    private let masters = Mutex<[String: Master]>([:])

    /// Notes the window `timeline` lists now (a no-op unless it is numbered live: `liveFirstSequence`).
    func note(_ timeline: VideoTimeline, key: String, now: MonotonicTime = .now()) {
        guard let first = timeline.liveFirstSequence, !timeline.durations.isEmpty else { return }
        let target = timeline.nominalTargetDuration
        // The window's duration, each EXTINF sanitized and capped at a day, so the sum stays small.
        let durations = timeline.durations.map { $0.isFinite && $0 > 0 ? min($0, 86_400) : 0 }
        let windowSeconds = durations.reduce(0, +)
        masters.withLock { masters in
            var master = masters[key] ?? Master(noted: now)
            // An origin that restarts its numbering is followed from its new numbers: what the old
            // numbers named is not what the new ones will.
            if first < master.first { master.segments = [:] }
            master.first = first
            master.segments = master.segments.filter { $0.value.expires >= now }
            for (index, duration) in durations.enumerated() {
                let urls: (segment: String?, initSegment: String?) = timeline.segmentURLs.indices.contains(index) ? timeline.segmentURLs[index] : (nil, nil)
                let keep = Duration.milliseconds(Int64((duration + windowSeconds) * 1000))
                // `liveFirstSequence` keeps first + count within Int.max.
                master.segments[first + UInt64(index)] = Segment(
                    segmentURL: urls.segment, initURL: urls.initSegment, duration: timeline.durations[index],
                    targetDuration: target, expires: now + keep)
            }
            if master.segments.count > Self.perMaster {
                let kept = master.segments.keys.sorted().suffix(Self.perMaster)
                let lowest = kept.first ?? 0
                master.segments = master.segments.filter { $0.key >= lowest }
            }
            master.noted = now
            masters[key] = master
            if masters.count > Self.masterLimit, let oldest = masters.min(by: { $0.value.noted < $1.value.noted })?.key {
                masters[oldest] = nil
            }
        }
    }

    /// What segment `sequence` of the master's window was listed with, when it was listed lately.
    func segment(_ sequence: UInt64, key: String, now: MonotonicTime = .now()) -> Segment? {
        masters.withLock { masters in
            guard let found = masters[key]?.segments[sequence], found.expires >= now else { return nil }
            return found
        }
    }

    /// How many numbers are kept for the master (for tests of the bound).
    func count(key: String) -> Int { masters.withLock { $0[key]?.segments.count ?? 0 } }
    /// How many masters are kept (for tests of the bound).
    var masterCount: Int { masters.withLock { $0.count } }
}
