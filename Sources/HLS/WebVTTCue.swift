/// One WebVTT cue (W3C WebVTT §4.1): optional identifier, timings in milliseconds, settings and text lines.
public struct WebVTTCue: Sendable, Equatable {
    /// The identifier line before the timing line, if any.
    public var id: String?
    /// Start time in milliseconds.
    public var start: Int64
    /// End time in milliseconds.
    public var end: Int64
    /// The cue settings after the end time (`align:start line:85%`), trimmed; empty when none.
    public var settings: String
    /// The cue text as it is written out: its lines joined by LF, markup kept as written. No line is
    /// empty and none holds a CR or LF, so the text splits back into exactly its lines. One String for
    /// the whole cue: a parsed cue costs one allocation for its text, not one per line and one more for
    /// the list of them.
    public private(set) var text: String

    /// The cue text, one element per line. Set, it keeps what serialization writes: empty lines are left
    /// out, and a CR or LF inside a line becomes a space.
    public var payload: [String] {
        get { text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        set { text = Self.text(of: newValue) }
    }

    /// Makes a cue.
    public init(id: String? = nil, start: Int64, end: Int64, settings: String = "", payload: [String]) {
        self.init(id: id, start: start, end: end, settings: settings, text: Self.text(of: payload))
    }

    /// Makes a cue whose text is already in `text`'s form: lines joined by LF, none empty, none holding CR or LF.
    init(id: String?, start: Int64, end: Int64, settings: String, text: String) {
        self.id = id
        self.start = start
        self.end = end
        self.settings = settings
        self.text = text
    }

    /// Lines in `text`'s form: the empty ones left out, CR and LF inside one made spaces, joined by LF.
    static func text(of lines: [String]) -> String {
        var text = ""
        for line in lines where !line.isEmpty {
            if !text.isEmpty { text.append("\n") }
            if line.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                text.append(String(String.UnicodeScalarView(line.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 })))
            } else {
                text.append(line)
            }
        }
        return text
    }
}
