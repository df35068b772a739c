/// What a master request asks of its tracks in its own query: `hls_proxy_subtitles=en,fr` lists only
/// those (by LANGUAGE or track id, in the set's order) and `hls_proxy_default=fr` makes that one the
/// DEFAULT, so a player's automatic selection picks the app user's language. Unknown values are
/// ignored. The router strips both before any origin sees the query; the proxy target the player
/// used keeps them, so subtitle URLs and cached masters differ per choice.
struct PlayerChoices: Sendable, Hashable {
    /// The query parameter listing the tracks to keep.
    static let subtitlesName = "hls_proxy_subtitles"
    /// The query parameter naming the DEFAULT track.
    static let defaultName = "hls_proxy_default"
    /// What both names start with: a query without it has no choices (the cheap test on every request).
    static let prefix = "hls_proxy_"

    /// Languages or ids to keep, in the order given; nil lists every track.
    var subtitles: [String]?
    /// The language or id of the DEFAULT track; nil keeps the configured defaults.
    var defaultTrack: String?

    /// The choices in a query (raw, as the player sent it); values are percent-decoded, the last of a
    /// repeated parameter counts, and empty ones say nothing.
    init(query: String?) {
        guard let query, query.contains(Self.prefix) else { return }
        for item in query.split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let value = String(decoding: PathPattern.lenientlyDecoded(parts[1]).bytes, as: UTF8.self)
            if parts[0] == Substring(Self.subtitlesName) {
                let values = value.split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
                subtitles = values.isEmpty ? nil : values
            } else if parts[0] == Substring(Self.defaultName) {
                defaultTrack = value.isEmpty ? nil : value
            }
        }
    }

    /// Whether the query said anything.
    var isEmpty: Bool { subtitles == nil && defaultTrack == nil }

    /// The query an origin gets: without the choice parameters, nil when nothing else is left; the
    /// query itself when it has none (no copy).
    static func originQuery(_ query: String?) -> String? {
        guard let query, query.contains(prefix) else { return query }
        let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { item in
            let name = item.prefix { $0 != "=" }
            return name != Substring(subtitlesName) && name != Substring(defaultName)
        }
        return kept.isEmpty ? nil : kept.joined(separator: "&")
    }

    /// The tracks with the choices applied. A value naming no track is ignored; a list naming none
    /// lists every track. RFC 8216 §4.3.4.1: the chosen DEFAULT=YES track gets AUTOSELECT=YES, and
    /// every other track loses DEFAULT, so the group keeps at most one.
    func applied(to tracks: [TrackConfig]) -> [TrackConfig] {
        var chosen = tracks
        if let subtitles {
            let kept = tracks.filter { track in subtitles.contains { Self.names($0, track) } }
            if !kept.isEmpty { chosen = kept }
        }
        if let defaultTrack, let index = chosen.firstIndex(where: { Self.names(defaultTrack, $0) }) {
            for position in chosen.indices { chosen[position].track.isDefault = position == index }
            chosen[index].track.autoselect = true
        }
        return chosen
    }

    /// Whether a value names a track: its id exactly, or its LANGUAGE (RFC 5646 tags compare without case).
    static func names(_ value: String, _ track: TrackConfig) -> Bool {
        value == track.id || ConfigReader.asciiLowercased(value) == ConfigReader.asciiLowercased(track.track.language)
    }
}
