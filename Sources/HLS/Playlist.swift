/// A lossless M3U8 playlist: every line in order, as it was written.
///
/// Only lines a caller replaces are re-serialized; writing back an untouched playlist gives the input
/// bytes, except that a UTF-8 byte order mark is dropped (RFC 8216 §4.1: playlists must not carry one).
public struct Playlist: Sendable, Equatable {
    /// How a line ends.
    public enum LineEnding: Sendable, Equatable {
        /// `\n`.
        case lf
        /// `\r\n`.
        case crlf
        /// The last line of a file without a final newline.
        case none

        /// The bytes of the terminator.
        public var bytes: [UInt8] {
            switch self {
            case .lf: [PlaylistSyntax.lineFeed]
            case .crlf: [PlaylistSyntax.carriageReturn, PlaylistSyntax.lineFeed]
            case .none: []
            }
        }
    }

    /// The lines, in order.
    public var lines: [PlaylistLine]

    /// Makes a playlist from lines; no check is made that it starts with `#EXTM3U`.
    public init(lines: [PlaylistLine]) {
        self.lines = lines
    }

    /// Reads a playlist. Throws `.notAPlaylist` unless the first line that is neither blank nor a
    /// comment is `#EXTM3U`.
    ///
    /// RFC 8216 §4.3.1.1 wants `#EXTM3U` on the very first line; comment and blank lines before it are
    /// tolerated (real origins write them) and kept where they are.
    public static func parse(_ bytes: [UInt8]) throws(PlaylistError) -> Playlist {
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var lineStart = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
        var lines: [PlaylistLine] = []
        var index = lineStart
        while index < bytes.count {
            if bytes[index] == PlaylistSyntax.lineFeed {
                var end = index
                var ending = LineEnding.lf
                if end > lineStart, bytes[end - 1] == PlaylistSyntax.carriageReturn {
                    end -= 1
                    ending = .crlf
                }
                lines.append(PlaylistLine(content: Array(bytes[lineStart..<end]), ending: ending))
                lineStart = index + 1
            }
            index += 1
        }
        if lineStart < bytes.count {
            lines.append(PlaylistLine(content: Array(bytes[lineStart...]), ending: .none))
        }
        let header = lines.first { $0.kind != .blank && $0.kind != .comment }
        guard let header, header.tagName == "EXTM3U" else { throw .notAPlaylist }
        return Playlist(lines: lines)
    }

    /// The playlist's bytes: each line's content followed by its own terminator.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(0) { $0 + $1.content.count + 2 })
        for line in lines {
            bytes.append(contentsOf: line.content)
            bytes.append(contentsOf: line.ending.bytes)
        }
        return bytes
    }

    /// True for a master (multivariant) playlist: it has an `#EXT-X-STREAM-INF` (RFC 8216 §4.3.4.2).
    public var isMaster: Bool {
        lines.contains { $0.tagName == "EXT-X-STREAM-INF" }
    }

    /// The terminator new lines should use: that of the first terminated line, LF when there is none.
    public var lineEnding: LineEnding {
        lines.first { $0.ending != .none }?.ending ?? .lf
    }
}
