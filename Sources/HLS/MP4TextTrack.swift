/// A timed-text track (3GPP TS 26.245 `tx3g`, ffmpeg's `mov_text`; or ISO/IEC 14496-30 `wvtt`) read out of an MP4 file.
public struct MP4TextTrack: Sendable, Equatable {
    /// The `tkhd` track_ID.
    public var trackID: UInt32
    /// The `mdhd` language, ISO 639-2/T (`eng`, `fra`, `und`); nil when the file gives none.
    public var language: String?
    /// The track's samples as cues, times in milliseconds; empty samples (gaps) are left out.
    public var cues: [WebVTTCue]
    /// Samples refused or cut short while reading, for the log (the reader itself logs nothing).
    public var dropped: Dropped

    /// Samples refused or cut short: how many, and why for the first few.
    public struct Dropped: Sendable, Equatable {
        /// Reasons kept; the count goes on.
        public static let keptReasons = 3
        /// How many samples were refused or cut short.
        public private(set) var count = 0
        /// Why, for the first `keptReasons` of them.
        public private(set) var reasons: [String] = []

        /// Nothing dropped.
        public init() {}

        mutating func note(_ reason: String) {
            count += 1
            if reasons.count < Self.keptReasons { reasons.append(reason) }
        }
    }

    /// Makes a track.
    public init(trackID: UInt32, language: String?, cues: [WebVTTCue], dropped: Dropped = Dropped()) {
        self.trackID = trackID
        self.language = language
        self.cues = cues
        self.dropped = dropped
    }

    /// The track as a WebVTT document: a bare `WEBVTT` header and the cues.
    public func makeWebVTTDocument() -> WebVTTDocument {
        WebVTTDocument(cues: cues)
    }
}
