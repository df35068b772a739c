/// A WebVTT file (W3C WebVTT §4): header, the blocks before the first cue, and the cues.
public struct WebVTTDocument: Sendable, Equatable {
    /// Text after `WEBVTT` on the first line, separator included (`" - title"`); empty when none.
    public var headerText: String
    /// Header lines after the first line and before the first blank line (`X-TIMESTAMP-MAP=...`, `Kind: captions`).
    public var headerLines: [String]
    /// NOTE, STYLE and REGION blocks that precede the first cue.
    public var blocks: [WebVTTBlock]
    /// The cues in file order.
    public var cues: [WebVTTCue]

    /// Makes a document; the defaults give an empty but valid file.
    public init(headerText: String = "", headerLines: [String] = [], blocks: [WebVTTBlock] = [], cues: [WebVTTCue] = []) {
        self.headerText = headerText
        self.headerLines = headerLines
        self.blocks = blocks
        self.cues = cues
    }

    /// The bytes of the parsed file that its cues' texts are kept in (`WebVTTCue.Storage.bytes`), held
    /// for as long as one of them is, as allocated (its capacity, which a body read in pieces may have
    /// grown past its count); 0 when every text is a String of its own. For memory accounting. A
    /// document's cues come from one parse, so they share one file: the largest is that one.
    public var retainedSourceBytes: Int {
        cues.reduce(0) { largest, cue in
            if case .bytes(let bytes, _) = cue.storage { return max(largest, bytes.capacity) }
            return largest
        }
    }

    /// The largest cue end in milliseconds (cues may overlap, so not the last cue's end); 0 without cues.
    public var largestEnd: Int64 {
        cues.reduce(0) { max($0, $1.end) }
    }

    /// The document with every cue moved by `milliseconds`; cues that end up wholly before 0 are dropped
    /// and starts that fall before 0 are clamped to 0.
    public func shifted(by milliseconds: Int64) -> WebVTTDocument {
        var shifted = self
        shifted.cues = cues.compactMap { cue in
            let start = Timestamp.saturatingAdd(cue.start, milliseconds)
            let end = Timestamp.saturatingAdd(cue.end, milliseconds)
            if start < 0 && end <= 0 { return nil }
            var moved = cue
            moved.start = max(start, 0)
            moved.end = max(end, 0)
            return moved
        }
        return shifted
    }
}
