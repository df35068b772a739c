/// What the command line asks for, parsed without side effects so it can be tested.
public struct CommandLineOptions: Equatable, Sendable {
    /// The action to run.
    public enum Action: Equatable, Sendable {
        case serve
        case checkConfig
        case version
        case help
        /// `rewrite --config PATH (--url URL | --path PATH) ... [FILE|-]`: print a rewritten master, offline.
        case rewrite(RewriteRequest)
        /// `sign --config PATH --master PATH --tracks FILE|- ...`: print a signed playback path.
        case sign(SignRequest)
    }

    public var action: Action = .serve
    public var configPath: String?
    public var host: String?
    public var port: Int?
    /// `--threads N` or HLS_PROXY_THREADS: event loop threads; nil leaves the config's choice.
    public var threads: Int?
    /// Where `host`, `port` and `threads` came from (a flag or an environment variable), when set.
    public var hostSource: SettingSource?
    public var portSource: SettingSource?
    public var threadsSource: SettingSource?
    /// Environment values that were ignored, each with why (a Kubernetes service link in HLS_PROXY_PORT):
    /// logged as warnings once the logger exists.
    public var warnings: [String] = []
    public var logLevel: LogSeverity?
    /// `--access-log on|off` or HLS_PROXY_ACCESS_LOG; nil leaves the config's choice.
    public var accessLog: Bool?

    /// The program version (defined in `ProxyVersion`).
    public static var version: String { ProxyVersion.number }

    /// A usage error: one line, exit status 2.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Walks arguments one flag at a time; `--flag=value` and `--flag value` give the same value.
    struct ArgumentCursor {
        private var rest: ArraySlice<String>
        /// The current argument as written (`--flag=value` whole).
        private(set) var argument = ""
        private var flag = ""
        private var inline: String?

        init(_ arguments: ArraySlice<String>) { rest = arguments }

        /// The next flag (the part before `=` of `--flag=value`), or nil at the end.
        mutating func nextFlag() -> String? {
            guard let next = rest.first else { return nil }
            rest = rest.dropFirst()
            argument = next
            flag = argument
            inline = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            return flag
        }

        /// The current flag's value: what follows `=`, else the next argument.
        mutating func value() throws(UsageError) -> String {
            if let inline { return inline }
            guard let next = rest.first else { throw UsageError(description: "option \(flag) needs a value") }
            rest = rest.dropFirst()
            return next
        }
    }

    /// Parses arguments (without the program name); environment variables fill what flags leave unset.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> CommandLineOptions {
        if arguments.first == "sign" { return try parseSign(arguments.dropFirst(), environment: environment) }
        if arguments.first == "rewrite" { return try parseRewrite(arguments.dropFirst(), environment: environment) }
        var options = CommandLineOptions()
        var cursor = ArgumentCursor(arguments[...])
        while let flag = cursor.nextFlag() {
            switch flag {
            case "--config", "-c": options.configPath = try cursor.value()
            case "--host":
                options.host = try cursor.value()
                options.hostSource = .flag("--host")
            case "--port", "-p":
                options.port = try parsePort(try cursor.value(), source: flag)
                options.portSource = .flag("--port")
            case "--threads":
                options.threads = try parseThreads(try cursor.value(), source: flag)
                options.threadsSource = .flag("--threads")
            case "--log-level": options.logLevel = try parseLevel(try cursor.value(), source: flag)
            case "--access-log": options.accessLog = try parseSwitch(try cursor.value(), source: flag)
            case "--check-config": options.action = .checkConfig
            case "--version", "-V": options.action = .version
            case "--help", "-h": options.action = .help
            case "--url", "--path", "--network":
                throw UsageError(description: "\(flag) is only for the rewrite subcommand")
            default:
                throw UsageError(description: "unknown option \(Sanitized.text(cursor.argument)) (see --help)")
            }
        }
        try options.readEnvironment(environment)
        return options
    }

    static func parseSwitch(_ text: String, source: String) throws(UsageError) -> Bool {
        switch text.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw UsageError(description: "\(source): \"\(Sanitized.text(text))\" is not on or off")
        }
    }

    static func parsePort(_ text: String, source: String) throws(UsageError) -> Int {
        guard text.count <= 5, let port = Int(text), port >= 0, port <= 65535 else {
            throw UsageError(description: "\(source): \"\(Sanitized.text(text))\" is not a port number (0-65535)")
        }
        return port
    }

    static func parseThreads(_ text: String, source: String) throws(UsageError) -> Int {
        let most = ProxyConfig.Listen.maxThreads
        guard text.count <= 2, let threads = Int(text), threads >= 1, threads <= most else {
            throw UsageError(description: "\(source): \"\(Sanitized.text(text))\" is not a thread count (1-\(most))")
        }
        return threads
    }

    static func parseLevel(_ text: String, source: String) throws(UsageError) -> LogSeverity {
        guard let level = LogSeverity(name: text) else {
            throw UsageError(description: "\(source): \"\(Sanitized.text(text))\" is not one of debug, info, warn, error")
        }
        return level
    }

    /// The `--help` text.
    public static let helpText = """
        hls-subtitle-proxy \(version): an HLS proxy that adds WebVTT subtitle renditions to master playlists.

        Usage:
          hls-subtitle-proxy [--config PATH] [--host H] [--port N] [--threads N] [--log-level L] [--access-log on|off]
          hls-subtitle-proxy --check-config --config PATH
          hls-subtitle-proxy rewrite --config PATH (--url MASTER_URL | --path MASTER_PATH)
                                     [--subtitles en,fr] [--default fr] [--network] [FILE|-]
          hls-subtitle-proxy sign --config PATH --master PATH --tracks FILE|- [--expires-in SECONDS]
                                  [--key-id ID] [--subtitles en,fr] [--default fr]

        Options:
          -c, --config PATH      JSON config file (see config.example.json); without one nothing is
                                 mounted and every request but /healthz, /readyz and /metrics is 404
              --host H           listen address, IPv4 or IPv6 (default from config, else 127.0.0.1)
          -p, --port N           listen port, 0 picks a free one (default from config, else 8080)
              --threads N        event loop threads, 1-64, each accepting on the port (default from
                                 config, else 1; one per core the proxy may use is the most that helps)
              --log-level L      diagnostics on stderr: debug, info, warn or error (default info);
                                 debug adds origin fetches, cache and classification decisions
              --access-log on|off  one JSON line per request on stdout (default on, or the config's access_log)
              --check-config     validate the config file, print every problem by field path, exit 0
                                 or 1 (1 too when no config file is given); a valid one also prints
                                 the origin exchange ceiling in force
          -V, --version          print the version and exit
          -h, --help             print this help and exit

        Subcommand:
          rewrite                print FILE (or stdin) rewritten as the running proxy would serve the
                                 master at MASTER_URL (a proxy URL) or MASTER_PATH (its path and query),
                                 with the tracks the server would resolve: {captures} filled in from
                                 the path, optional tracks listed only when their source exists, and
                                 the choices (--subtitles lists only those tracks, --default makes one
                                 DEFAULT, by language or id; or the URL's hls_proxy_subtitles and
                                 hls_proxy_default). No network is used: optional tracks with a file
                                 source (a directory mount) are probed on disk, those with an http(s)
                                 source are left out and a set's tracks_url is not asked (its static
                                 tracks are listed), each with a warning on stderr; --network asks
                                 those origins as the server would. Exit 2 on usage errors, 1 when
                                 the input or config cannot be rewritten
          sign                   print a signed playback path /_hls-proxy/v1/signed/{token}/master.m3u8
                                 for the master PATH (a mount path or embedded form, with its query)
                                 and the tracks in FILE (a JSON array of track objects, or
                                 {"tracks": [...]}); --expires-in defaults to 3600 seconds, --key-id
                                 may be left out when signing.keys has one key; --subtitles lists
                                 only those tracks and --default makes one DEFAULT (by language or
                                 id); exit 2 on usage errors, 1 on an invalid track or master

        Environment (flags win over it, and it wins over the config file, which wins over the defaults;
        an empty value counts as unset):
          HLS_PROXY_CONFIG       config file path
          HLS_PROXY_HOST         listen address
          HLS_PROXY_PORT         listen port (PORT is read too, as platforms set it); a Kubernetes
                                 service link value (tcp://..., udp://..., sctp://...) is ignored with
                                 a warning
          HLS_PROXY_THREADS      event loop threads
          HLS_PROXY_LOG_LEVEL    diagnostics level
          HLS_PROXY_ACCESS_LOG   on or off: the access log
          ${VAR} in any config string is read from the environment; an unset variable is an error.

        Signals:
          SIGTERM, SIGINT        stop accepting, let in-flight requests finish, exit 0
          SIGHUP                 read the config file again, flags and environment over it; a valid one
                                 serves new requests, an invalid one is refused (problems logged) and the
                                 running one stays; listen, threads, timeouts other than shutdown_seconds,
                                 max_connections, max_origin_exchanges, origin_ca_file, the disk cache,
                                 log_level and access_log need a restart (kept, with a warning)

        Example:
          hls-subtitle-proxy --config config.example.json --port 8080
          curl -i http://127.0.0.1:8080/sample/master.m3u8
        """
}
