import HLS

/// A track's cues as served: the document, and whether it is the empty fallback (cached only briefly).
/// A class, so every request for the track shares one copy, and the loads table can see whether any
/// request still holds it.
final class SubtitleTrackCues: Sendable {
    let document: WebVTTDocument
    let isFallback: Bool

    init(document: WebVTTDocument, isFallback: Bool) {
        self.document = document
        self.isFallback = isFallback
    }
}
