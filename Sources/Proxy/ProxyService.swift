import HTTPServer
import Synchronization

/// The running proxy: an HTTP server whose handler is a `ProxyHandler` built from a config.
public final class ProxyService: Sendable {
    /// The config it runs with.
    public let config: ProxyConfig
    /// The request handler (also usable without a server, for tests).
    public let handler: ProxyHandler
    /// The metrics shared by the handler and `/metrics`.
    public let metrics: ProxyMetrics
    private let server: HTTPServer
    private let logger: ProxyLogger

    /// Builds the service; nothing listens until `start()`. `resolver` answers the SSRF address check's lookups.
    public init(config: ProxyConfig, logger: ProxyLogger, resolver: HostResolver = .system) {
        self.config = config
        self.logger = logger
        let metrics = ProxyMetrics()
        self.metrics = metrics
        var originConfiguration = OriginClient.Configuration()
        originConfiguration.connectTimeout = ConfigSeconds.duration(config.timeouts.connect)
        originConfiguration.totalTimeout = ConfigSeconds.duration(config.timeouts.originTotal)
        originConfiguration.caFile = config.originCAFile
        originConfiguration.maxExchanges = config.limits.effectiveMaxOriginExchanges
        let origin = OriginClient(configuration: originConfiguration)
        let serverBox = Mutex<HTTPServer?>(nil)
        let handler = ProxyHandler(config: config, origin: origin, logger: logger, metrics: metrics, resolver: resolver) {
            guard let server = serverBox.withLock({ $0 }) else { return (0, false) }
            return (server.openConnections, server.isAcceptingConnections)
        }
        self.handler = handler
        var serverConfiguration = HTTPServerConfiguration()
        serverConfiguration.host = config.listen.host
        serverConfiguration.port = config.listen.port
        serverConfiguration.eventLoops = config.listen.threads
        serverConfiguration.headerTimeout = ConfigSeconds.duration(config.timeouts.header)
        serverConfiguration.idleTimeout = ConfigSeconds.duration(config.timeouts.idle)
        serverConfiguration.maxConnections = config.limits.maxConnections
        // Health, redirects, errors and cached masters are answered on the loop thread with no task hop.
        let server = HTTPServer(
            configuration: serverConfiguration,
            handler: { request in await handler.handle(request) },
            immediateHandler: { request in handler.handleImmediately(request) },
            rejectionHandler: { rejection in handler.handleRejection(rejection) }
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

    /// Returns when the server has stopped.
    public func waitUntilStopped() async {
        await server.waitUntilStopped()
    }

    /// The startup summary lines: mounts, and the master URL pattern of each subtitle set.
    public var startupSummary: [String] {
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
