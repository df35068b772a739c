/// What a synthesized subtitle playlist mirrors of the video's media playlist besides its durations
/// (RFC 8216 §6.2.4: renditions must agree on playlist type, discontinuities and growth).
public struct SubtitlePlaylistShape: Sendable, Equatable {
    /// EXT-X-PLAYLIST-TYPE to write (`VOD` or `EVENT`; anything else, or nil, writes none).
    public var playlistType: String?
    /// Indices of the segments preceded by EXT-X-DISCONTINUITY.
    public var discontinuities: Set<Int>
    /// EXT-X-DISCONTINUITY-SEQUENCE to write, or nil for none (RFC 8216 §4.3.3.3: then it is 0).
    public var discontinuitySequence: UInt64?
    /// EXT-X-MEDIA-SEQUENCE to write: the video's for a sliding window (RFC 8216 §6.2.1), else 0.
    public var mediaSequence: UInt64
    /// Whether the playlist ends (EXT-X-ENDLIST): false while the video's playlist still grows.
    public var ended: Bool
    /// The EXT-X-TARGETDURATION to write: the video's, for a playlist that grows (its target may not
    /// change as segments are added, RFC 8216 §6.2.1), raised only when an EXTINF rounded to nearest
    /// passes it; nil lets the longest segment decide (its ceiling).
    public var minimumTargetDuration: Int?

    /// Makes a shape; the default is a finished VOD playlist without discontinuities.
    public init(
        playlistType: String? = "VOD", discontinuities: Set<Int> = [], discontinuitySequence: UInt64? = nil, ended: Bool = true,
        minimumTargetDuration: Int? = nil, mediaSequence: UInt64 = 0
    ) {
        self.mediaSequence = mediaSequence
        self.playlistType = playlistType
        self.discontinuities = discontinuities
        self.discontinuitySequence = discontinuitySequence
        self.ended = ended
        self.minimumTargetDuration = minimumTargetDuration
    }
}
