import HLS
import Synchronization

/// A track's cues as served: the document, and whether it is provisional (cached only briefly): the empty
/// fallback, or cues left without X-TIMESTAMP-MAP because the video's first segment could not be fetched.
/// A class, so every request for the track shares one copy, and the loads table can see whether any
/// request still holds it.
final class SubtitleTrackCues: Sendable {
    let document: WebVTTDocument
    let isFallback: Bool
    /// True when the document's X-TIMESTAMP-MAP came from the config or the source itself: it is kept
    /// as is in the first part's segments (later parts after a discontinuity map from their own PTS).
    let mapFromOperator: Bool
    /// WebVTT files already made from this document, by segment index (single mode: 0 with no
    /// boundaries), each with the boundaries and header map it was cut with and its ETag: a file is
    /// serialized and hashed once per document, not per response. They live as long as the document does.
    private let files = Mutex<[Int: (boundaries: [Int64]?, map: SegmentMap, body: TaggedBody)]>([:])
    /// Live segment files by media sequence number, kept apart from `files`: a live stream's numbers
    /// keep growing for as long as the document lives, so this memo is bounded (`liveCapacity`).
    private let windowFiles = Mutex<[Int: (boundaries: [Int64], map: SegmentMap, body: TaggedBody)]>([:])
    /// The most live files kept: far more than a live window lists (RFC 8216 §6.2.2 asks for three
    /// target durations), so evictions only drop numbers that left the window or a very long window's head.
    static let liveCapacity = 1024

    /// The X-TIMESTAMP-MAP a segment file carries.
    enum SegmentMap: Equatable {
        /// The document's own (the first part's, or none).
        case document
        /// Another part's (RFC 8216 §3.5: each part after a discontinuity maps to its own PTS).
        case part(TimestampMap)
        /// None: that part's PTS could not be read.
        case none
    }

    init(document: WebVTTDocument, isFallback: Bool, mapFromOperator: Bool = false) {
        self.document = document
        self.isFallback = isFallback
        self.mapFromOperator = mapFromOperator
    }

    /// The whole document as one WebVTT file (single mode).
    func wholeFile() -> TaggedBody {
        file(0, boundaries: nil, map: .document) { $0.serialized() } ?? TaggedBody(document.serialized())
    }

    /// Segment `index` cut at `boundaries` (segmented mode) with header map `map`, or nil when there is no such segment.
    func segmentFile(_ index: Int, boundaries: [Int64], map: SegmentMap = .document) -> TaggedBody? {
        file(index, boundaries: boundaries, map: map) { document in
            document.segment(index, boundaries: boundaries).map { Self.serialized($0, map: map) }
        }
    }

    /// Live segment `sequence`: the cues shown in `[start, end)` with header map `map`, kept by sequence
    /// number. `listed` is the window the video's playlist lists now: once the memo is full, the numbers
    /// outside it go first, then the lowest ones, down to half the capacity, so a stream that runs for
    /// days keeps at most `liveCapacity` files here.
    func windowFile(_ sequence: Int, start: Int64, end: Int64, map: SegmentMap, listed: Range<Int>) -> TaggedBody? {
        let boundaries = [start, end]
        if let made = windowFiles.withLock({ $0[sequence] }), made.boundaries == boundaries, made.map == map { return made.body }
        guard let bytes = document.segment(0, boundaries: boundaries).map({ Self.serialized($0, map: map) }) else { return nil }
        let body = TaggedBody(bytes)
        windowFiles.withLock { memo in
            if memo[sequence] == nil, memo.count >= Self.liveCapacity {
                memo = memo.filter { listed.contains($0.key) }
                let numbers = memo.keys.sorted()
                if numbers.count >= Self.liveCapacity {
                    let lowestKept = numbers[numbers.count - Self.liveCapacity / 2]
                    memo = memo.filter { $0.key >= lowestKept }
                }
            }
            memo[sequence] = (boundaries, map, body)
        }
        return body
    }

    /// How many live files the memo holds (for tests of its bound).
    var liveFileCount: Int { windowFiles.withLock { $0.count } }

    private static func serialized(_ segment: WebVTTDocument, map: SegmentMap) -> [UInt8] {
        switch map {
        case .document: return segment.serialized()
        case .part(let partMap): return segment.settingTimestampMap(partMap, keepExisting: false).serialized()
        case .none: return segment.removingTimestampMap().serialized()
        }
    }

    private func file(_ index: Int, boundaries: [Int64]?, map: SegmentMap, make: (WebVTTDocument) -> [UInt8]?) -> TaggedBody? {
        // A different timeline (other boundaries or map) gives other bytes: made again, and kept instead.
        if let made = files.withLock({ $0[index] }), made.boundaries == boundaries, made.map == map { return made.body }
        // Made outside the lock: two first requests may both make it, and store the same bytes.
        guard let bytes = make(document) else { return nil }
        let body = TaggedBody(bytes)
        files.withLock { $0[index] = (boundaries, map, body) }
        return body
    }
}
