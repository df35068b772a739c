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
    /// The cue text, one element per line, markup kept as written.
    public var payload: [String]

    /// Makes a cue.
    public init(id: String? = nil, start: Int64, end: Int64, settings: String = "", payload: [String]) {
        self.id = id
        self.start = start
        self.end = end
        self.settings = settings
        self.payload = payload
    }
}
