import HLS

/// One configured subtitle track: how it appears in the master, and where its cues come from
/// (JSON `subtitles[i].tracks[j]`).
public struct TrackConfig: Sendable, Hashable {
    /// Names the track in the proxy's URLs: `[A-Za-z0-9_-]`, unique in its set; defaults to the language.
    public var id: String
    /// The `EXT-X-MEDIA` attributes.
    public var track: SubtitleTrack
    /// An absolute http(s) URL, or a URI reference resolved against the master's URL.
    public var source: String
    /// The source's format; nil means it is told by the source's extension (see `SourceFormat.init(inferringFrom:)`).
    public var format: SourceFormat?
    /// Seconds added to every cue time; negative shows cues earlier.
    public var offset: Double
    /// One segment for the whole file, or segments aligned with the video's.
    public var mode: SubtitleMode
    /// Segment length in seconds when no variant playlist is known to align with.
    public var segmentDuration: Double
    /// X-TIMESTAMP-MAP MPEGTS value (90 kHz ticks) to use instead of the one read from the video.
    public var mpegts: Int64?
    var provenance: TrackProvenance = .configured
    /// Listed only when its source exists (`optional`): probed when the master is built.
    public var optional: Bool = false

    /// Makes a track; the defaults are the JSON defaults.
    public init(
        id: String, track: SubtitleTrack, source: String, format: SourceFormat? = nil, offset: Double = 0,
        mode: SubtitleMode = .segmented, segmentDuration: Double = 6, mpegts: Int64? = nil, optional: Bool = false
    ) {
        self.id = id
        self.track = track
        self.source = source
        self.format = format
        self.offset = offset
        self.mode = mode
        self.segmentDuration = segmentDuration
        self.mpegts = mpegts
        self.optional = optional
    }

    /// What a subtitle source holds.
    public enum SourceFormat: String, Sendable, Hashable, CaseIterable {
        /// WebVTT text, served with the offset and timestamp map applied.
        case webvtt
        /// SubRip text, converted to WebVTT.
        case srt
        /// An MP4 whose text track (tx3g/mov_text, or WebVTT in MP4: `wvtt`) is extracted to WebVTT.
        case mp4
        /// TTML (the IMSC1 text profile, or older DFXP), converted to WebVTT.
        case ttml

        /// The format a source's extension implies (`.vtt`, `.webvtt`, `.srt`, `.mp4`, `.m4v`, `.mov`,
        /// `.ttml`, `.dfxp`, `.xml`),
        /// ignoring any query or fragment; nil when the extension says nothing.
        public init?(inferringFrom source: String) {
            let path = source.split(whereSeparator: { $0 == "?" || $0 == "#" }).first ?? ""
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
            switch ConfigReader.asciiLowercased(String(path[dot...].dropFirst())) {
            case "vtt", "webvtt": self = .webvtt
            case "srt": self = .srt
            case "mp4", "m4v", "mov": self = .mp4
            case "ttml", "dfxp", "xml": self = .ttml
            default: return nil
            }
        }
    }

    /// How a subtitle playlist is cut.
    public enum SubtitleMode: String, Sendable, Hashable, CaseIterable {
        /// One segment holding the whole file.
        case single
        /// Segments aligned to the video's, or `segmentDuration` long when no variant is known.
        case segmented
    }
}
