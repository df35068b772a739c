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
}

extension ConfigReader {
    /// A track; nil when a required field is missing or unusable, after reporting why.
    mutating func trackDraft(_ value: ConfigValue?, at path: ConfigPath) -> TrackDraft? {
        let keys: Set<String> = [
            "id", "name", "language", "assoc_language", "default", "autoselect", "forced", "characteristics",
            "source", "format", "offset", "mode", "segment_duration", "mpegts",
        ]
        guard let members = object(value, at: path, keys: keys) else {
            if value == .null { report(path, "expected an object, got null") }
            return nil
        }
        var id = string(members["id"], at: path.key("id"))
        if let text = id, !Self.isURLSafeName(text) {
            report(path.key("id"), "id \(Self.quoted(text)) must be letters, digits, '-' and '_'")
            id = nil
        }
        let name = requiredString(members["name"], at: path.key("name"))
        let language = requiredString(members["language"], at: path.key("language"))
        let assocLanguage = string(members["assoc_language"], at: path.key("assoc_language"))
        let isDefault = bool(members["default"], at: path.key("default")) ?? false
        // A default track must be autoselectable (RFC 8216 §4.3.4.1), so that is what omitting it means.
        let autoselect = bool(members["autoselect"], at: path.key("autoselect")) ?? isDefault
        let forced = bool(members["forced"], at: path.key("forced")) ?? false
        var characteristics: [String] = []
        var characteristicIndices: [Int] = []
        for (index, element) in (array(members["characteristics"], at: path.key("characteristics")) ?? []).enumerated() {
            if let text = string(element, at: path.key("characteristics").index(index)) {
                characteristics.append(text)
                characteristicIndices.append(index)
            }
        }
        let source = requiredString(members["source"], at: path.key("source")).flatMap { self.source($0, at: path.key("source")) }
        let format: TrackConfig.SourceFormat? = choice(members["format"], at: path.key("format"))
        if let source, format == nil, members["format"] == nil || members["format"] == .null,
            TrackConfig.SourceFormat(inferringFrom: source) == nil
        {
            report(path.key("format"), "is required: the extension of \(Self.quoted(source)) does not tell webvtt, srt, mp4 or ttml")
        }
        let offset = number(members["offset"], at: path.key("offset")) ?? 0
        let mode: TrackConfig.SubtitleMode = choice(members["mode"], at: path.key("mode")) ?? .segmented
        let segmentDuration = positiveNumber(members["segment_duration"], at: path.key("segment_duration")) ?? 6
        let mpegts = integer(members["mpegts"], at: path.key("mpegts"))
        // ISO/IEC 13818-1: PTS is a 33-bit count of 90 kHz ticks.
        if let mpegts, !(0...Self.maxMPEGTS).contains(mpegts) {
            report(path.key("mpegts"), "\(mpegts) is outside the 33-bit MPEG-TS range 0...\(Self.maxMPEGTS)")
        }
        guard let name, let language, let source else { return nil }
        let track = SubtitleTrack(
            name: name, language: language, assocLanguage: assocLanguage, isDefault: isDefault, autoselect: autoselect,
            forced: forced, characteristics: characteristics)
        return TrackDraft(
            id: id, track: track, characteristicIndices: characteristicIndices, source: source, format: format,
            offset: offset, mode: mode, segmentDuration: segmentDuration, mpegts: mpegts)
    }

    private static let maxMPEGTS: Int64 = (1 << 33) - 1

    /// An absolute http(s) URL, or a reference without a scheme resolved later against the master's URL.
    private mutating func source(_ text: String, at path: ConfigPath) -> String? {
        if text.isEmpty || text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            report(path, "source \(Self.quoted(text)) must be a URL without spaces or control characters")
            return nil
        }
        // RFC 3986 §3.1: a scheme is a letter then letters, digits, '+', '-', '.', ended by ':' before any '/'.
        let beforeSlash = text.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let colon = beforeSlash.firstIndex(of: ":") {
            let scheme = Self.asciiLowercased(String(beforeSlash[..<colon]))
            guard scheme == "http" || scheme == "https" else {
                report(path, "source \(Self.quoted(text)) must be an http(s) URL or a relative reference")
                return nil
            }
            let authority = text.dropFirst(scheme.count + 1)
            guard authority.hasPrefix("//"), authority.dropFirst(2).first.map({ $0 != "/" && $0 != "?" }) == true else {
                report(path, "source \(Self.quoted(text)) has no host")
                return nil
            }
        }
        return text
    }
}
