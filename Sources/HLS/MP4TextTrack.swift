/// A timed-text track (3GPP TS 26.245 `tx3g`, ffmpeg's `mov_text`; or ISO/IEC 14496-30 `wvtt`) read out of an MP4 file.
public struct MP4TextTrack: Sendable, Equatable {
    /// The `tkhd` track_ID.
    public var trackID: UInt32
    /// The `mdhd` language, ISO 639-2/T (`eng`, `fra`, `und`); nil when the file gives none.
    public var language: String?
    /// The track's samples as cues, times in milliseconds; empty samples (gaps) are left out.
    public var cues: [WebVTTCue]

    /// Makes a track.
    public init(trackID: UInt32, language: String?, cues: [WebVTTCue]) {
        self.trackID = trackID
        self.language = language
        self.cues = cues
    }

    /// The track as a WebVTT document: a bare `WEBVTT` header and the cues.
    public func makeWebVTTDocument() -> WebVTTDocument {
        WebVTTDocument(cues: cues)
    }
}
