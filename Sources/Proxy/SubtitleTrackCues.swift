import HLS

/// A track's cues as served: the document, and whether it is provisional (cached only briefly): the empty
/// fallback, or cues left without X-TIMESTAMP-MAP because the video's first segment could not be fetched.
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
