/// Subtitle tracks added, as one SUBTITLES group, to every master whose path matches (JSON `subtitles[i]`).
public struct SubtitleSet: Sendable, Hashable {
    /// Names the set in the proxy's own URLs: `[A-Za-z0-9_-]`, unique among sets.
    public var name: String
    /// Request paths of the masters this set applies to (`masters`).
    public var masters: [PathPattern]
    /// GROUP-ID of the SUBTITLES group the tracks join (`group_id`).
    public var groupID: String
    /// The tracks, in the order they are written into the master.
    public var tracks: [TrackConfig] {
        didSet { tracksMayHaveCaptures = Self.mayHaveCaptures(tracks) }
    }
    /// Whether any track's source or name has a brace, so may hold `{capture}`s to substitute: kept
    /// with the tracks (a change to them, or to one of theirs, sets it again), not looked for in each
    /// subtitle request.
    public private(set) var tracksMayHaveCaptures: Bool
    /// `closed_captions: "none"`: variants without CLOSED-CAPTIONS get `CLOSED-CAPTIONS=NONE`.
    public var closedCaptionsNone: Bool = false
    /// Whether a matched path that answers with a media playlist gets a synthesized one-variant master
    /// around it (`wrap_media_playlists`); off, it passes through unchanged.
    public var wrapMediaPlaylists: Bool = false
    /// BANDWIDTH of a wrapped variant when neither EXT-X-BITRATE nor segment sizes give one (`wrap_bandwidth`, bits/s).
    public var wrapBandwidth: Int = SubtitleSet.defaultWrapBandwidth
    /// Where the tracks of each master come from at play time (`tracks_url`): an absolute http(s) URL
    /// template answering `{"tracks": [...]}`; `{name}` placeholders are kept as written, to be filled
    /// from the master path's captures. Nil: the static `tracks` only.
    public var tracksURL: String?
    /// Fields sent to `tracksURL` and to nothing else (`tracks_headers`), sorted by name; no client or
    /// mount header goes there.
    public var tracksHeaders: [Mount.Header] = []
    /// Hosts that sources from `tracksURL` may name besides `embedded.allow_hosts` (`source_hosts`).
    public var sourceHosts: [HostPattern] = []

    /// What `wrap_bandwidth` is when omitted: 1 Mbit/s.
    public static let defaultWrapBandwidth = 1_000_000

    /// What `masters` is when omitted: HLS masters by extension, and Azure Media Services' dynamic manifests.
    public static let defaultMasters: [PathPattern] = [PathPattern("*.m3u8"), PathPattern("*(format=m3u8-aapl)")]

    /// Makes a set; the defaults are the JSON defaults.
    public init(name: String, masters: [PathPattern] = defaultMasters, groupID: String = "subs", tracks: [TrackConfig]) {
        self.name = name
        self.masters = masters
        self.groupID = groupID
        self.tracks = tracks
        tracksMayHaveCaptures = Self.mayHaveCaptures(tracks)
    }

    private static func mayHaveCaptures(_ tracks: [TrackConfig]) -> Bool {
        tracks.contains { Template.mayHaveCaptures($0.source) || Template.mayHaveCaptures($0.track.name) }
    }

    /// Whether this set applies to a request path (percent-decoded, starting with `/`).
    public func appliesTo(path: String) -> Bool {
        masters.contains { $0.matches(path) }
    }
}
