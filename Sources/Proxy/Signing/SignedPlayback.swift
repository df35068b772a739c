import HTTPServer

/// The checks a verified token still needs against this proxy: its master must be a path the proxy
/// serves, and every URL the master will list must fit a request line. The `sign` subcommand runs the
/// same checks, so it never prints a URL the proxy would refuse.
enum SignedPlayback {
    /// The request-line limit the server enforces (`HTTPServerConfiguration.maxRequestLineBytes`, 414 past it).
    static let requestLineLimit = HTTPServerConfiguration().maxRequestLineBytes

    /// The origin target of the token's master: a mount path or the embedded form, never a proxy-owned URL.
    static func masterTarget(_ master: String, router: RequestRouter) -> Result<OriginTarget, SignedTokenRefusal> {
        let path: String, query: String?
        if let mark = master.firstIndex(of: "?") {
            path = String(master[..<mark])
            query = String(master[master.index(after: mark)...])
        } else {
            (path, query) = (master, nil)
        }
        do {
            guard case .origin(let target) = try router.route(rawPath: path, query: query) else {
                return .failure(SignedTokenRefusal(.invalidMaster, "invalid master: not a mount path or embedded URL"))
            }
            return .success(target)
        } catch {
            return .failure(SignedTokenRefusal(.invalidMaster, "invalid master: \(error.reason)"))
        }
    }

    /// The longest request line among the token's subtitle URLs: `GET {path} HTTP/1.1` without its CRLF
    /// (as the server counts it), for the track with the longest id and the longest segment name.
    static func longestSubtitleRequestLine(token: String, tracks: [TrackConfig]) -> Int {
        let longestID = tracks.map(\.id).max { $0.utf8.count < $1.utf8.count } ?? ""
        let path = SignedURL.path(token: token, resource: .subtitle(trackID: longestID, .segment(999_999)))
        return "GET ".utf8.count + path.utf8.count + " HTTP/1.1".utf8.count
    }

    /// A refusal when some subtitle URL of the token would be longer than a request line may be.
    static func subtitleURLsFit(token: String, tracks: [TrackConfig]) -> SignedTokenRefusal? {
        let length = longestSubtitleRequestLine(token: token, tracks: tracks)
        guard length > requestLineLimit else { return nil }
        return SignedTokenRefusal(.malformed, "malformed token: its subtitle URLs would need a \(length)-byte request line (limit \(requestLineLimit))")
    }

    /// The tracks a token's master lists: the payload's `subtitles` and `default` applied (docs/signing.md),
    /// then the master request's own `hls_proxy_subtitles` / `hls_proxy_default`, which can only narrow
    /// the list further. Unknown values are ignored and at most one track stays DEFAULT (RFC 8216
    /// §4.3.4.1), as `PlayerChoices` does for configured sets.
    static func listedTracks(_ token: SignedToken, query: String?) -> [TrackConfig] {
        var signed = PlayerChoices(query: nil)
        signed.subtitles = token.subtitles
        signed.defaultTrack = token.defaultTrack
        let listed = signed.isEmpty ? token.tracks : signed.applied(to: token.tracks)
        let requested = PlayerChoices(query: query)
        return requested.isEmpty ? listed : requested.applied(to: listed)
    }

    /// The set a token's tracks are served as: named `signed` (reserved, so its cues never share a
    /// cache entry with a configured set's), with the presentation of the configured set that claims
    /// the master's path, if any (group id, closed captions, wrapping), else the defaults.
    static func subtitleSet(for master: OriginTarget, config: ProxyConfig) -> SubtitleSet {
        var set = SubtitleSet(name: SignedURL.reservedSetName, masters: [], tracks: [])
        if let claiming = config.subtitleSets.first(where: { $0.claims(master.proxyPath) }) {
            set.groupID = claiming.groupID
            set.closedCaptionsNone = claiming.closedCaptionsNone
            set.wrapMediaPlaylists = claiming.wrapMediaPlaylists
            set.wrapBandwidth = claiming.wrapBandwidth
        }
        return set
    }

    /// What a token's rewritten master is kept under: the token (which names master, tracks and
    /// choices) and the request's own query. It starts with a letter, a configured set's with a digit,
    /// so the two never meet.
    static func cacheQualifier(token: String, query: String?) -> String {
        "signed:" + token + (query.map { "?" + $0 } ?? "")
    }
}
