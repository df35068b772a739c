import HLS
import Synchronization

/// A track's cues as served: the document, and whether it is provisional (cached only briefly): the empty
/// fallback, or cues left without X-TIMESTAMP-MAP because the video's first segment could not be fetched.
/// A class, so every request for the track shares one copy, and the loads table can see whether any
/// request still holds it.
final class SubtitleTrackCues: Sendable {
    let document: WebVTTDocument
    let isFallback: Bool
    /// WebVTT files already made from this document, by segment index (single mode: 0 with no
    /// boundaries), each with the boundaries it was cut at and its ETag: a file is serialized and
    /// hashed once per document, not per response. They live as long as the document does.
    private let files = Mutex<[Int: (boundaries: [Int64]?, body: TaggedBody)]>([:])

    init(document: WebVTTDocument, isFallback: Bool) {
        self.document = document
        self.isFallback = isFallback
    }

    /// The whole document as one WebVTT file (single mode).
    func wholeFile() -> TaggedBody {
        file(0, boundaries: nil) { $0.serialized() } ?? TaggedBody(document.serialized())
    }

    /// Segment `index` cut at `boundaries` (segmented mode), or nil when there is no such segment.
    func segmentFile(_ index: Int, boundaries: [Int64]) -> TaggedBody? {
        file(index, boundaries: boundaries) { $0.segment(index, boundaries: boundaries)?.serialized() }
    }

    private func file(_ index: Int, boundaries: [Int64]?, make: (WebVTTDocument) -> [UInt8]?) -> TaggedBody? {
        // A different timeline (other boundaries) gives other bytes: made again, and kept instead.
        if let made = files.withLock({ $0[index] }), made.boundaries == boundaries { return made.body }
        // Made outside the lock: two first requests may both make it, and store the same bytes.
        guard let bytes = make(document) else { return nil }
        let body = TaggedBody(bytes)
        files.withLock { $0[index] = (boundaries, body) }
        return body
    }
}
