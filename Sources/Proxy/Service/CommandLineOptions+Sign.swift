extension CommandLineOptions {
    /// What `sign` is asked to sign (docs/signing.md).
    public struct SignRequest: Equatable, Sendable {
        /// The master as a proxy path with its query (`--master`).
        public var master: String
        /// A file of track objects, or `-` for stdin (`--tracks`).
        public var tracks: String
        /// Seconds from now until the token expires (`--expires-in`, default 3600).
        public var expiresIn: Int64 = 3600
        /// The configured key to sign with (`--key-id`); may be left out when only one is configured.
        public var keyID: String?
        /// The tracks to list, by language or id (`--subtitles en,fr`).
        public var subtitles: [String]?
        /// The DEFAULT track, by language or id (`--default fr`).
        public var defaultTrack: String?
    }

    /// The longest `--expires-in`: ten years.
    static let maximumExpiresIn: Int64 = 10 * 366 * 24 * 3600

    /// Parses `sign --config PATH --master PATH --tracks FILE|- [--expires-in S] [--key-id ID] [--subtitles a,b] [--default a]`.
    static func parseSign(_ arguments: ArraySlice<String>, environment: [String: String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var master: String?, tracks: String?, expiresIn: Int64?, keyID: String?, subtitles: [String]?, defaultTrack: String?
        var cursor = ArgumentCursor(arguments)
        while let flag = cursor.nextFlag() {
            switch flag {
            case "--config", "-c": options.configPath = try cursor.value()
            case "--master": master = try cursor.value()
            case "--tracks": tracks = try cursor.value()
            case "--expires-in":
                let text = try cursor.value()
                guard text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seconds = Int64(text),
                      seconds >= 1, seconds <= maximumExpiresIn
                else {
                    throw UsageError(description: "--expires-in: \"\(Sanitized.text(text))\" is not a number of seconds (1-\(maximumExpiresIn))")
                }
                expiresIn = seconds
            case "--key-id": keyID = try cursor.value()
            case "--subtitles":
                let names = try cursor.value().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard !names.contains(where: \.isEmpty) else { throw UsageError(description: "--subtitles: give languages or ids separated by commas, e.g. en,fr") }
                subtitles = names
            case "--default":
                let name = try cursor.value()
                guard !name.isEmpty else { throw UsageError(description: "--default: give a language or id") }
                defaultTrack = name
            case "--help", "-h":
                options.action = .help
                return options
            default:
                throw UsageError(description: "unknown option \(Sanitized.text(cursor.argument)) for sign (see --help)")
            }
        }
        if options.configPath == nil, let path = environment["HLS_PROXY_CONFIG"], !path.isEmpty { options.configPath = path }
        guard options.configPath != nil else { throw UsageError(description: "sign needs --config PATH") }
        guard let master else { throw UsageError(description: "sign needs --master PATH (a proxy path, e.g. /sample/master.m3u8)") }
        guard let tracks else { throw UsageError(description: "sign needs --tracks FILE (or - for stdin)") }
        var request = SignRequest(master: master, tracks: tracks)
        if let expiresIn { request.expiresIn = expiresIn }
        request.keyID = keyID
        request.subtitles = subtitles
        request.defaultTrack = defaultTrack
        options.action = .sign(request)
        return options
    }
}
