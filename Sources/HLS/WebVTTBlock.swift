/// A NOTE, STYLE or REGION block that precedes the first cue, kept line for line.
public struct WebVTTBlock: Sendable, Equatable {
    /// What the block's first line announces.
    public enum Kind: Sendable, Equatable {
        /// `NOTE`: a comment.
        case note
        /// `STYLE`: a CSS style sheet (W3C WebVTT §4.3).
        case style
        /// `REGION`: a region definition (W3C WebVTT §4.4).
        case region
    }

    /// What the block is.
    public var kind: Kind
    /// The block's lines as written, the keyword line first.
    public var lines: [String]

    /// Makes a block.
    public init(kind: Kind, lines: [String]) {
        self.kind = kind
        self.lines = lines
    }
}
