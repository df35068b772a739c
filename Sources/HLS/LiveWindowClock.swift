/// Where each segment of a sliding-window (live) media playlist starts on the subtitle timeline, and
/// which PTS anchors its part, kept across reloads so that a subtitle segment number names the same
/// file (cues and X-TIMESTAMP-MAP) every time.
///
/// RFC 8216 §6.2.1, §6.3.2: a live playlist drops segments from its head as it adds them at its tail,
/// and EXT-X-MEDIA-SEQUENCE counts the dropped ones; a segment keeps its sequence number for as long as
/// it is listed. The clock places the first window it sees at time 0 and each later segment where the
/// one before it ends, by sequence number, so a window that slides keeps every segment's start. Each
/// part between discontinuities (numbered by EXT-X-DISCONTINUITY-SEQUENCE, §4.3.3.3, §6.2.2) keeps the
/// first of its segments the clock saw as its anchor: the segment whose PTS maps it. It remembers the
/// last `capacity` segments, so a player holding an older playlist still gets the window it was promised.
public struct LiveWindowClock: Sendable, Equatable {
    /// How many segment starts are remembered (at 2 s a segment, over two hours).
    public static let capacity = 4096

    /// The segment a part's X-TIMESTAMP-MAP is read from, and where it starts on the clock.
    public struct Anchor: Sendable, Equatable {
        /// Its media sequence number.
        public let sequence: UInt64
        /// Its start, in milliseconds.
        public let start: Int64
        /// Its URI and EXT-X-MAP URI, as the caller passed them.
        public let uri: String
        public let mapURI: String?
    }

    /// What a reload did to the clock.
    public enum Advance: Sendable, Equatable {
        /// The window overlaps or directly follows the remembered segments: every start is exact.
        case followed
        /// The window starts `missing` segments after the last remembered one: they are counted at the
        /// target duration each, so later times are an estimate.
        case skipped(missing: UInt64)
        /// The window starts before the remembered segments (the stream restarted its numbering): the
        /// clock starts again at 0.
        case restarted
    }

    /// Media sequence number of the oldest remembered segment.
    public private(set) var firstSequence: UInt64
    /// Start of each remembered segment in milliseconds; `starts[i]` is sequence `firstSequence + i`.
    public private(set) var starts: [Int64] = []
    /// Discontinuity sequence number of each remembered segment, likewise.
    private var parts: [UInt64] = []
    /// End of the last remembered segment, in milliseconds.
    public private(set) var end: Int64 = 0
    /// The anchor of each remembered part, by discontinuity sequence number.
    private var anchors: [UInt64: Anchor] = [:]

    /// A clock whose first window, starting at media sequence `sequence`, starts at time 0. Nil when
    /// the window's numbers would pass 2^64-1.
    public init?(sequence: UInt64, discontinuitySequence: UInt64 = 0, segments: [MediaSegment]) {
        guard UInt64(segments.count) <= UInt64.max - sequence else { return nil }
        firstSequence = sequence
        append(segments, discontinuitySequence: discontinuitySequence)
    }

    /// Moves the clock to a reloaded window starting at `sequence`; nil (clock unchanged) when the
    /// window's numbers would pass 2^64-1.
    public mutating func advance(
        sequence: UInt64, discontinuitySequence: UInt64 = 0, segments: [MediaSegment], targetDuration: Int
    ) -> Advance? {
        guard UInt64(segments.count) <= UInt64.max - sequence else { return nil }
        let next = firstSequence + UInt64(starts.count)
        let outcome: Advance
        if sequence < firstSequence {
            outcome = .restarted
            self = LiveWindowClock(firstSequence: sequence)
        } else if sequence <= next {
            outcome = .followed
            let kept = Int(sequence - firstSequence)
            if kept < starts.count { end = starts[kept] }
            starts.removeSubrange(kept...)
            parts.removeSubrange(kept...)
        } else {
            let missing = sequence - next
            let perSegment = SubtitlePlaylistBuilder.milliseconds(Double(max(1, targetDuration)))
            let (gap, overflow) = Int64(clamping: missing).multipliedReportingOverflow(by: perSegment)
            outcome = .skipped(missing: missing)
            end = Timestamp.saturatingAdd(end, overflow ? Int64.max : gap)
            firstSequence = sequence
            starts = []
            parts = []
        }
        append(segments, discontinuitySequence: discontinuitySequence)
        return outcome
    }

    /// The span `[start, end)` of segment `sequence` in milliseconds, or nil when it is not remembered.
    public func span(of sequence: UInt64) -> (start: Int64, end: Int64)? {
        guard let index = index(of: sequence) else { return nil }
        return (starts[index], index + 1 < starts.count ? starts[index + 1] : end)
    }

    /// The anchor of the part segment `sequence` belongs to, or nil when it is not remembered.
    public func anchor(of sequence: UInt64) -> Anchor? {
        index(of: sequence).flatMap { anchors[parts[$0]] }
    }

    private init(firstSequence: UInt64) {
        self.firstSequence = firstSequence
    }

    private func index(of sequence: UInt64) -> Int? {
        guard sequence >= firstSequence, sequence - firstSequence < UInt64(starts.count) else { return nil }
        return Int(sequence - firstSequence)
    }

    /// Adds the window's segments after the last remembered one, each as long as the playlist prints it
    /// (to the millisecond), then forgets the oldest past `capacity` and the anchors of forgotten parts.
    private mutating func append(_ segments: [MediaSegment], discontinuitySequence: UInt64) {
        var part = discontinuitySequence
        for (offset, segment) in segments.enumerated() {
            // §4.3.3.3: the first segment is numbered by the tag; each later EXT-X-DISCONTINUITY adds one
            // (pinned at 2^64-1 rather than wrapping).
            if offset > 0, segment.discontinuity, part < UInt64.max { part += 1 }
            let sequence = firstSequence + UInt64(starts.count)
            if anchors[part] == nil {
                anchors[part] = Anchor(sequence: sequence, start: end, uri: segment.uri, mapURI: segment.mapURI)
            }
            starts.append(end)
            parts.append(part)
            end = Timestamp.saturatingAdd(end, SubtitlePlaylistBuilder.milliseconds(SubtitlePlaylistBuilder.sanitized(segment.duration)))
        }
        let excess = starts.count - Self.capacity
        if excess > 0 {
            starts.removeFirst(excess)
            parts.removeFirst(excess)
            firstSequence += UInt64(excess)
        }
        if let oldest = parts.first, anchors.count > parts.count || anchors.keys.contains(where: { $0 < oldest }) {
            anchors = anchors.filter { $0.key >= oldest }
        }
    }
}
