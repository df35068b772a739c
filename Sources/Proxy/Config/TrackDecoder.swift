import HLS

/// A track as read from JSON, before ids are assigned across its set.
struct TrackDraft {
    var id: String?
    var track: SubtitleTrack
    /// For each of `track.characteristics`, its index in the JSON array (elements that failed are skipped).
    var characteristicIndices: [Int]
    var source: String
    var format: TrackConfig.SourceFormat?
    var offset: Double
    var mode: TrackConfig.SubtitleMode
    var segmentDuration: Double
    var mpegts: Int64?
    var optional: Bool
}

/// One element of a set's `tracks` array: its rendition attributes and source, problems reported to the reader.
/// Ids are assigned across the set by SubtitleSetDecoder.
enum TrackDecoder {
    /// A track; nil when a required field is missing or unusable, after reporting why.
    static func trackDraft(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> TrackDraft? {
        let keys: Set<String> = [
            "id", "name", "language", "assoc_language", "default", "autoselect", "forced", "characteristics",
            "source", "format", "offset", "mode", "segment_duration", "mpegts", "optional",
        ]
        guard let members = reader.object(value, at: path, keys: keys) else {
            if value == .null { reader.report(path, "expected an object, got null") }
            return nil
        }
        var id = reader.string(members["id"], at: path.key("id"))
        if let text = id, !ConfigReader.isURLSafeName(text) {
            reader.report(path.key("id"), "id \(ConfigReader.quoted(text)) must be letters, digits, '-' and '_'")
            id = nil
        }
        let name = reader.requiredString(members["name"], at: path.key("name"))
        let language = reader.requiredString(members["language"], at: path.key("language"))
        let assocLanguage = reader.string(members["assoc_language"], at: path.key("assoc_language"))
        let isDefault = reader.bool(members["default"], at: path.key("default")) ?? false
        // A default track must be autoselectable (RFC 8216 §4.3.4.1), so that is what omitting it means.
        let autoselect = reader.bool(members["autoselect"], at: path.key("autoselect")) ?? isDefault
        let forced = reader.bool(members["forced"], at: path.key("forced")) ?? false
        var characteristics: [String] = []
        var characteristicIndices: [Int] = []
        for (index, element) in (reader.array(members["characteristics"], at: path.key("characteristics")) ?? []).enumerated() {
            if let text = reader.string(element, at: path.key("characteristics").index(index)) {
                characteristics.append(text)
                characteristicIndices.append(index)
            }
        }
        let sourceText = reader.requiredString(members["source"], at: path.key("source"))
        let source = sourceText.flatMap { Self.source($0, at: path.key("source"), in: &reader) }
        let format: TrackConfig.SourceFormat? = reader.choice(members["format"], at: path.key("format"))
        if let source, format == nil, members["format"] == nil || members["format"] == .null,
            TrackConfig.SourceFormat(inferringFrom: source) == nil
        {
            reader.report(path.key("format"), "is required: the extension of \(ConfigReader.quoted(source)) does not tell webvtt, srt, mp4 or ttml")
        }
        let offset = reader.number(members["offset"], at: path.key("offset")) ?? 0
        let mode: TrackConfig.SubtitleMode = reader.choice(members["mode"], at: path.key("mode")) ?? .segmented
        let segmentDuration = reader.positiveNumber(members["segment_duration"], at: path.key("segment_duration")) ?? 6
        let mpegts = reader.integer(members["mpegts"], at: path.key("mpegts"))
        // ISO/IEC 13818-1: PTS is a 33-bit count of 90 kHz ticks.
        if let mpegts, !(0...Self.maxMPEGTS).contains(mpegts) {
            reader.report(path.key("mpegts"), "\(mpegts) is outside the 33-bit MPEG-TS range 0...\(Self.maxMPEGTS)")
        }
        let optional = reader.bool(members["optional"], at: path.key("optional")) ?? false
        guard let name, let language, let source else { return nil }
        let track = SubtitleTrack(
            name: name, language: language, assocLanguage: assocLanguage, isDefault: isDefault, autoselect: autoselect,
            forced: forced, characteristics: characteristics)
        return TrackDraft(
            id: id, track: track, characteristicIndices: characteristicIndices, source: source, format: format,
            offset: offset, mode: mode, segmentDuration: segmentDuration, mpegts: mpegts, optional: optional)
    }

    private static let maxMPEGTS: Int64 = (1 << 33) - 1

    /// An absolute http(s) URL, or a reference without a scheme resolved later against the master's URL.
    private static func source(_ text: String, at path: ConfigPath, in reader: inout ConfigReader) -> String? {
        if text.isEmpty || text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            reader.report(path, "source \(ConfigReader.quoted(text)) must be a URL without spaces or control characters")
            return nil
        }
        // RFC 3986 §3.1: a scheme is a letter then letters, digits, '+', '-', '.', ended by ':' before any '/'.
        let beforeSlash = text.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let colon = beforeSlash.firstIndex(of: ":") {
            let scheme = ConfigReader.asciiLowercased(String(beforeSlash[..<colon]))
            guard scheme == "http" || scheme == "https" else {
                reader.report(path, "source \(ConfigReader.quoted(text)) must be an http(s) URL or a relative reference")
                return nil
            }
            let authority = text.dropFirst(scheme.count + 1)
            guard authority.hasPrefix("//"), authority.dropFirst(2).first.map({ $0 != "/" && $0 != "?" }) == true else {
                reader.report(path, "source \(ConfigReader.quoted(text)) has no host")
                return nil
            }
        }
        return text
    }
}
