/// One subtitle rendition the proxy adds to a master playlist (RFC 8216 §4.3.4.1, TYPE=SUBTITLES).
///
/// A plain value: where its cues come from is the proxy's business, not the playlist's.
public struct SubtitleTrack: Sendable, Hashable {
    /// NAME: unique within its group, shown to the viewer.
    public var name: String
    /// LANGUAGE: an RFC 5646 tag such as `en` or `pt-BR`.
    public var language: String
    /// ASSOC-LANGUAGE, when set.
    public var assocLanguage: String?
    /// DEFAULT=YES when true.
    public var isDefault: Bool
    /// AUTOSELECT=YES when true.
    public var autoselect: Bool
    /// FORCED=YES when true.
    public var forced: Bool
    /// CHARACTERISTICS, written comma-separated inside one quoted string; empty means absent.
    public var characteristics: [String]

    /// Makes a track; the defaults are the RFC's (DEFAULT, AUTOSELECT and FORCED absent, meaning NO).
    public init(
        name: String,
        language: String,
        assocLanguage: String? = nil,
        isDefault: Bool = false,
        autoselect: Bool = false,
        forced: Bool = false,
        characteristics: [String] = []
    ) {
        self.name = name
        self.language = language
        self.assocLanguage = assocLanguage
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.forced = forced
        self.characteristics = characteristics
    }
}
