/// What the proxy reads from a media playlist: its segments, their durations and the playlist flags
/// that the synthesized subtitle playlists must match (RFC 8216 §4.3.3).
public struct MediaPlaylist: Sendable, Equatable {
    /// EXT-X-TARGETDURATION, when present and a valid integer.
    public var targetDuration: Int?
    /// EXT-X-MEDIA-SEQUENCE, when present and a decimal-integer (RFC 8216 §4.2: 0 to 2^64-1).
    public var mediaSequence: UInt64?
    /// EXT-X-DISCONTINUITY-SEQUENCE, when present and a decimal-integer (RFC 8216 §4.3.3.3, §4.2).
    public var discontinuitySequence: UInt64?
    /// The sequence tags whose value is not a decimal-integer, as written (`EXT-X-MEDIA-SEQUENCE:-1`):
    /// read as absent, and reported so the caller can say why it fell back.
    public var unreadableTags: [String] = []
    /// EXT-X-PLAYLIST-TYPE (`VOD` or `EVENT`), as written.
    public var playlistType: String?
    /// True when the playlist has EXT-X-ENDLIST: no more segments will be added.
    public var hasEndList: Bool
    /// The media segments, in order (LL-HLS partial segments are not listed).
    public var segments: [MediaSegment]

    /// Makes a media playlist value.
    public init(targetDuration: Int? = nil, mediaSequence: UInt64? = nil, playlistType: String? = nil, hasEndList: Bool = false, segments: [MediaSegment] = []) {
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.playlistType = playlistType
        self.hasEndList = hasEndList
        self.segments = segments
    }

    /// The presentation's duration: the sum of the EXTINF durations.
    public var duration: Double {
        segments.reduce(0) { $0 + $1.duration }
    }

    /// Reads a media playlist.
    ///
    /// Throws `.notAPlaylist`, `.notAMediaPlaylist` for a master, `.invalidSegmentDuration` for an EXTINF
    /// that is not a non-negative decimal number, `.invalidByteRange` for a bad EXT-X-BYTERANGE and
    /// `.missingSegmentDuration` for a URI with no EXTINF before it: a duration is never guessed, since a
    /// wrong one would mistime every later subtitle segment. Unparsable TARGETDURATION, MEDIA-SEQUENCE and
    /// DISCONTINUITY-SEQUENCE read as nil (the two sequence tags are listed in `unreadableTags`). URIs may have spaces or tabs around them; lines may end in LF or CRLF.
    public static func parse(_ bytes: [UInt8]) throws(PlaylistError) -> MediaPlaylist {
        let playlist = try Playlist.parse(bytes)
        guard !playlist.isMaster else { throw .notAMediaPlaylist }
        var result = MediaPlaylist()
        var pendingDuration: Double?
        var pendingByteRange: MediaSegment.ByteRange?
        var mapURI: String?
        var mapByteRange: MediaSegment.ByteRange?
        var pendingDiscontinuity = false
        for (index, line) in playlist.lines.enumerated() {
            let lineNumber = index + 1
            if let uri = line.uri {
                guard let duration = pendingDuration else { throw .missingSegmentDuration(line: lineNumber) }
                result.segments.append(MediaSegment(
                    duration: duration, uri: uri, byteRange: pendingByteRange, mapURI: mapURI, mapByteRange: mapByteRange,
                    discontinuity: pendingDiscontinuity
                ))
                pendingDuration = nil
                pendingDiscontinuity = false
                pendingByteRange = nil
                continue
            }
            let value = line.tagValue.map { Substring($0).trimmingPlaylistWhitespace() }
            switch line.tagName {
            case "EXTINF":
                // RFC 8216 §4.3.2.1: #EXTINF:<duration>,[<title>]
                let durationText = value?.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first
                guard let durationText, let duration = decimalSeconds(durationText.trimmingPlaylistWhitespace()) else {
                    throw .invalidSegmentDuration(line: lineNumber)
                }
                pendingDuration = duration
            case "EXT-X-BYTERANGE":
                guard let value, let range = MediaSegment.ByteRange(String(value)) else { throw .invalidByteRange(line: lineNumber) }
                pendingByteRange = range
            case "EXT-X-MAP":
                let attributes = line.attributes ?? AttributeList()
                mapURI = attributes.value("URI")
                mapByteRange = nil
                if let text = attributes.value("BYTERANGE") {
                    guard let range = MediaSegment.ByteRange(text) else { throw .invalidByteRange(line: lineNumber) }
                    mapByteRange = range
                }
            case "EXT-X-TARGETDURATION":
                result.targetDuration = value.flatMap { Int($0) }
            case "EXT-X-MEDIA-SEQUENCE":
                result.mediaSequence = value.flatMap(decimalInteger)
                if result.mediaSequence == nil { result.unreadableTags.append(String(line.text.prefix(120))) }
            case "EXT-X-DISCONTINUITY-SEQUENCE":
                result.discontinuitySequence = value.flatMap(decimalInteger)
                if result.discontinuitySequence == nil { result.unreadableTags.append(String(line.text.prefix(120))) }
            case "EXT-X-DISCONTINUITY":
                // RFC 8216 §4.3.2.3: applies to the segment that follows.
                pendingDiscontinuity = true
            case "EXT-X-PLAYLIST-TYPE":
                result.playlistType = value.map(String.init)
            case "EXT-X-ENDLIST":
                result.hasEndList = true
            default:
                continue
            }
        }
        return result
    }

    /// RFC 8216 §4.2 decimal-integer: 1 to 20 digits, 0 to 2^64-1; nil for signs, spaces inside, or more.
    static func decimalInteger(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return UInt64(text)
    }

    /// RFC 8216 §4.2 decimal-integer or decimal-floating-point (`12`, `4.000000`, `.5` tolerated):
    /// finite and non-negative; nil for signs, exponents, `nan`, `inf`, hex or empty text.
    static func decimalSeconds(_ text: Substring) -> Double? {
        var digits = 0
        var dots = 0
        for byte in text.utf8 {
            if byte >= 0x30 && byte <= 0x39 {
                digits += 1
            } else if byte == 0x2E {
                dots += 1
            } else {
                return nil
            }
        }
        guard digits > 0, dots <= 1, let seconds = Double(text), seconds.isFinite else { return nil }
        return seconds
    }
}
