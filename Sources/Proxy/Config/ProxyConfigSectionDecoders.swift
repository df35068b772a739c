import Foundation

/// The `listen` section: host, port and thread count.
enum ListenDecoder {
    static func listen(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.Listen {
        var listen = ProxyConfig.Listen()
        guard let members = reader.object(value, at: path, keys: ["host", "port", "threads"]) else { return listen }
        if let host = reader.string(members["host"], at: path.key("host")) {
            if host.isEmpty || host.unicodeScalars.contains(where: { $0 == " " || $0 == "\t" || $0 == "/" }) {
                reader.report(path.key("host"), "\(ConfigReader.quoted(host)) is not a host name or address")
            } else {
                listen.host = host
            }
        }
        if let port = reader.integer(members["port"], at: path.key("port")) {
            if let valid = Int(exactly: port), (0...65535).contains(valid) {
                listen.port = valid
            } else {
                reader.report(path.key("port"), "port \(port) is outside 0...65535")
            }
        }
        if let threads = reader.integer(members["threads"], at: path.key("threads")) {
            if let valid = Int(exactly: threads), (1...ProxyConfig.Listen.maxThreads).contains(valid) {
                listen.threads = valid
            } else {
                reader.report(path.key("threads"), "threads \(threads) is outside 1...\(ProxyConfig.Listen.maxThreads)")
            }
        }
        return listen
    }
}

/// The `embedded` section: which hosts embedded origin URLs may name.
enum EmbeddedOriginsDecoder {
    static func embedded(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.EmbeddedOrigins {
        var embedded = ProxyConfig.EmbeddedOrigins()
        guard let members = reader.object(value, at: path, keys: ["allow_hosts", "allow_private_networks"]) else { return embedded }
        if let allow = members["allow_private_networks"], let flag = reader.bool(allow, at: path.key("allow_private_networks")) {
            embedded.allowPrivateNetworks = flag
        }
        embedded.allowHosts = hostPatterns(members["allow_hosts"], at: path.key("allow_hosts"), in: &reader)
        return embedded
    }

    /// Host patterns as `allow_hosts` takes them (also a subtitle set's `source_hosts`); bad ones reported.
    static func hostPatterns(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> [HostPattern] {
        guard let elements = reader.array(value, at: path) else { return [] }
        var patterns: [HostPattern] = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.index(index)
            guard let text = reader.string(element, at: elementPath) else { continue }
            if text == "*" {
                // An allow-all list would make the proxy an open relay to any host, intranet included.
                reader.report(elementPath, "\"*\" would let clients reach any host; list the hosts or *.domain patterns")
            } else if let pattern = HostPattern(text) {
                patterns.append(pattern)
            } else if HostPattern.isBareIPv6(text) {
                reader.report(elementPath, "\(ConfigReader.quoted(text)) is an IPv6 address: write it in brackets, as in a URL (\"[\(text)]\")")
            } else {
                reader.report(elementPath, "\(ConfigReader.quoted(text)) is not a host name, *.domain pattern or IP address (no port)")
            }
        }
        return patterns
    }
}

/// The `timeouts` section: positive seconds for each wait.
enum TimeoutsDecoder {
    static func timeouts(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.Timeouts {
        var timeouts = ProxyConfig.Timeouts()
        let keys = ["connect_seconds", "origin_seconds", "header_seconds", "idle_seconds", "shutdown_seconds", "tracks_seconds"]
        guard let members = reader.object(value, at: path, keys: Set(keys)) else { return timeouts }
        let fields: [(String, WritableKeyPath<ProxyConfig.Timeouts, Double>)] = [
            ("connect_seconds", \.connect), ("origin_seconds", \.originTotal), ("header_seconds", \.header),
            ("idle_seconds", \.idle), ("shutdown_seconds", \.shutdownGrace), ("tracks_seconds", \.tracks),
        ]
        for (key, field) in fields {
            if let seconds = reader.positiveNumber(members[key], at: path.key(key)) { timeouts[keyPath: field] = seconds }
        }
        return timeouts
    }
}

/// The `limits` section: positive byte, cue and connection bounds.
enum LimitsDecoder {
    static func limits(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.Limits {
        var limits = ProxyConfig.Limits()
        let fields: [(String, WritableKeyPath<ProxyConfig.Limits, Int>)] = [
            ("max_playlist_bytes", \.maxPlaylistBytes), ("max_subtitle_bytes", \.maxSubtitleBytes),
            ("max_proxy_body_bytes", \.maxProxyBodyBytes), ("max_connections", \.maxConnections),
            ("max_subtitle_cues", \.maxSubtitleCues), ("max_tracks_response_bytes", \.maxTracksResponseBytes),
        ]
        guard let members = reader.object(value, at: path, keys: Set(fields.map(\.0) + ["max_origin_exchanges"])) else { return limits }
        for (key, field) in fields {
            guard let number = reader.integer(members[key], at: path.key(key)) else { continue }
            if let valid = Int(exactly: number), valid > 0 {
                limits[keyPath: field] = valid
            } else {
                reader.report(path.key(key), "must be greater than 0, got \(number)")
            }
        }
        if let number = reader.integer(members["max_origin_exchanges"], at: path.key("max_origin_exchanges")) {
            if let valid = Int(exactly: number), (1...1_000_000).contains(valid) {
                limits.maxOriginExchanges = valid
            } else {
                reader.report(path.key("max_origin_exchanges"), "must be between 1 and 1000000, got \(number)")
            }
        }
        return limits
    }
}

/// The `cache` section: TTLs, the memory bound and the disk tier.
struct CacheDecoder {
    /// What a relative `disk_directory` resolves against: the config file's directory.
    let baseDirectory: String

    func cache(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.CacheSettings {
        var cache = ProxyConfig.CacheSettings()
        let keys: Set<String> = ["master_ttl_seconds", "subtitle_ttl_seconds", "max_bytes", "disk_directory", "disk_max_bytes", "fallback_ttl_seconds", "tracks_ttl_seconds"]
        guard let members = reader.object(value, at: path, keys: keys) else { return cache }
        diskCache(members, at: path, into: &cache, in: &reader)
        let ttls = [("master_ttl_seconds", \ProxyConfig.CacheSettings.masterTTL), ("subtitle_ttl_seconds", \.subtitleTTL), ("fallback_ttl_seconds", \.fallbackTTL), ("tracks_ttl_seconds", \.tracksTTL)]
        for (key, field) in ttls {
            guard let seconds = reader.number(members[key], at: path.key(key)) else { continue }
            if seconds >= 0 { cache[keyPath: field] = seconds } else { reader.report(path.key(key), "must be 0 or more, got \(ConfigReader.formatted(seconds))") }
        }
        if let bytes = reader.integer(members["max_bytes"], at: path.key("max_bytes")) {
            if let valid = Int(exactly: bytes), valid >= 0 { cache.maxBytes = valid } else {
                reader.report(path.key("max_bytes"), "must be 0 or more, got \(bytes)")
            }
        }
        return cache
    }

    /// `disk_directory` (relative paths resolve against the config file's directory) and `disk_max_bytes`.
    private func diskCache(
        _ members: [String: ConfigValue], at path: ConfigPath, into cache: inout ProxyConfig.CacheSettings,
        in reader: inout ConfigReader
    ) {
        if let directory = reader.string(members["disk_directory"], at: path.key("disk_directory")) {
            if directory.isEmpty || directory.contains("\0") {
                reader.report(path.key("disk_directory"), "must be a directory path")
            } else {
                cache.diskDirectory = directory.hasPrefix("/") ? directory : baseDirectory + "/" + directory
            }
        }
        if let bytes = reader.integer(members["disk_max_bytes"], at: path.key("disk_max_bytes")) {
            if let valid = Int(exactly: bytes), valid > 0 { cache.diskMaxBytes = valid } else {
                reader.report(path.key("disk_max_bytes"), "must be greater than 0, got \(bytes)")
            }
        }
    }
}

/// The `cors` section: the origins answered with Access-Control-Allow-Origin.
enum CORSDecoder {
    static func cors(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.CORS {
        var cors = ProxyConfig.CORS()
        guard let members = reader.object(value, at: path, keys: ["allow_origins"]),
            let elements = reader.array(members["allow_origins"], at: path.key("allow_origins"))
        else { return cors }
        cors.allowOrigins = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.key("allow_origins").index(index)
            guard let origin = reader.string(element, at: elementPath) else { continue }
            // Fetch §3.2.5: an Origin is a serialized scheme://host[:port], never with a path.
            if origin == "*" || ConfigReader.isSerializedOrigin(origin) {
                cors.allowOrigins.append(origin)
            } else {
                reader.report(elementPath, "\(ConfigReader.quoted(origin)) is neither \"*\" nor http(s)://host[:port]")
            }
        }
        return cors
    }
}
