/// One line of a playlist: its exact bytes, its terminator, and what RFC 8216 §4.1 says it is.
public struct PlaylistLine: Sendable, Equatable {
    /// What a line is (RFC 8216 §4.1).
    public enum Kind: Sendable, Equatable {
        /// Empty, or only spaces and tabs: ignored by clients.
        case blank
        /// Starts with `#` but not `#EXT`: a comment (this includes vendor lines such as `#WV-...`).
        case comment
        /// Starts with `#EXT`: a tag, known or not.
        case tag
        /// Anything else: a URI.
        case uri
    }

    /// The line's bytes without its terminator.
    public private(set) var content: [UInt8]
    /// The line's terminator.
    public var ending: Playlist.LineEnding
    /// What the line is.
    public private(set) var kind: Kind
    /// For a tag, its name without `#` and `:` (`EXT-X-STREAM-INF`); nil for other lines.
    public private(set) var tagName: String?
    /// For a tag with a value, the index in `content` just after the first `:`.
    private var valueStart: Int?

    /// Classifies a line given its bytes (without terminator).
    public init(content: [UInt8], ending: Playlist.LineEnding) {
        self.content = content
        self.ending = ending
        let trimmed = PlaylistSyntax.trimmed(content[...])
        let tagPrefix: [UInt8] = Array("#EXT".utf8)
        if trimmed.isEmpty {
            kind = .blank
        } else if content.starts(with: tagPrefix) {
            kind = .tag
            let colon = content.firstIndex(of: PlaylistSyntax.colon)
            valueStart = colon.map { $0 + 1 }
            // "#EXT" precedes any colon, so the name range starts inside the line.
            tagName = String(decoding: PlaylistSyntax.trimmed(content[1..<(colon ?? content.count)]), as: UTF8.self)
        } else if content.first == PlaylistSyntax.hash {
            kind = .comment
        } else {
            kind = .uri
        }
    }

    /// Makes a tag line `#<name>:<attributes>`.
    public init(tag name: String, attributes: AttributeList, ending: Playlist.LineEnding) {
        self.init(content: Array("#\(name):".utf8) + attributes.serialized(), ending: ending)
    }

    /// The line as text (invalid UTF-8 shows as U+FFFD; `content` keeps the bytes).
    public var text: String {
        String(decoding: content, as: UTF8.self)
    }

    /// For a tag with a `:`, the raw bytes after it; nil otherwise.
    public var tagValueBytes: ArraySlice<UInt8>? {
        guard kind == .tag, let valueStart, valueStart <= content.count else { return nil }
        return content[valueStart...]
    }

    /// For a tag with a `:`, the text after it; nil otherwise.
    public var tagValue: String? {
        tagValueBytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// For a tag with a value, that value read as an attribute list (parsed on each call, losslessly).
    public var attributes: AttributeList? {
        tagValueBytes.map { AttributeList(bytes: Array($0)) }
    }

    /// Replaces a tag's value with `attributes`, keeping the `#NAME:` prefix exactly as spelled
    /// (a tag without `:` gets one). Does nothing on lines that are not tags.
    public mutating func replaceAttributes(with attributes: AttributeList) {
        guard kind == .tag else { return }
        guard let valueStart, valueStart <= content.count else {
            content.append(PlaylistSyntax.colon)
            valueStart = content.count
            content += attributes.serialized()
            return
        }
        content = Array(content[..<valueStart]) + attributes.serialized()
    }

    /// For a URI line, the URI without surrounding spaces and tabs; nil for other lines.
    public var uri: String? {
        guard kind == .uri else { return nil }
        return String(decoding: PlaylistSyntax.trimmed(content[...]), as: UTF8.self)
    }

    /// True when the line is the tag `name` (given without `#`).
    public func isTag(_ name: String) -> Bool {
        tagName == name
    }
}
