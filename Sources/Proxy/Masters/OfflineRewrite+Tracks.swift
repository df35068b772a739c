import HTTPClient
import HTTPServer
import HTTPWire

extension OfflineRewrite {
    /// The tracks the server would list for this master request, decided by the server's own
    /// TrackResolver. With `network` it is exactly the server's resolution (backend, captures, probes
    /// through the same fetcher and SSRF rules, choices). Without it nothing leaves the machine: a
    /// `tracks_url` is not asked (its static tracks are listed, as the server does when the backend
    /// fails), and only optional tracks whose source is a file (a directory mount) are probed, on disk;
    /// the others are left out. Each such difference is one warn line.
    static func resolvedTracks(
        _ set: SubtitleSet, master: OriginTarget, config: ProxyConfig, network: Bool, logger: ProxyLogger
    ) async throws(ProxyError) -> ResolvedTracks {
        let resolver = TrackResolver(config: config, logger: logger, fetcher: offlineFetcher(config: config, logger: logger))
        let (rawPath, query) = splitTarget(master.proxyTarget)
        let request = HTTPRequest(method: .get, target: master.proxyTarget, path: master.proxyPath, rawPath: rawPath, query: query)
        do {
            if network {
                // The master's bytes are the command's input, so the backend is asked without the
                // origin's master being fetched first.
                return try await resolver.resolve(set, master: master, request: request, masterInHand: true)
            }
            if set.tracksURL != nil {
                logger.log(.warn, "tracks_url not asked offline: the set's static tracks are listed, as when the backend fails (--network asks it)", [
                    ("set", set.name),
                ])
            }
            let substituted = resolver.substitutingCaptures(in: set, master: master)
            let local = substituted.filter { track in
                guard track.optional, let url = SubtitleCueLoader.sourceURL(of: track, master: master), !url.hasPrefix("file:") else { return true }
                logger.log(.warn, "optional track left out: its source is not a file, and no origin is asked offline (--network probes it)", [
                    ("set", set.name), ("track", track.id), ("url", ProxyLogger.redactedURL(url)),
                ])
                return false
            }
            let present = try await resolver.droppingAbsentOptionalTracks(local, set: set, master: master, request: request, masterInHand: true)
            let choices = PlayerChoices(query: query)
            return ResolvedTracks(tracks: choices.isEmpty ? present : choices.applied(to: present))
        } catch let error as ProxyError {
            throw error
        } catch {
            throw ProxyError(.badGateway, "the tracks could not be resolved: \((error as? any HTTPStatusError)?.reason ?? "\(error)")")
        }
    }

    /// The fetcher the server's responders use, on a client of its own: file sources are read through
    /// the mount's confined directory, http(s) ones (only with --network) under the server's rules.
    static func offlineFetcher(config: ProxyConfig, logger: ProxyLogger) -> OriginFetcher {
        var configuration = OriginClient.Configuration()
        configuration.connectTimeout = ConfigSeconds.duration(config.timeouts.connect)
        configuration.totalTimeout = ConfigSeconds.duration(config.timeouts.originTotal)
        configuration.caFile = config.originCAFile
        return OriginFetcher(
            config: config, origin: OriginClient(configuration: configuration), logger: logger, metrics: ProxyMetrics(),
            playlists: MemoryCache(maxCost: 1 << 20), mountDirectories: MountDirectories(config.mounts), resolver: .system)
    }
}
