import HLS

/// The `rewrite` subcommand: the master at a proxy URL, rewritten exactly as the running proxy would,
/// with the tracks TrackResolver gives that request (captures, optional tracks, choices).
public enum OfflineRewrite {
    /// Rewrites `master` as served at `proxyURL` (for example `http://127.0.0.1:8080/sample/master.m3u8`).
    /// `subtitles` and `defaultTrack` replace the URL's own choice parameters; without `network` no
    /// origin is asked (OfflineRewrite+Tracks). What the command could not do as the server would is
    /// logged to `logger` as warn lines.
    public static func rewrite(
        _ master: [UInt8], proxyURL: String, config: ProxyConfig, subtitles: [String]? = nil, defaultTrack: String? = nil,
        network: Bool = false, logger: ProxyLogger = .silent
    ) async throws(ProxyError) -> [UInt8] {
        guard let target = proxyTarget(of: proxyURL) else {
            throw .badRequest("--url must be an http(s) proxy URL such as http://127.0.0.1:8080/sample/master.m3u8")
        }
        let query = queryWithChoices(target.query, subtitles: subtitles, defaultTrack: defaultTrack)
        let router = RequestRouter(config: config)
        guard case .origin(let origin) = try router.route(rawPath: target.path, query: query) else {
            throw .notFound("\(target.path) is not a mount or embedded URL")
        }
        guard let set = config.subtitleSets.first(where: { $0.claims(origin.proxyPath) }) else {
            throw .notFound("no subtitle set matches \(origin.proxyPath)")
        }
        let tracks = try await resolvedTracks(set, master: origin, config: config, network: network, logger: logger)
        do {
            // As MasterResponder does: URIs of every form pointed at the proxy first (no redirect offline).
            let relocated = MasterRelocation(router: router, mounts: config.mounts)
                .relocate(master, requestedURL: origin.url, finalURL: origin.url, mount: origin.mount)
            return try set.rewriteReporting(relocated, tracks: tracks.tracks) { track in
                SubtitleURL(setName: set.name, trackID: track.id, masterTarget: origin.proxyTarget, resource: .playlist).path
            }.bytes
        } catch {
            throw .badRequest(reason(error))
        }
    }

    /// The query with each choice the command gives in place of the URL's own parameter for it
    /// (PlayerChoices' names), so the master target, and the subtitle URIs made from it, are those of a
    /// player asking with them.
    static func queryWithChoices(_ query: String?, subtitles: [String]?, defaultTrack: String?) -> String? {
        guard subtitles != nil || defaultTrack != nil else { return query }
        let replaced = [subtitles.map { _ in PlayerChoices.subtitlesName }, defaultTrack.map { _ in PlayerChoices.defaultName }].compactMap { $0 }
        var items = (query ?? "").split(separator: "&").map(String.init).filter { item in
            !replaced.contains(String(item.prefix { $0 != "=" }))
        }
        let encoded = { (value: String) in Template.queryEncoded(Substring(value)) }
        if let subtitles { items.append("\(PlayerChoices.subtitlesName)=\(subtitles.map(encoded).joined(separator: ","))") }
        if let defaultTrack { items.append("\(PlayerChoices.defaultName)=\(encoded(defaultTrack))") }
        return items.joined(separator: "&")
    }

    /// What was wrong with the input, in the words of RFC 8216 rather than the error's case name.
    static func reason(_ error: PlaylistError) -> String {
        switch error {
        case .notAPlaylist:
            "input is not an HLS playlist: it does not start with #EXTM3U"
        case .notAMaster:
            "input is not a master playlist: it has no #EXT-X-STREAM-INF variant (a media playlist?)"
        case .notAMediaPlaylist:
            "input is a master playlist where a media playlist was expected"
        case .invalidTrackValue(let track, let attribute):
            "subtitle track \(track + 1)'s \(attribute) cannot be written as a quoted string (it holds a quote or a line break)"
        case .invalidAttribute(let name):
            "attribute \(Sanitized.text(name)) cannot be written in an attribute list"
        case .malformedAttributeList(let line):
            "input line \(line) has an attribute list that cannot be changed safely (an unterminated quoted string)"
        case .invalidSegmentDuration(let line):
            "input line \(line): the #EXTINF duration is not a non-negative decimal number"
        case .invalidByteRange(let line):
            "input line \(line): the byte range is not <length>[@<offset>]"
        case .missingSegmentDuration(let line):
            "input line \(line): a segment URI without #EXTINF before it"
        }
    }

    /// Splits `http://host:port/path?query` into raw path and query.
    static func proxyTarget(of url: String) -> (path: String, query: String?)? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let afterScheme = url[schemeEnd.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return ("/", nil) }
        var target = afterScheme[slash...]
        if let hash = target.firstIndex(of: "#") { target = target[..<hash] }
        return splitTarget(String(target))
    }
}
