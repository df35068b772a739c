/// Why a playlist could not be read, rewritten or written.
public enum PlaylistError: Error, Sendable, Equatable {
    /// The bytes are not an M3U8 playlist: no `#EXTM3U` header (RFC 8216 §4.3.1.1).
    case notAPlaylist
    /// The playlist is a media playlist where a master (multivariant) playlist was needed.
    case notAMaster
    /// The playlist is a master playlist where a media playlist was needed.
    case notAMediaPlaylist
    /// A track value cannot be written as a quoted string: it holds `"`, CR or LF (RFC 8216 §4.2).
    case invalidTrackValue(track: Int, attribute: String)
    /// An attribute name is not made of `[A-Z0-9-]`, or a value cannot be spelled in an attribute list.
    case invalidAttribute(name: String)
    /// A tag's attribute list cannot be changed safely (an unterminated quoted string would swallow
    /// what is appended); `line` counts from 1, 0 when not known.
    case malformedAttributeList(line: Int)
    /// An `#EXTINF` duration is not a non-negative decimal number; `line` counts from 1.
    case invalidSegmentDuration(line: Int)
    /// An `#EXT-X-BYTERANGE` (or EXT-X-MAP BYTERANGE) is not `<n>[@<o>]`; `line` counts from 1.
    case invalidByteRange(line: Int)
    /// A media segment URI has no `#EXTINF` before it (RFC 8216 §4.3.2.1); `line` counts from 1.
    case missingSegmentDuration(line: Int)
}
