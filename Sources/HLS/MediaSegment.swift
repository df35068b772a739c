/// One media segment of a media playlist (RFC 8216 §3, §4.3.2).
public struct MediaSegment: Sendable, Equatable {
    /// A byte range: `<length>[@<offset>]` (RFC 8216 §4.3.2.2).
    public struct ByteRange: Sendable, Equatable {
        /// Number of bytes.
        public var length: Int
        /// First byte; nil means "right after the previous segment's range".
        public var offset: Int?

        /// Makes a byte range.
        public init(length: Int, offset: Int? = nil) {
            self.length = length
            self.offset = offset
        }

        /// Reads `<n>[@<o>]`, both decimal integers; nil for anything else.
        public init?(_ text: String) {
            let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            guard let lengthText = parts.first, let length = Self.decimal(lengthText) else { return nil }
            self.length = length
            if parts.count == 2 {
                guard let offset = Self.decimal(parts[1]) else { return nil }
                self.offset = offset
            } else {
                self.offset = nil
            }
        }

        /// A decimal-integer (RFC 8216 §4.2) that fits an Int; nil otherwise.
        private static func decimal(_ text: Substring) -> Int? {
            let trimmed = text.trimmingPlaylistWhitespace()
            guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(trimmed)
        }
    }

    /// EXTINF duration in seconds.
    public var duration: Double
    /// The segment URI as written, without surrounding whitespace.
    public var uri: String
    /// EXT-X-BYTERANGE, when the segment is a sub-range.
    public var byteRange: ByteRange?
    /// The URI of the EXT-X-MAP in force (fMP4 initialization section), if any.
    public var mapURI: String?
    /// The BYTERANGE of that EXT-X-MAP, if any.
    public var mapByteRange: ByteRange?

    /// True when an EXT-X-DISCONTINUITY precedes the segment: its timestamps need not follow the previous one's.
    public var discontinuity: Bool

    /// Makes a segment.
    public init(
        duration: Double, uri: String, byteRange: ByteRange? = nil, mapURI: String? = nil, mapByteRange: ByteRange? = nil,
        discontinuity: Bool = false
    ) {
        self.discontinuity = discontinuity
        self.duration = duration
        self.uri = uri
        self.byteRange = byteRange
        self.mapURI = mapURI
        self.mapByteRange = mapByteRange
    }
}
