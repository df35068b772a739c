extension CommandLineOptions {
    /// What `rewrite` is asked to rewrite (docs/operations.md, "Command line").
    public struct RewriteRequest: Equatable, Sendable {
        /// The master's proxy URL (`--url http://127.0.0.1:8080/sample/master.m3u8`), or its proxy path
        /// with its query (`--path /sample/master.m3u8`): the same request target either way.
        public var url: String
        /// The master to rewrite: a file, or `-` for stdin.
        public var input: String = "-"
        /// The tracks to list, by language or id (`--subtitles en,fr`); replaces the URL's `hls_proxy_subtitles`.
        public var subtitles: [String]?
        /// The DEFAULT track, by language or id (`--default fr`); replaces the URL's `hls_proxy_default`.
        public var defaultTrack: String?
        /// `--network`: ask origins as the server would (http(s) optional tracks probed, `tracks_url`
        /// asked); without it nothing leaves the machine.
        public var network = false
    }

    /// Parses `rewrite --config PATH (--url URL | --path PATH) [--subtitles a,b] [--default a] [--network] [FILE|-]`.
    static func parseRewrite(_ arguments: ArraySlice<String>, environment: [String: String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var url: String?, path: String?, subtitles: [String]?, defaultTrack: String?, network = false
        var positional: [String] = []
        var cursor = ArgumentCursor(arguments)
        while let flag = cursor.nextFlag() {
            switch flag {
            case "--config", "-c": options.configPath = try cursor.value()
            case "--url":
                let text = try cursor.value()
                guard OfflineRewrite.proxyTarget(of: text) != nil else {
                    throw UsageError(description: "--url: \"\(Sanitized.text(text))\" is not an http(s) proxy URL such as http://127.0.0.1:8080/sample/master.m3u8")
                }
                url = text
            case "--path":
                let text = try cursor.value()
                guard SignedPayloadDecoder.isProxyTarget(text) else {
                    throw UsageError(description: "--path: \"\(Sanitized.text(text))\" is not a proxy path such as /sample/master.m3u8 (one leading \"/\", no spaces or \"#\")")
                }
                path = text
            case "--subtitles": subtitles = try parseChoiceList(try cursor.value(), flag: flag)
            case "--default": defaultTrack = try parseChoice(try cursor.value(), flag: flag)
            case "--network":
                guard cursor.argument == "--network" else { throw UsageError(description: "--network takes no value") }
                network = true
            case "--help", "-h":
                options.action = .help
                return options
            default:
                guard cursor.argument == "-" || !cursor.argument.hasPrefix("-") else {
                    throw UsageError(description: "unknown option \(Sanitized.text(cursor.argument)) for rewrite (see --help)")
                }
                positional.append(cursor.argument)
            }
        }
        if options.configPath == nil, let file = environment["HLS_PROXY_CONFIG"], !file.isEmpty { options.configPath = file }
        guard options.configPath != nil else { throw UsageError(description: "rewrite needs --config PATH") }
        guard url == nil || path == nil else { throw UsageError(description: "rewrite takes --url or --path, not both") }
        guard let target = url ?? path.map({ "http://127.0.0.1" + $0 }) else {
            throw UsageError(description: "rewrite needs --url MASTER_URL or --path MASTER_PATH (e.g. --path /sample/master.m3u8)")
        }
        guard positional.count <= 1 else { throw UsageError(description: "rewrite takes at most one input file") }
        var request = RewriteRequest(url: target, input: positional.first ?? "-")
        request.subtitles = subtitles
        request.defaultTrack = defaultTrack
        request.network = network
        options.action = .rewrite(request)
        return options
    }

    /// `--subtitles en,fr`: languages or ids, none empty (as `sign` takes them).
    static func parseChoiceList(_ text: String, flag: String) throws(UsageError) -> [String] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !names.contains(where: \.isEmpty) else { throw UsageError(description: "\(flag): give languages or ids separated by commas, e.g. en,fr") }
        for name in names { _ = try parseChoice(name, flag: flag) }
        return names
    }

    /// `--default fr`: one language or id: letters, digits, `-` and `_` (what an RFC 5646 LANGUAGE tag
    /// or a track id is made of), so it goes into the master's query as written.
    static func parseChoice(_ text: String, flag: String) throws(UsageError) -> String {
        guard !text.isEmpty else { throw UsageError(description: "\(flag): give a language or id") }
        guard text.utf8.count <= 64, text.utf8.allSatisfy({ ConfigReader.isPlainKeyByte($0) }) else {
            throw UsageError(description: "\(flag): \"\(Sanitized.text(text))\" is not a language or id (letters, digits, '-' and '_')")
        }
        return text
    }
}
