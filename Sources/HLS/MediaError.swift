/// Why a media container (MPEG-TS, MP4, fragmented MP4) could not be read.
public enum MediaError: Error, Sendable, Equatable {
    /// A read ran past the end of the bytes (or of the enclosing box).
    case truncated
    /// A box declares a size smaller than its header or larger than its parent.
    case invalidBoxSize(type: String)
    /// Boxes are looked up deeper than `MP4Box.maximumNestingDepth`.
    case nestingTooDeep
    /// A box the format requires is absent.
    case missingBox(type: String)
    /// No 188-byte packet starting with the 0x47 sync byte was found.
    case notTransportStream
    /// The container was read but holds no usable timestamp.
    case noTimestamp
    /// A timescale of zero, which would divide by zero.
    case invalidTimescale
    /// A timestamp does not fit in 64 bits once converted.
    case timestampOverflow
}
