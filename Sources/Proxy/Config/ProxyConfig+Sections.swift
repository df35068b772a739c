import HTTPClient
import HTTPServer

extension ProxyConfig {
    /// Where the server accepts connections (JSON `listen`).
    public struct Listen: Sendable, Hashable {
        /// Address to bind (`host`); the loopback default keeps a sidecar private.
        public var host: String
        /// TCP port (`port`); 0 asks the system for a free one.
        public var port: Int
        /// Event loop threads serving connections (`threads`), each with its own listening socket on
        /// the address; 1 to 64.
        public var threads: Int

        /// The most `threads` accepted.
        public static let maxThreads = 64

        /// Makes a listen address; the defaults are the JSON defaults.
        public init(host: String = "127.0.0.1", port: Int = 8080, threads: Int = 1) {
            self.host = host
            self.port = port
            self.threads = threads
        }
    }

    /// The embedded URL form's allowlist (JSON `embedded`).
    public struct EmbeddedOrigins: Sendable, Hashable {
        /// Hosts `/{http|https}/{host}/...` may reach (`allow_hosts`); empty turns the form off.
        public var allowHosts: [HostPattern]
        /// Whether allowlisted names may resolve to loopback, link-local or private addresses
        /// (`allow_private_networks`); off, only addresses listed as IP literals in `allow_hosts` may.
        public var allowPrivateNetworks: Bool

        /// Makes an allowlist; empty by default, so the embedded form is off unless configured.
        public init(allowHosts: [HostPattern] = [], allowPrivateNetworks: Bool = false) {
            self.allowHosts = allowHosts
            self.allowPrivateNetworks = allowPrivateNetworks
        }

        /// Whether the embedded form is on and `host` is on the list.
        public func allows(_ host: String) -> Bool {
            allowHosts.contains { $0.matches(host) }
        }
    }

    /// Deadlines in seconds (JSON `timeouts`, keys ending in `_seconds`).
    public struct Timeouts: Sendable, Hashable {
        /// Connecting to an origin (`connect_seconds`).
        public var connect: Double
        /// A whole origin fetch, headers and body (`origin_seconds`).
        public var originTotal: Double
        /// A client sending its request head (`header_seconds`).
        public var header: Double
        /// An idle keep-alive client connection (`idle_seconds`).
        public var idle: Double
        /// Draining in-flight requests after SIGTERM (`shutdown_seconds`).
        public var shutdownGrace: Double
        /// A whole fetch from a subtitle set's `tracks_url` (`tracks_seconds`): short, since the master
        /// waits for it and players give up on a master long before `origin_seconds`.
        public var tracks: Double = 3

        /// Makes timeouts; the defaults are the JSON defaults.
        public init(
            connect: Double = 5, originTotal: Double = 15, header: Double = 10, idle: Double = 60,
            shutdownGrace: Double = 10
        ) {
            self.connect = connect
            self.originTotal = originTotal
            self.header = header
            self.idle = idle
            self.shutdownGrace = shutdownGrace
        }
    }

    /// Size and connection caps (JSON `limits`).
    public struct Limits: Sendable, Hashable {
        /// Largest playlist fetched from an origin (`max_playlist_bytes`).
        public var maxPlaylistBytes: Int
        /// Largest subtitle source fetched (`max_subtitle_bytes`).
        public var maxSubtitleBytes: Int
        /// Largest body streamed through in proxy mode (`max_proxy_body_bytes`).
        public var maxProxyBodyBytes: Int
        /// Open client connections accepted at once (`max_connections`).
        public var maxConnections: Int
        /// Cues kept from one subtitle source (`max_subtitle_cues`); past it the first ones are served,
        /// with a warning, so a huge sidecar costs bounded memory and parse time.
        public var maxSubtitleCues: Int
        /// Origin exchanges in flight at once (`max_origin_exchanges`); nil: derived from the
        /// descriptor limit (`effectiveMaxOriginExchanges`).
        public var maxOriginExchanges: Int?
        /// Largest answer read from a subtitle set's `tracks_url` (`max_tracks_response_bytes`); a larger
        /// one fails as `too_large` and the master gets no backend tracks.
        public var maxTracksResponseBytes: Int = 1 << 20
        /// `tracks_url` answers kept at most (`max_tracks_cache_entries`), and as many source host
        /// verdicts; past it the least recently used are forgotten.
        public var maxTracksCacheEntries: Int = 10_000

        /// Makes limits; the defaults are the JSON defaults.
        public init(
            maxPlaylistBytes: Int = 4 << 20, maxSubtitleBytes: Int = 32 << 20, maxProxyBodyBytes: Int = 256 << 20,
            maxConnections: Int = 10_000, maxSubtitleCues: Int = 200_000
        ) {
            self.maxPlaylistBytes = maxPlaylistBytes
            self.maxSubtitleBytes = maxSubtitleBytes
            self.maxProxyBodyBytes = maxProxyBodyBytes
            self.maxConnections = maxConnections
            self.maxSubtitleCues = maxSubtitleCues
        }

        /// The ceiling in force: `max_origin_exchanges`, else a quarter of the soft descriptor limit
        /// (RLIMIT_NOFILE; each exchange holds a thread, its socket and an eventfd while the client
        /// connection waiting on it holds a third descriptor), kept between 16 and 1024; 1024 when
        /// the limit is unlimited or unreadable.
        public var effectiveMaxOriginExchanges: Int {
            maxOriginExchanges ?? OriginClient.defaultMaxExchanges(descriptorLimit: HTTPExchangeSlots.descriptorLimit)
        }

        /// One line saying what the ceiling is and where it comes from, for `--check-config` and the startup log.
        public var originExchangesSummary: String {
            let source: String
            if maxOriginExchanges != nil {
                source = "limits.max_origin_exchanges"
            } else if let descriptors = HTTPExchangeSlots.descriptorLimit {
                source = "derived: a quarter of RLIMIT_NOFILE \(descriptors), between 16 and 1024"
            } else {
                source = "derived: RLIMIT_NOFILE unlimited"
            }
            return "origin exchanges: at most \(effectiveMaxOriginExchanges) in flight (\(source)); more get 503"
        }
    }

    /// The in-memory cache (JSON `cache`); a TTL or size of 0 turns that part off.
    public struct CacheSettings: Sendable, Hashable {
        /// Seconds a fetched master stays fresh (`master_ttl_seconds`); short, since live masters change.
        public var masterTTL: Double
        /// Seconds a subtitle source stays fresh (`subtitle_ttl_seconds`).
        public var subtitleTTL: Double
        /// Total bytes held (`max_bytes`).
        public var maxBytes: Int
        /// Where pass-through bodies are cached on disk (`disk_directory`); nil turns the disk cache off.
        public var diskDirectory: String?
        /// The disk cache's byte budget (`disk_max_bytes`); least recently used objects go first.
        public var diskMaxBytes: Int
        /// Seconds an empty fallback track stays cached, and the most its `max-age` says
        /// (`fallback_ttl_seconds`); short, so a source that was briefly missing comes back soon.
        public var fallbackTTL: Double
        /// Seconds a request's resolved tracks' answers are kept (`tracks_ttl_seconds`): optional tracks'
        /// source probes, and `tracks_url` answers per URL and header set (a failed answer is kept `fallbackTTL`).
        public var tracksTTL: Double = 60
        /// Seconds past `tracksTTL` a `tracks_url` answer with tracks is still served while refreshing it
        /// fails (`tracks_stale_seconds`, RFC 5861 §4 stale-if-error); a 404 or 410 replaces it at once.
        public var tracksStale: Double = 3600

        /// Makes cache settings; the defaults are the JSON defaults.
        public init(
            masterTTL: Double = 2, subtitleTTL: Double = 300, maxBytes: Int = 64 << 20, diskDirectory: String? = nil, diskMaxBytes: Int = 1 << 30,
            fallbackTTL: Double = 5
        ) {
            self.masterTTL = masterTTL
            self.subtitleTTL = subtitleTTL
            self.maxBytes = maxBytes
            self.diskDirectory = diskDirectory
            self.diskMaxBytes = diskMaxBytes
            self.fallbackTTL = fallbackTTL
        }
    }

    /// Cross-origin access to playlists and subtitle files (JSON `cors`).
    public struct CORS: Sendable, Hashable {
        /// `*` or `http(s)://host[:port]` values (`allow_origins`); empty sends no CORS headers.
        public var allowOrigins: [String]

        /// Makes CORS settings; by default any origin may read, as hls.js in a browser needs.
        public init(allowOrigins: [String] = ["*"]) {
            self.allowOrigins = allowOrigins
        }
    }

    /// How much the proxy logs (JSON `log_level`).
    public enum LogLevel: String, Sendable, Hashable, CaseIterable {
        /// Everything, including per-request detail.
        case debug
        /// Normal operation.
        case info
        /// Recoverable trouble, such as a subtitle source that failed.
        case warn
        /// Failures only.
        case error
    }
}
