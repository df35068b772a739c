import Foundation

/// Everything the proxy is configured with, decoded from a JSON file and validated once at load.
public struct ProxyConfig: Sendable {
    /// Address and port to accept connections on.
    public var listen: Listen
    /// Origins served under `/{mount}/...`, sorted by name.
    public var mounts: [Mount]
    /// Hosts the embedded form `/{http|https}/{host}/...` may reach; none means the form is off.
    public var embedded: EmbeddedOrigins
    /// Subtitle tracks to add to matching masters (JSON key `subtitles`).
    public var subtitleSets: [SubtitleSet]
    /// Deadlines for origin and client I/O.
    public var timeouts: Timeouts
    /// Size and connection caps.
    public var limits: Limits
    /// In-memory cache lifetimes and size.
    public var cache: CacheSettings
    /// Origins allowed to read playlists and subtitles from a browser.
    public var cors: CORS
    /// Log level from the file, when it sets one; the command line may override it.
    public var logLevel: LogLevel?
    /// Whether one JSON access line per request goes to stdout (JSON `access_log`, default true).
    public var accessLog = true
    /// A PEM file of CA certificates trusted for https origins besides the system store (JSON
    /// `origin_ca_file`, relative to the config file); checked readable at load.
    public var originCAFile: String?
    /// Keys for signed playback URLs (JSON `signing`); none means the signed form is off.
    public var signing = Signing()
    /// The `listen` keys (`host`, `port`, `threads`) the file itself set, so start-up can say which
    /// parts of the address came from the file and which from flags, the environment or the defaults.
    public internal(set) var listenKeysFromFile: Set<String> = []

    /// Makes a config from parts; every part defaults to what an empty JSON object decodes to.
    public init(
        listen: Listen = Listen(),
        mounts: [Mount] = [],
        embedded: EmbeddedOrigins = EmbeddedOrigins(),
        subtitleSets: [SubtitleSet] = [],
        timeouts: Timeouts = Timeouts(),
        limits: Limits = Limits(),
        cache: CacheSettings = CacheSettings(),
        cors: CORS = CORS(),
        logLevel: LogLevel? = nil
    ) {
        self.listen = listen
        self.mounts = mounts.sorted { $0.name < $1.name }
        self.embedded = embedded
        self.subtitleSets = subtitleSets
        self.timeouts = timeouts
        self.limits = limits
        self.cache = cache
        self.cors = cors
        self.logLevel = logLevel
    }

    /// Reads and validates the file at `path`; relative directory origins resolve against the file's folder.
    public static func load(contentsOf path: String, environment: [String: String]) throws(ConfigError) -> ProxyConfig {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigError(problems: ["\(path): no such file"])
        }
        if isDirectory.boolValue { throw ConfigError(problems: ["\(path): is a directory, not a config file"]) }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw ConfigError(problems: ["\(path): cannot be read (\(error.localizedDescription))"])
        }
        let directory = url.standardizedFileURL.deletingLastPathComponent().path
        return try decode(bytes, environment: environment, baseDirectory: directory)
    }

    /// Decodes and validates JSON; relative directory origins resolve against the current directory.
    ///
    /// `${VAR}` in any string value (not in keys) is replaced from `environment`; `$${` is a literal `${`.
    /// Numbers and booleans may be given as a string holding a reference, e.g. `"port": "${PORT}"`.
    public static func decode(_ data: [UInt8], environment: [String: String]) throws(ConfigError) -> ProxyConfig {
        try decode(data, environment: environment, baseDirectory: FileManager.default.currentDirectoryPath)
    }

    /// Decodes JSON, resolving relative directory origins against `baseDirectory`; reports every problem at once.
    static func decode(_ data: [UInt8], environment: [String: String], baseDirectory: String) throws(ConfigError)
        -> ProxyConfig
    {
        let document: ConfigValue
        switch ConfigValue.parse(data) {
        case .success(let value): document = value
        case .failure(let error): throw error
        }
        var reader = ConfigReader(environment: environment)
        let config = ProxyConfigDecoder(baseDirectory: baseDirectory).proxyConfig(document, in: &reader)
        if let error = reader.error { throw error }
        return config
    }
}
