import HLS
import HTTPServer

/// Decides, per master request, which tracks a subtitle set lists: the one place a request's tracks
/// come from, for the master and for the subtitle URLs under it alike.
struct TrackResolver: Sendable {
    let config: ProxyConfig
    let logger: ProxyLogger
    /// Source probes go through the same origin client, SSRF checks and mount binding as source fetches.
    let fetcher: OriginFetcher
    /// Answers of optional tracks' probes.
    let probes: SourceProbes
    /// Tracks from sets' `tracks_url`: one per handler, so its cache and single flight serve every request.
    let backend: TrackBackend

    init(config: ProxyConfig, logger: ProxyLogger, fetcher: OriginFetcher) {
        self.config = config
        self.logger = logger
        self.fetcher = fetcher
        // An answer is a key and a flag: a small share of the memory budget holds thousands.
        probes = SourceProbes(maxBytes: max(0, config.cache.maxBytes / 64))
        backend = TrackBackend(config: config, origin: fetcher.origin, logger: logger, metrics: fetcher.metrics, resolver: fetcher.resolver)
    }

    /// The set's tracks for one master request: captures substituted, optional tracks whose source is
    /// absent dropped, the player's choices applied. `masterInHand`: the caller holds the master's bytes,
    /// so the backend need not wait for the origin to show it exists.
    func resolve(
        _ set: SubtitleSet, master: OriginTarget, request: HTTPRequest, masterInHand: Bool = false
    ) async throws -> ResolvedTracks {
        // Dynamic tracks: the backend's answer replaces `set.tracks`. Its tracks are literal (no capture
        // substitution: the request path must not fill in what a backend wrote); probes and choices apply.
        // A failed backend leaves the set's static tracks, possibly none.
        let backendTracks = try await backendTracks(set, master: master, request: request, masterInHand: masterInHand)
        let tracks = backendTracks ?? set.tracks
        let substituted = backendTracks ?? substitutingCaptures(in: set, master: master)
        let present = try await droppingAbsentOptionalTracks(substituted, set: set, master: master, request: request, masterInHand: masterInHand)
        let choices = PlayerChoices(query: targetQuery(master.proxyTarget))
        let resolved = ResolvedTracks(tracks: choices.isEmpty ? present : choices.applied(to: present))
        if logger.isEnabled(.debug), resolved.tracks.count != tracks.count || !choices.isEmpty {
            logger.debug("resolved tracks", [
                ("path", master.proxyPath), ("set", set.name), ("tracks", resolved.tracks.map(\.id).joined(separator: ",")),
                ("configured", String(tracks.count)), ("from", backendTracks == nil ? "config" : "tracks_url"),
            ])
        }
        return resolved
    }

    // MARK: - Templates

    /// The set's tracks with `{capture}`s in `source` and `name` replaced by the request path's captures, as
    /// the request spelled them (still percent-encoded). A track whose substituted attributes break the
    /// rendition rules (a NAME with `"`, two NAMEs alike) is left out with a warn line.
    func substitutingCaptures(in set: SubtitleSet, master: OriginTarget) -> [TrackConfig] {
        let tracks = set.tracks
        guard set.tracksMayHaveCaptures else { return tracks }
        let captures = captures(of: set, master: master)
        var substituted: [TrackConfig] = []
        for var track in tracks {
            guard let source = Self.substituteURL(track.source, captures), let name = Self.substitute(track.track.name, captures) else {
                logger.log(.warn, "track left out: its template's captures are not in the request path", [
                    ("path", master.proxyPath), ("set", set.name), ("track", track.id),
                ])
                continue
            }
            track.source = Self.relativeReferenceKept(source, template: track.source)
            track.track.name = name
            substituted.append(track)
        }
        // RFC 8216 §4.3.4.1: the substituted NAMEs must still be quoted-strings, unique in the group.
        let problems = SubtitleTrack.problems(in: substituted.map(\.track))
        guard !problems.isEmpty else { return substituted }
        var dropped = Set<Int>()
        for problem in problems where substituted.indices.contains(problem.trackIndex) && dropped.insert(problem.trackIndex).inserted {
            logger.log(.warn, "track left out: its substituted attributes break the rendition rules", [
                ("path", master.proxyPath), ("set", set.name), ("track", substituted[problem.trackIndex].id), ("reason", problem.message),
            ])
        }
        return substituted.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }

    /// The captures of the set's first templated pattern that matches the master's path, as the request
    /// spelled them (still percent-encoded); none when no templated pattern matches.
    func captures(of set: SubtitleSet, master: OriginTarget) -> [String: Substring] {
        let rawPath = splitTarget(master.proxyTarget).path
        return set.masters.lazy
            .filter { !$0.captureNames.isEmpty && $0.matches(master.proxyPath) }
            .compactMap { $0.captures(inRawPath: Substring(rawPath)) }
            .first ?? [:]
    }

    /// `text` with its captures substituted; itself when it has none; nil when a capture is missing.
    static func substitute(_ text: String, _ captures: [String: Substring]) -> String? {
        guard Template.mayHaveCaptures(text) else { return text }
        return (try? Template(parsing: text))?.substituting(captures)
    }

    /// The URL template `text` with its captures substituted, those in its query percent-encoded
    /// (`Template.substitutingURL`); itself when it has none; nil when a capture is missing.
    static func substituteURL(_ text: String, _ captures: [String: Substring]) -> String? {
        guard Template.mayHaveCaptures(text) else { return text }
        return (try? Template(parsing: text))?.substitutingURL(captures)
    }

    /// A source that starts with a capture stays a relative reference: RFC 3986 §4.2, a first segment
    /// with a ":" (a capture such as `https:`) would read as a scheme, so it goes behind "./".
    static func relativeReferenceKept(_ source: String, template: String) -> String {
        guard template.hasPrefix("{"), source.prefix(while: { $0 != "/" }).contains(":") else { return source }
        return "./" + source
    }
}
