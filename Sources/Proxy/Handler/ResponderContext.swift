import HTTPClient

/// What responders are built from: made once per handler (a reload makes a new handler, so a new
/// context with empty memory caches). Each responder takes the parts it needs in `init(context:)`, so
/// a new responder adds its own init and one line in `Responders` instead of editing the handler.
struct ResponderContext: Sendable {
    let config: ProxyConfig
    let router: RequestRouter
    let origin: OriginClient
    let logger: ProxyLogger
    let metrics: ProxyMetrics
    let caches: ProxyCaches
    /// Pass-through objects and ranges on disk; nil when `cache.disk_directory` is unset.
    let diskCache: DiskCache?
    /// The directories of directory mounts, held open.
    let mountDirectories: MountDirectories
    /// Origin fetches with the mount's headers, the SSRF address check and the playlist cache.
    let fetcher: OriginFetcher
    /// Decides which tracks a master lists; shared by masters and subtitles so both see the same tracks.
    let tracks: TrackResolver

    /// `resolver` resolves origin host names for the SSRF address check; `cacheClock` expires the memory caches.
    init(
        config: ProxyConfig, origin: OriginClient, logger: ProxyLogger, metrics: ProxyMetrics, resolver: HostResolver,
        diskCache: DiskCache?, cacheClock: CacheClock
    ) {
        let router = RequestRouter(config: config)
        let caches = ProxyCaches(budget: config.cache.maxBytes, clock: cacheClock)
        let mountDirectories = MountDirectories(config.mounts)
        let fetcher = OriginFetcher(
            config: config, origin: origin, logger: logger, metrics: metrics, playlists: caches.playlists,
            mountDirectories: mountDirectories, resolver: resolver)
        self.config = config
        self.router = router
        self.origin = origin
        self.logger = logger
        self.metrics = metrics
        self.caches = caches
        self.diskCache = diskCache
        self.mountDirectories = mountDirectories
        self.fetcher = fetcher
        self.tracks = TrackResolver(config: config, logger: logger, fetcher: fetcher)
    }
}
