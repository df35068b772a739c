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
    /// empty and none holds a CR or LF, so the text splits back into exactly its lines.
    public var text: String {
        switch storage {
        case .string(let text): text
        case .bytes(let bytes, let range): String(decoding: bytes[range], as: UTF8.self)
        }
    }

    /// How many bytes `text` has, found without making it.
    public var textUTF8Count: Int {
        switch storage {
        case .string(let text): text.utf8.count
        case .bytes(_, let range): range.count
        }
    }

    /// Whether the text is a range of the parsed file's bytes (counted in `WebVTTDocument.retainedSourceBytes`).
    public var keepsTextInSource: Bool {
        if case .bytes = storage { return true }
        return false
    }

    /// Where the text is: a String, or a range of the file it was parsed from (valid UTF-8 in `text`'s
    /// form), which the document's cues share: a parsed cue costs no allocation for its text.
    enum Storage: Sendable {
        case string(String)
        case bytes([UInt8], Range<Int>)
    }

    private(set) var storage: Storage

    /// The cue text, one element per line. Set, it keeps what serialization writes: empty lines are left
    /// out, and a CR or LF inside a line becomes a space.
    public var payload: [String] {
        get { textUTF8Count == 0 ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        set { storage = .string(Self.text(of: newValue)) }
    }

    /// Makes a cue.
    public init(id: String? = nil, start: Int64, end: Int64, settings: String = "", payload: [String]) {
        self.init(id: id, start: start, end: end, settings: settings, storage: .string(Self.text(of: payload)))
    }

    /// Makes a cue whose text is already in `text`'s form: lines joined by LF, none empty, none holding CR or LF.
    init(id: String?, start: Int64, end: Int64, settings: String, storage: Storage) {
        self.id = id
        self.start = start
        self.end = end
        self.settings = settings
        self.storage = storage
    }

    /// Cues are equal when what they say is: the same text, wherever it is kept.
    public static func == (left: WebVTTCue, right: WebVTTCue) -> Bool {
        left.id == right.id && left.start == right.start && left.end == right.end && left.settings == right.settings
            && left.text == right.text
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
