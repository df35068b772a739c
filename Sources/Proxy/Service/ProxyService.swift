import HTTPClient
import HTTPServer
import Synchronization

/// The running proxy: an HTTP server whose handler is a `ProxyHandler` built from a config.
///
/// The handler is held in one swappable slot: each request takes it once, so a reload (`reload(file:loading:)`)
/// swaps in a new handler for the requests that start after it while those already started finish on the old one.
public final class ProxyService: Sendable {
    /// The config the current handler runs with.
    public var config: ProxyConfig { handler.config }
    /// The current request handler (also usable without a server, for tests).
    public var handler: ProxyHandler { current.handler }
    /// The metrics shared by every handler and `/metrics`; they survive reloads.
    public let metrics: ProxyMetrics
    private let server: HTTPServer
    let logger: ProxyLogger
    let current: CurrentHandler
    /// The parts that outlive a reload, handed to each new handler.
    let origin: OriginClient
    let resolver: HostResolver
    let serverState: @Sendable () -> (openConnections: Int, accepting: Bool)
    /// Reloads one at a time (each compares against the config the one before it installed).
    let reloading = Mutex(())

    /// Expires the memory caches of every handler, the first and each reload's (tests move it by hand).
    let cacheClock: CacheClock

    /// Builds the service; nothing listens until `start()`. `resolver` answers the SSRF address check's lookups.
    public convenience init(config: ProxyConfig, logger: ProxyLogger, resolver: HostResolver = .system) {
        self.init(config: config, logger: logger, resolver: resolver, cacheClock: .system)
    }

    /// Builds the service with the clock its memory caches expire on.
    init(config: ProxyConfig, logger: ProxyLogger, resolver: HostResolver, cacheClock: CacheClock) {
        // The published example key signs for anyone: honoured on a loopback listener only (docs/signing.md).
        let (config, exampleKeyErrors) = config.confiningPublishedExampleKey()
        for error in exampleKeyErrors { logger.log(.error, error) }
        self.logger = logger
        self.cacheClock = cacheClock
        self.resolver = resolver
        let metrics = ProxyMetrics()
        self.metrics = metrics
        var originConfiguration = OriginClient.Configuration()
        originConfiguration.connectTimeout = ConfigSeconds.duration(config.timeouts.connect)
        originConfiguration.totalTimeout = ConfigSeconds.duration(config.timeouts.originTotal)
        originConfiguration.caFile = config.originCAFile
        originConfiguration.maxExchanges = config.limits.effectiveMaxOriginExchanges
        let origin = OriginClient(configuration: originConfiguration)
        self.origin = origin
        let serverBox = Mutex<HTTPServer?>(nil)
        let serverState: @Sendable () -> (openConnections: Int, accepting: Bool) = {
            guard let server = serverBox.withLock({ $0 }) else { return (0, false) }
            return (server.openConnections, server.isAcceptingConnections)
        }
        self.serverState = serverState
        let current = CurrentHandler(ProxyHandler(
            config: config, origin: origin, logger: logger, metrics: metrics, resolver: resolver,
            diskCache: DiskCacheResponder.makeDiskCache(config.cache, logger: logger), cacheClock: cacheClock, serverState: serverState))
        self.current = current
        var serverConfiguration = HTTPServerConfiguration()
        serverConfiguration.host = config.listen.host
        serverConfiguration.port = config.listen.port
        serverConfiguration.eventLoops = config.listen.threads
        serverConfiguration.headerTimeout = ConfigSeconds.duration(config.timeouts.header)
        serverConfiguration.idleTimeout = ConfigSeconds.duration(config.timeouts.idle)
        serverConfiguration.maxConnections = config.limits.maxConnections
        serverConfiguration.log = HTTPServerLog { severity, message, metadata in
            switch severity {
            case .info: logger.log(.info, message, metadata)
            case .warning: logger.log(.warn, message, metadata)
            case .error: logger.log(.error, message, metadata)
            }
        }
        // Health, redirects, errors and cached masters are answered on the loop thread with no task hop.
        // Each request reads the slot once and runs to its end on the handler it got.
        let server = HTTPServer(
            configuration: serverConfiguration,
            handler: { request in await current.handler.handle(request) },
            immediateHandler: { request in current.handler.handleImmediately(request) },
            rejectionHandler: { rejection in current.handler.handleRejection(rejection) }
        )
        serverBox.withLock { $0 = server }
        self.server = server
    }

    /// Binds and starts serving; throws with a one-line reason (for example the port is taken).
    public func start() throws {
        try server.start()
    }

    /// The bound port (useful with port 0).
    public var port: Int { server.port }

    /// The bound address, `host:port`.
    public var address: String { server.address }

    /// Stops accepting, lets in-flight requests finish within the configured grace period, then returns.
    public func stop() async {
        await server.stop(gracePeriod: ConfigSeconds.duration(config.timeouts.shutdownGrace))
    }

    /// Returns when the server has stopped: nil after `stop()`, or the failure that stopped it
    /// (an event loop that could not go on), after which the process should exit non-zero.
    @discardableResult
    public func waitUntilStopped() async -> HTTPServerError? {
        await server.waitUntilStopped()
    }

    /// The startup summary lines: mounts, and the master URL pattern of each subtitle set.
    public var startupSummary: [String] {
        let config = self.config
        var lines: [String] = []
        let base = "http://\(address)"
        for mount in config.mounts {
            switch mount.origin {
            case .http(let url): lines.append("mount /\(mount.name)/ -> \(url) (segments: \(mount.segments))")
            case .directory(let path): lines.append("mount /\(mount.name)/ -> \(path) (files)")
            }
        }
        if !config.embedded.allowHosts.isEmpty {
            lines.append("embedded origins: \(base)/{http|https}/{allowed host}/{path}")
        }
        lines.append(config.limits.originExchangesSummary)
        for set in config.subtitleSets {
            // An exact path is printed as the URL to open; a glob as the pattern it is.
            let masters = set.masters.map { master in
                master.pattern.hasPrefix("/") && !master.pattern.contains("*") && !master.pattern.contains("?")
                    ? base + master.pattern : "\(base)/... matching \(master.pattern)"
            }
            lines.append("subtitles \"\(set.name)\" (\(set.tracks.map(\.id).joined(separator: ", "))): \(masters.joined(separator: ", "))")
        }
        return lines
    }
}

/// The handler requests are given to, swapped whole by a reload.
final class CurrentHandler: Sendable {
    private let slot: Mutex<ProxyHandler>

    init(_ handler: ProxyHandler) {
        slot = Mutex(handler)
    }

    /// The handler in force now; a request keeps the one it got even if a reload swaps it meanwhile.
    var handler: ProxyHandler { slot.withLock { $0 } }

    /// Installs `handler` for the requests that start from now on.
    func replace(with handler: ProxyHandler) {
        slot.withLock { $0 = handler }
    }
}
